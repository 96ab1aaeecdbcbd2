import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useFetcher, useLoaderData } from "@remix-run/react";
import {
  Badge,
  Banner,
  BlockStack,
  Box,
  Button,
  Card,
  InlineGrid,
  InlineStack,
  List,
  Page,
  ProgressBar,
  Text,
  TextField,
} from "@shopify/polaris";
import { useState } from "react";
import { pageTitle } from "~/components/page-title";
import { overageAction, type OverageActionResult } from "~/edge/admin-overage.server";
import { requireAdminShop } from "~/edge/front-doors/admin-shop.server";
import { getOverageOverview } from "~/services/merchant-pages/overage-overview.server";
import { getPlansOverview } from "~/services/merchant-pages/plan-overview.server";
import { MAX_OVERAGE_CAP_USD } from "~/services/plans";

export const meta = pageTitle("Plans");

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { shop, plan } = await requireAdminShop(request);
  return { ...getPlansOverview(shop, plan), usage: await getOverageOverview(shop, plan) };
};

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, plan } = await requireAdminShop(request);
  return overageAction(shop, plan, request);
};

const number = (value: number) => value.toLocaleString("en-US");
const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

type Usage = ReturnType<typeof useLoaderData<typeof loader>>["usage"];

function UsageCard({ usage }: { usage: Usage }) {
  const { budget } = usage;
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          This month
        </Text>
        <Text as="p">{`${number(budget.used)} of ${number(budget.budget)} requests in the plan's budget (${budget.percentUsed}%)`}</Text>
        <ProgressBar progress={budget.percentUsed} tone={budget.refusing ? "critical" : "highlight"} />
        <Text as="p">{budget.summary}</Text>
        <Text as="p">
          {`Past the budget: ${number(usage.pastBudget)} requests, ${number(usage.blocksCharged)} ${usage.blocksCharged === 1 ? "block" : "blocks"} charged, ${dollars(usage.chargedCents)} so far`}
        </Text>
        {usage.overage ? <OverageForm overage={usage.overage} /> : null}
      </BlockStack>
    </Card>
  );
}

function OverageForm({ overage }: { overage: NonNullable<Usage["overage"]> }) {
  const fetcher = useFetcher<OverageActionResult>();
  const [cap, setCap] = useState(((overage.capCents ?? overage.blockPriceCents * 10) / 100).toFixed(2));
  const result = fetcher.data;
  const busy = fetcher.state !== "idle";
  // The banners' "Turn overage on", "Change the cap" and "Raise the cap" open the page here.
  return (
    <div id="overage">
      <BlockStack gap="300">
        <Text as="h3" variant="headingSm">
          Keep serving past the budget
        </Text>
        <Text as="p" tone="subdued">
          {`With overage on, requests past the budget are billed by Shopify with your plan, at ${dollars(overage.blockPriceCents)} per ${number(overage.blockRequests)} requests begun, as the usage price on Shopify's plan page says. The app stops at the monthly cap you set here: past it, requests are refused until the month ends or you raise the cap.`}
        </Text>
        <Text as="p">
          {overage.enabled && overage.capCents !== null
            ? `Overage is on, capped at ${dollars(overage.capCents)} a month.`
            : "Overage is off."}
        </Text>
        {overage.paused ? (
          // The velocity guard's pause (decision 0018): only the merchant's resume bills again.
          <Banner
            tone="warning"
            title="Overage billing is paused for review"
            action={{
              content: "Resume overage",
              loading: busy,
              onAction: () => fetcher.submit({ intent: "overage-resume" }, { method: "post" }),
            }}
          >
            {`${number(overage.paused.blocksInHour)} ${overage.paused.blocksInHour === 1 ? "block was" : "blocks were"} billed in the hour before ${new Date(overage.paused.since).toUTCString()}, faster than this shop usually uses overage. Requests past the budget are refused until you resume; nothing more is billed meanwhile. If the traffic looks wrong (many new accounts, one visitor), check your store before resuming.`}
          </Banner>
        ) : null}
        {result && !result.ok ? <Banner tone="critical">{result.message}</Banner> : null}
        <InlineStack gap="300" blockAlign="end">
          <TextField
            label="Monthly cap (USD)"
            type="number"
            min={1}
            max={MAX_OVERAGE_CAP_USD}
            step={0.01}
            value={cap}
            onChange={setCap}
            autoComplete="off"
          />
          <Button
            variant="primary"
            loading={busy}
            onClick={() => fetcher.submit({ intent: "overage-on", capUsd: cap }, { method: "post" })}
          >
            {overage.enabled ? "Change the cap" : "Turn overage on"}
          </Button>
          {overage.enabled ? (
            <Button loading={busy} onClick={() => fetcher.submit({ intent: "overage-off" }, { method: "post" })}>
              Turn overage off
            </Button>
          ) : null}
          {/* The plan page is on admin.shopify.com: it must open top-level, not inside the app's iframe. */}
          <Button url={overage.pricingPlansUrl} target="_top" variant="plain">
            See the usage price on Shopify
          </Button>
        </InlineStack>
      </BlockStack>
    </div>
  );
}

export default function Plans() {
  const { plans, pricingPlansUrl, usage } = useLoaderData<typeof loader>();
  return (
    <Page title="Plans" backAction={{ content: "Home", url: "/app" }}>
      <BlockStack gap="400">
        <Text as="p" tone="subdued">
          Plans are billed by Shopify. Upgrading, downgrading or cancelling happens on Shopify&apos;s plan page; the app
          picks up the change as soon as you come back.
        </Text>
        <UsageCard usage={usage} />
        <InlineGrid columns={{ xs: 1, sm: 2, md: 4 }} gap="400">
          {plans.map((plan) => (
            <Card key={plan.key}>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  {plan.name}
                </Text>
                <List>
                  {[...plan.features, plan.overage].map((feature) => (
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
