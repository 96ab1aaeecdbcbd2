import { parsedWebhookAction } from "~/edge/parsed-webhook.server";
import {
  COMPLIANCE_TOPICS,
  CompliancePayloadSchema,
  handleComplianceWebhook,
} from "~/services/compliance/compliance-webhooks.server";

/**
 * The three mandatory compliance topics (customers/data_request, customers/redact, shop/redact),
 * declared with compliance_topics in shopify.app.toml, all delivered here.
 */
export const action = parsedWebhookAction(COMPLIANCE_TOPICS, CompliancePayloadSchema, handleComplianceWebhook);
