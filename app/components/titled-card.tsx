import { BlockStack, Card, InlineStack, Text } from "@shopify/polaris";
import type { ReactNode } from "react";

/** The admin pages' one card layout: a heading (with an optional badge beside it), then content. */
export function TitledCard({ title, badge, children }: { title: string; badge?: ReactNode; children: ReactNode }) {
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack gap="200" blockAlign="center">
          <Text as="h2" variant="headingMd">
            {title}
          </Text>
          {badge}
        </InlineStack>
        {children}
      </BlockStack>
    </Card>
  );
}
