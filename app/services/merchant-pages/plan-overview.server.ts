import { clock } from "~/lib/clock";
import { PLAN_CHANNELS, type PlanChannel } from "~/services/channels";
import {
  OVERAGE_BLOCK_REQUESTS,
  PLAN_KEYS,
  PLANS,
  overageBlockPriceCents,
  type Plan,
  type PlanKey,
} from "~/services/plans";
import { usagePeriod } from "~/services/usage/monthly-budget.server";
import { pricingPlansUrl } from "~/services/billing/pricing-page";
import { getBudgetView } from "./overage-overview.server";

export const CHANNEL_LABELS: Record<PlanChannel, string> = {
  "online-store": "Online Store",
  "customer-account": "Customer account",
  headless: "Headless",
  "point-of-sale": "Point of Sale",
};

/** The cheapest plan that includes a channel, read from the plan table. */
export function cheapestPlanWith(channel: PlanChannel): Plan {
  return PLAN_KEYS.map((key) => PLANS[key]).find((plan) => plan.channels.includes(channel)) ?? PLANS.scale;
}

export interface PlanDescription {
  key: PlanKey;
  name: string;
  monthlyRequests: number;
  maxBatchOperations: number;
  channels: PlanChannel[];
  /** What the plan includes, in the merchant's words. */
  features: string[];
}

export function describePlan(plan: Plan): PlanDescription {
  return {
    key: plan.key,
    name: plan.name,
    monthlyRequests: plan.monthlyRequests,
    maxBatchOperations: plan.maxBatchOperations,
    channels: [...plan.channels],
    features: [
      `${plan.monthlyRequests.toLocaleString("en-US")} requests a month`,
      plan.maxBatchOperations === 0
        ? "Batch requests: not included"
        : `Batch requests of up to ${plan.maxBatchOperations} operations`,
      `Channels: ${plan.channels.map((channel) => CHANNEL_LABELS[channel]).join(", ")}`,
    ],
  };
}

/**
 * Home: the plan, this month's usage against its budget and when it resets, and the channels.
 * Top saved products are left out on purpose: saved_at is not filterable on the platform, so
 * ranking this month's saves means reading every save_item of the shop on each page load.
 */
export async function getHomeOverview(shop: string, plan: Plan) {
  return {
    shop,
    plan: describePlan(plan),
    usage: { period: usagePeriod(clock.now()), ...(await getBudgetView(shop, plan)) },
    channels: PLAN_CHANNELS.map((channel) => ({
      channel,
      label: CHANNEL_LABELS[channel],
      enabled: plan.channels.includes(channel),
      requiredPlan: cheapestPlanWith(channel).name,
    })),
  };
}

/** What the plan does past its budget, with the overage price when it has one. */
function overageFeature(plan: Plan): string {
  const cents = overageBlockPriceCents(plan);
  return cents === undefined
    ? "Past the budget: requests are refused"
    : `Past the budget, if you turn overage on: $${(cents / 100).toFixed(2)} per ${OVERAGE_BLOCK_REQUESTS.toLocaleString("en-US")} requests, up to your cap`;
}

/** Plans: the four plans side by side, each with the change it would be from the current one. */
export function getPlansOverview(shop: string, plan: Plan) {
  const current = PLAN_KEYS.indexOf(plan.key);
  return {
    currentPlan: plan.key,
    pricingPlansUrl: pricingPlansUrl(shop),
    plans: PLAN_KEYS.map((key, index) => ({
      ...describePlan(PLANS[key]),
      overage: overageFeature(PLANS[key]),
      change:
        index === current ? ("current" as const) : index > current ? ("upgrade" as const) : ("downgrade" as const),
    })),
  };
}
