import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Badge, Button, InlineGrid, InlineStack, Layout, List, Page, ProgressBar, Text } from "@shopify/polaris";
import { TitledCard } from "~/components/titled-card";
import { pageTitle } from "~/components/page-title";
import { ThemeExtensionStatus } from "~/components/theme-extension-status";
import { getEnv } from "~/config/env.server";
import { requireAdminShop } from "~/edge/front-doors/admin-shop.server";
import { getHomeFigures } from "~/services/merchant-pages/home-figures.server";
import { getHomeOverview } from "~/services/merchant-pages/plan-overview.server";
import { themeItems } from "~/services/merchant-pages/theme-extension";

export const meta = pageTitle();

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { shop, plan, admin } = await requireAdminShop(request);
  const [overview, figures] = await Promise.all([getHomeOverview(shop, plan), getHomeFigures(admin)]);
  return { ...overview, figures, themeItems: themeItems(shop, getEnv().SHOPIFY_API_KEY) };
};

const formatDate = (iso: string) =>
  new Date(iso).toLocaleString("en-US", { dateStyle: "long", timeStyle: "short", timeZone: "UTC" }) + " UTC";
const number = (value: number) => value.toLocaleString("en-US");

type Figures = ReturnType<typeof useLoaderData<typeof loader>>["figures"];

function KeyFigures({ figures, requestsUsed }: { figures: Figures; requestsUsed: number }) {
  const tiles: [string, string][] = [
    ["Requests used", number(requestsUsed)],
    ...(figures
      ? ([
          ["Shoppers with saved items", number(figures.activeShoppers)],
          ["Saved items", number(figures.activeItems)],
          ["Saves in the last 30 days", number(figures.savesLast30Days)],
        ] as [string, string][])
      : []),
  ];
  return (
    <TitledCard title="Key figures">
      <InlineGrid columns={{ xs: 2, md: 4 }} gap="400">
        {tiles.map(([label, value]) => (
          <div key={label}>
            <Text as="p" tone="subdued">
              {label}
            </Text>
            <Text as="p" variant="headingXl">
              {value}
            </Text>
          </div>
        ))}
      </InlineGrid>
      {figures ? (
        <Text as="p" tone="subdued">{`Saved items as of the last Insights refresh, ${formatDate(figures.asOf)}.`}</Text>
      ) : (
        <InlineStack gap="200" blockAlign="center">
          <Text as="p" tone="subdued">
            Shoppers and saved items are counted by an Insights refresh, which has not run yet.
          </Text>
          <Button url="/app/insights" variant="plain">
            Open Insights
          </Button>
        </InlineStack>
      )}
    </TitledCard>
  );
}

export default function Home() {
  const { plan, usage, channels, figures, themeItems } = useLoaderData<typeof loader>();
  return (
    <Page title="Saved Items" primaryAction={{ content: "Change plan", url: "/app/plans" }}>
      <Layout>
        <Layout.Section>
          <KeyFigures figures={figures} requestsUsed={usage.used} />
        </Layout.Section>
        <Layout.Section>
          <ThemeExtensionStatus items={themeItems} />
        </Layout.Section>
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
            <ProgressBar progress={usage.percentUsed} tone={usage.refusing ? "critical" : "primary"} />
            <Text as="p" tone="subdued">
              Every save, remove, toggle, batch, list and is-saved request counts once, on every channel. The budget
              resets on {formatDate(usage.resetsAt)}.
            </Text>
            <Text as="p">{usage.summary}</Text>
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
