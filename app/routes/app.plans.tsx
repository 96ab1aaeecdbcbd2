import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Badge, BlockStack, Box, Button, Card, InlineGrid, List, Page, Text } from "@shopify/polaris";
import { pageTitle } from "~/components/page-title";
import { requireAdminShop } from "~/edge/front-doors/admin-shop.server";
import { getPlansOverview } from "~/services/merchant-pages/plan-overview.server";

export const meta = pageTitle("Plans");

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { shop, plan } = await requireAdminShop(request);
  return getPlansOverview(shop, plan);
};

export default function Plans() {
  const { plans, pricingPlansUrl } = useLoaderData<typeof loader>();
  return (
    <Page title="Plans" backAction={{ content: "Home", url: "/app" }}>
      <BlockStack gap="400">
        <Text as="p" tone="subdued">
          Plans are billed by Shopify. Upgrading, downgrading or cancelling happens on Shopify&apos;s plan page; the app
          picks up the change as soon as you come back.
        </Text>
        <InlineGrid columns={{ xs: 1, sm: 2, md: 4 }} gap="400">
          {plans.map((plan) => (
            <Card key={plan.key}>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  {plan.name}
                </Text>
                <List>
                  {plan.features.map((feature) => (
                    <List.Item key={feature}>{feature}</List.Item>
                  ))}
                </List>
                <Box>
                  {plan.change === "current" ? (
                    <Badge tone="success">Current plan</Badge>
                  ) : (
                    // The plan page is on admin.shopify.com: it must open top-level, not inside the app's iframe.
                    <Button
                      url={pricingPlansUrl}
                      target="_top"
                      variant={plan.change === "upgrade" ? "primary" : "secondary"}
                    >
                      {plan.change === "upgrade" ? `Upgrade to ${plan.name}` : `Downgrade to ${plan.name}`}
                    </Button>
                  )}
                </Box>
              </BlockStack>
            </Card>
          ))}
        </InlineGrid>
      </BlockStack>
    </Page>
  );
}
