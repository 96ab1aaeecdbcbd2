import { parsedWebhookAction } from "~/edge/parsed-webhook.server";
import { handleScopesUpdate, ScopesUpdatePayloadSchema } from "~/services/installs/shop-records.server";

/** app/scopes_update: the scopes the merchant granted, onto the offline session. */
export const action = parsedWebhookAction("app/scopes_update", ScopesUpdatePayloadSchema, handleScopesUpdate);
