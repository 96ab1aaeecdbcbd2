import { parsedWebhookAction } from "~/edge/parsed-webhook.server";
import { SubscriptionWebhookPayloadSchema } from "~/services/billing/plan-refresh.server";
import { refreshPlanFromSubscriptionWebhook } from "~/services/billing/subscription-webhook.server";

/** app_subscriptions/update: the shop's plan read again; answers the plan it now has. */
export const action = parsedWebhookAction(
  "app_subscriptions/update",
  SubscriptionWebhookPayloadSchema,
  refreshPlanFromSubscriptionWebhook,
);
