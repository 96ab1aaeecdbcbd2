import { writeLog } from "~/lib/json-log";
import { z } from "zod";
import { clock } from "~/lib/clock";
import { registerProcessCache } from "~/lib/process-caches.server";
import { runAdminGraphql, type AdminGraphqlClient } from "~/platform/admin-graphql.server";
import { readShopPlan, storeShopPlan as storePlanRecord } from "~/services/installs/shop-state.server";
import { PLAN_KEYS, PLANS, isPlanKey, type Plan, type PlanKey } from "~/services/plans";
import type { SavedItemsBillingCurrentSubscriptionsQuery } from "~/types/admin.generated";

/** Records a plan read from the platform (or its webhook) now. */
const storeShopPlan = (shop: string, key: PlanKey) => storePlanRecord(shop, key, clock.now());

/**
 * The plan's source of truth is the shop's active app subscription (Shopify App Pricing, plan
 * handles free/starter/pro/scale). This module is the only place that reads it; everything else
 * reads Shop.plan, so the hot path never calls the billing API.
 */
const CURRENT_SUBSCRIPTIONS = `#graphql
  query SavedItemsBillingCurrentSubscriptions {
    currentAppInstallation {
      activeSubscriptions {
        name
        status
        lineItems {
          plan {
            pricingDetails {
              __typename
              ... on AppRecurringPricing {
                planHandle
              }
            }
          }
        }
      }
    }
  }`;

export type SubscriptionSummary =
  SavedItemsBillingCurrentSubscriptionsQuery["currentAppInstallation"]["activeSubscriptions"][number];

/**
 * The plan an installation's subscriptions pay for: the planHandle when the platform gives one
 * (it survives renames), else the subscription name; no ACTIVE subscription means Free. Two
 * active subscriptions only overlap briefly during a change, and the merchant pays for both, so
 * the larger plan wins.
 */
export function planKeyFromSubscriptions(subscriptions: SubscriptionSummary[]): PlanKey {
  const keys = subscriptions
    .filter((subscription) => subscription.status === "ACTIVE")
    .map(planKeyOfSubscription)
    .filter((key): key is PlanKey => key !== undefined);
  return keys.reduce<PlanKey>((best, key) => (PLAN_KEYS.indexOf(key) > PLAN_KEYS.indexOf(best) ? key : best), "free");
}

function planKeyOfSubscription(subscription: SubscriptionSummary): PlanKey | undefined {
  const handle = subscription.lineItems
    .map(({ plan: { pricingDetails } }) =>
      pricingDetails.__typename === "AppRecurringPricing" ? pricingDetails.planHandle : undefined,
    )
    .find((value): value is string => Boolean(value));
  const key = planKeyNamed(handle) ?? planKeyNamed(subscription.name);
  if (!key) {
    writeLog(
      "warn",
      `[billing] active subscription "${subscription.name}" (plan handle ${handle ?? "none"}) matches no plan in PLANS; counted as Free`,
    );
  }
  return key;
}

/** Matches a plan handle or a subscription name ("Pro", "pro") to a key of the plan table. */
export function planKeyNamed(value: string | null | undefined): PlanKey | undefined {
  if (!value) return undefined;
  const normalised = value.trim().toLowerCase();
  if (isPlanKey(normalised)) return normalised;
  return PLAN_KEYS.find((key) => PLANS[key].name.toLowerCase() === normalised);
}

/**
 * The loaders of one admin page load (the app frame and its page) each authenticate and then
 * refresh the plan. They start together but do not always overlap: one may finish its refresh
 * while the other still waits on its session lookup. A refresh settled this recently answers them
 * all with one platform call; a subscription change takes a merchant far longer than this to
 * approve, and its webhook refreshes regardless.
 */
export const PAGE_LOAD_WINDOW_MS = 3_000;

interface Refresh {
  plan: Promise<Plan>;
  settledAt?: number;
}

const refreshes = new Map<string, Refresh>();
registerProcessCache(() => refreshes.clear());

/**
 * Reads the shop's active subscription from the platform and records its plan (Shop.plan and
 * planRefreshedAt). Called on admin load, on the app_subscriptions/update webhook and on the
 * billing return route. Callers asking at once share one platform call; with `reuseWithinMs` a
 * refresh that settled that recently is reused too. Platform failures are ServiceErrors; the
 * library's re-authentication Response (401 or a bounce redirect) is rethrown as is, so Remix
 * can serve it. A failed refresh is never reused.
 */
export function refreshShopPlan(
  shop: string,
  admin: AdminGraphqlClient,
  { reuseWithinMs = 0 }: { reuseWithinMs?: number } = {},
): Promise<Plan> {
  const last = refreshes.get(shop);
  if (last && (last.settledAt === undefined || Date.now() - last.settledAt < reuseWithinMs)) return last.plan;
  const refresh: Refresh = {
    plan: (async () => {
      const data = await runAdminGraphql(admin, CURRENT_SUBSCRIPTIONS, {});
      return storeShopPlan(shop, planKeyFromSubscriptions(data.currentAppInstallation.activeSubscriptions));
    })(),
  };
  const forget = () => {
    if (refreshes.get(shop) === refresh) refreshes.delete(shop);
  };
  refresh.plan.then(() => {
    refresh.settledAt = Date.now();
    setTimeout(forget, PAGE_LOAD_WINDOW_MS).unref();
  }, forget);
  refreshes.set(shop, refresh);
  return refresh.plan;
}

const ENDED_STATUSES = ["CANCELLED", "DECLINED", "EXPIRED", "FROZEN"];

export const SubscriptionWebhookPayloadSchema = z.object({
  app_subscription: z
    .object({ name: z.string().nullish(), status: z.string().nullish(), plan_handle: z.string().nullish() })
    .nullish(),
});
export type SubscriptionWebhookPayload = z.infer<typeof SubscriptionWebhookPayloadSchema>;

/**
 * The fallback when the platform cannot be asked (no offline session, or its token is revoked):
 * apply the app_subscriptions/update payload itself. An ACTIVE subscription sets its plan; an
 * ended one drops the shop to Free only if it is the plan on record, because a plan change ends
 * the old subscription and activates the new one in whichever order the webhooks arrive.
 * Returns the recorded plan, or undefined when the payload changed nothing.
 */
export async function applySubscriptionPayload(
  shop: string,
  payload: SubscriptionWebhookPayload,
): Promise<Plan | undefined> {
  const subscription = payload.app_subscription;
  const key = planKeyNamed(subscription?.plan_handle) ?? planKeyNamed(subscription?.name);
  const status = subscription?.status?.toUpperCase();
  if (!key || !status) return undefined;
  if (status === "ACTIVE") return storeShopPlan(shop, key);
  if (ENDED_STATUSES.includes(status)) {
    if ((await readShopPlan(shop)).key === key) return storeShopPlan(shop, "free");
  }
  return undefined;
}
