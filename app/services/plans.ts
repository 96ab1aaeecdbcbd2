import { ServiceError } from "~/lib/errors";
import type { PlanChannel } from "./channels";

/** The plan table of the spec (§8), in one place; every gate reads it. */
export const PLAN_KEYS = ["free", "starter", "pro", "scale"] as const;
export type PlanKey = (typeof PLAN_KEYS)[number];

export interface Plan {
  key: PlanKey;
  name: string;
  monthlyRequests: number;
  /** 0 means batch is not available on the plan. */
  maxBatchOperations: number;
  /** How many lists create-list may have made that are not deleted (docs/decisions/0011-named-lists.md). */
  maxNamedLists: number;
  channels: readonly PlanChannel[];
}

export const PLANS: Record<PlanKey, Plan> = {
  free: {
    key: "free",
    name: "Free",
    monthlyRequests: 500,
    maxBatchOperations: 0,
    maxNamedLists: 2,
    channels: ["online-store"],
  },
  starter: {
    key: "starter",
    name: "Starter",
    monthlyRequests: 5_000,
    maxBatchOperations: 10,
    maxNamedLists: 5,
    channels: ["online-store"],
  },
  pro: {
    key: "pro",
    name: "Pro",
    monthlyRequests: 50_000,
    maxBatchOperations: 50,
    maxNamedLists: 20,
    channels: ["online-store", "customer-account", "point-of-sale"],
  },
  scale: {
    key: "scale",
    name: "Scale",
    monthlyRequests: 250_000,
    maxBatchOperations: 50,
    maxNamedLists: 50,
    channels: ["online-store", "customer-account", "headless", "point-of-sale"],
  },
};

/**
 * The one channel gate (spec §8 rule 3), used at exchange and on every operation. Whoever can name
 * a shop can ask, so the answer says what to do without telling them which plan the shop pays for
 * (nor which plan has the channel, which would tell it). A channel comes only with a plan: the
 * merchant cannot switch it on, only upgrade.
 */
export function assertChannelEntitled(plan: Plan, channel: PlanChannel): void {
  if (!plan.channels.includes(channel)) {
    throw new ServiceError(
      "CHANNEL_NOT_ENTITLED",
      `The ${channel} channel is not included in this shop's Saved Items plan; it takes a plan upgrade, which only the shop's merchant can make`,
    );
  }
}

export function isPlanKey(value: string): value is PlanKey {
  return (PLAN_KEYS as readonly string[]).includes(value);
}

export function planFor(key: string): Plan {
  return isPlanKey(key) ? PLANS[key] : PLANS.free;
}

/**
 * Overage (docs/decisions/0008-overage-billing.md, 0018-overage-on-app-pricing.md): a paid plan's
 * shop whose merchant turned it on keeps being served past the monthly budget, billed per block of
 * requests begun, in US cents, up to the merchant's monthly cap. Free has no overage.
 */
export const OVERAGE_BLOCK_REQUESTS = 1_000;
/**
 * The usage meter of the app's Shopify App Pricing configuration (Partner Dashboard, Pricing):
 * one unit is one block of OVERAGE_BLOCK_REQUESTS requests, at OVERAGE_BLOCK_PRICE_CENTS of the
 * shop's plan. The Partner Dashboard must hold exactly this handle and these prices.
 */
export const OVERAGE_METER_HANDLE = "overage_blocks";
export const OVERAGE_BLOCK_PRICE_CENTS: Readonly<Partial<Record<PlanKey, number>>> = {
  starter: 200,
  pro: 150,
  scale: 100,
};

/** The highest monthly cap the plans page takes, in USD: a typing slip must not allow thousands. */
export const MAX_OVERAGE_CAP_USD = 1_000;

/** The block price of the plan's overage in cents, or undefined when the plan has none. */
export function overageBlockPriceCents(plan: Plan): number | undefined {
  return OVERAGE_BLOCK_PRICE_CENTS[plan.key];
}

/** The overage meter as the Partner Dashboard's pricing configuration holds it (the sandbox and tests give it to the emulator). */
export const OVERAGE_METER = { handle: OVERAGE_METER_HANDLE, unitPriceCents: OVERAGE_BLOCK_PRICE_CENTS };
