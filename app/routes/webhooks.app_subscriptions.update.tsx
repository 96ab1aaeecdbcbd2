import type { ActionFunctionArgs } from "@remix-run/node";
import { refreshPlanFromSubscriptionWebhook } from "~/services/billing/subscription-webhook.server";
import type { SubscriptionWebhookPayload } from "~/services/billing/plan-refresh.server";
import { errorFields, writeLog } from "~/lib/json-log";
import { authenticate } from "~/shopify.server";

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, payload } = await authenticate.webhook(request);
  try {
    const outcome = await refreshPlanFromSubscriptionWebhook(shop, payload as SubscriptionWebhookPayload);
    return Response.json(outcome);
  } catch (error) {
    // A non-2xx answer makes the platform deliver the webhook again later.
    writeLog("error", "app_subscriptions/update failed; the platform will retry", { shop, error: errorFields(error) });
    return new Response(null, { status: 500 });
  }
};
