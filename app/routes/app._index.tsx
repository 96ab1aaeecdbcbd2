import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { BlockStack, Card, Layout, Page, ProgressBar, Text } from "@shopify/polaris";
import { authenticate } from "~/shopify.server";
import { requireInstalledShopPlan } from "~/services/shops.server";
import { monthlyUsage, nextPeriodStart } from "~/services/usage.server";
import { clock } from "~/lib/clock";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const plan = await requireInstalledShopPlan(session.shop);
  const now = clock.now();
  return {
    plan,
    used: await monthlyUsage(session.shop, now),
    resetsAt: nextPeriodStart(now).toISOString(),
  };
};

export default function Index() {
  const { plan, used, resetsAt } = useLoaderData<typeof loader>();
  return (
    <Page title="Saved Items">
      <Layout>
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                {plan.name} plan
              </Text>
              <Text as="p">
                {used.toLocaleString()} of {plan.monthlyRequests.toLocaleString()} requests this month (resets{" "}
                {new Date(resetsAt).toUTCString()})
              </Text>
              <ProgressBar progress={Math.min(100, (used / plan.monthlyRequests) * 100)} />
              <Text as="p">Channels: {plan.channels.join(", ")}</Text>
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
