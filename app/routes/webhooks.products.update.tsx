import { parsedWebhookAction } from "~/edge/parsed-webhook.server";
import { handleProductUpdate, ProductUpdatePayloadSchema } from "~/services/flow/product-changes.server";

/** products/update: price drops and restocks of saved items, for Flow (docs/reach.md). */
export const action = parsedWebhookAction("products/update", ProductUpdatePayloadSchema, handleProductUpdate);
