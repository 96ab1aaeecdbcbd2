import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Badge, InlineStack, Layout, List, Page, ProgressBar, Text } from "@shopify/polaris";
import { TitledCard } from "~/components/titled-card";
import { requireAdminShop } from "~/edge/front-doors/admin-shop.server";
import { getHomeOverview } from "~/services/merchant-pages/plan-overview.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { shop, plan } = await requireAdminShop(request);
  return getHomeOverview(shop, plan);
};

const formatDate = (iso: string) =>
  new Date(iso).toLocaleString("en-US", { dateStyle: "long", timeStyle: "short", timeZone: "UTC" }) + " UTC";

export default function Home() {
  const { plan, usage, channels } = useLoaderData<typeof loader>();
  return (
    <Page title="Saved Items" primaryAction={{ content: "Change plan", url: "/app/plans" }}>
      <Layout>
        <Layout.Section>
          <TitledCard title={`${plan.name} plan`} badge={<Badge tone="info">Current</Badge>}>
            <List>
              {plan.features.map((feature) => (
                <List.Item key={feature}>{feature}</List.Item>
              ))}
            </List>
          </TitledCard>
        </Layout.Section>
        <Layout.Section>
          <TitledCard title="Requests this month">
            <Text as="p">
              {usage.used.toLocaleString("en-US")} of {usage.budget.toLocaleString("en-US")} ({usage.percentUsed}%)
            </Text>
            <ProgressBar progress={usage.percentUsed} tone={usage.percentUsed >= 100 ? "critical" : "primary"} />
            <Text as="p" tone="subdued">
              Every save, remove, toggle, batch, list and is-saved request counts once, on every channel. The budget
              resets on {formatDate(usage.resetsAt)}.
              {usage.percentUsed >= 100 ? " Until then, requests are refused with PLAN_LIMIT_REACHED." : ""}
            </Text>
          </TitledCard>
        </Layout.Section>
        <Layout.Section>
          <TitledCard title="Channels">
            {channels.map((channel) => (
              <InlineStack key={channel.channel} gap="200" blockAlign="center">
                <Text as="span">{channel.label}</Text>
                {channel.enabled ? (
                  <Badge tone="success">Enabled</Badge>
                ) : (
                  <Badge>{`Needs ${channel.requiredPlan}`}</Badge>
                )}
              </InlineStack>
            ))}
          </TitledCard>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
