import { parsedWebhookAction } from "~/edge/parsed-webhook.server";
import { handleInventoryLevelUpdate, InventoryLevelUpdatePayloadSchema } from "~/services/flow/product-changes.server";

/** inventory_levels/update: restocks of saved items, for Flow (docs/reach.md). */
export const action = parsedWebhookAction(
  "inventory_levels/update",
  InventoryLevelUpdatePayloadSchema,
  handleInventoryLevelUpdate,
);
