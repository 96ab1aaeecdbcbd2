import { isServiceError } from "~/lib/errors";
import type { PlanKey } from "~/services/plans";
import { loadOfflineAdmin } from "~/platform/offline-admin.server";
import { applySubscriptionPayload, refreshShopPlan, type SubscriptionWebhookPayload } from "./plan-refresh.server";

export interface SubscriptionWebhookOutcome {
  plan: PlanKey | null;
  /** platform: read from the shop's active subscriptions; payload: from the webhook itself; none: unchanged. */
  source: "platform" | "payload" | "none";
}

/**
 * app_subscriptions/update: re-reads the active subscription, which is authoritative whatever
 * order the platform delivers updates in. Only when the shop cannot be asked (no offline session,
 * or its token was revoked) does the payload's plan_handle decide.
 */
export async function refreshPlanFromSubscriptionWebhook(
  shop: string,
  _webhookId: string,
  payload: SubscriptionWebhookPayload,
): Promise<SubscriptionWebhookOutcome> {
  const admin = await loadOfflineAdmin(shop);
  if (admin) {
    try {
      return { plan: (await refreshShopPlan(shop, admin)).key, source: "platform" };
    } catch (error) {
      if (!(isServiceError(error) && error.code === "SHOP_NOT_INSTALLED")) throw error;
    }
  }
  const plan = await applySubscriptionPayload(shop, payload);
  return plan ? { plan: plan.key, source: "payload" } : { plan: null, source: "none" };
}
