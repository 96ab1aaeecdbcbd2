import type { ActionFunctionArgs } from "@remix-run/node";
import { isServiceError } from "~/lib/errors";
import { handleComplianceWebhook, isComplianceTopic } from "~/services/compliance/compliance-webhooks.server";
import { authenticate } from "~/shopify.server";

/**
 * The three mandatory compliance topics (customers/data_request, customers/redact, shop/redact),
 * declared with compliance_topics in shopify.app.toml, all delivered here.
 */
export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, topic, payload } = await authenticate.webhook(request);
  if (!isComplianceTopic(topic)) {
    console.warn(`[compliance] unexpected topic ${topic} for ${shop}; check the webhook subscriptions`);
    return new Response(null, { status: 422 });
  }
  try {
    return Response.json(await handleComplianceWebhook(topic, shop, payload));
  } catch (error) {
    if (isServiceError(error) && error.code === "VALIDATION_ERROR") {
      console.warn(`[compliance] ${topic} for ${shop}: ${error.message}`);
      return new Response(null, { status: 400 });
    }
    // The work is idempotent; a non-2xx answer makes the platform deliver it again and finish it.
    console.error(`[compliance] ${topic} for ${shop} failed; the platform will retry`, error);
    return new Response(null, { status: 500 });
  }
};
