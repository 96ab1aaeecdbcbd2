import { runAfterAnswer } from "~/lib/after-answer.server";
import { flowTriggerInUse } from "~/services/installs/shop-state.server";
import type { Caller } from "~/services/saved-items/caller";
import type { SaveOperationResult } from "~/services/saved-items/schemas";
import { FLOW_TRIGGER_HANDLES, fireFlowTrigger, flowTriggersEnabled, numericIdOf } from "./flow-triggers.server";

export interface SavedEntity {
  context: string;
  entityType: string;
  entityGid: string;
}

/**
 * The Item saved trigger for each change that left an item active (a save, or a toggle that
 * saved), once the caller has its answer; a failure is logged and never touches the save.
 * Only products fire: Flow's product_reference needs the product, which a variant save does not
 * name without one more platform read per save (docs/reach.md, open points).
 */
export function fireItemSavedAfterAnswer(
  caller: Caller,
  changes: readonly { item: SavedEntity; result: SaveOperationResult | undefined }[],
): void {
  if (!flowTriggersEnabled()) return;
  const customerId = numericIdOf(caller.customerGid);
  const saved = changes.filter(({ item, result }) => result?.state === "active" && item.entityType === "product");
  if (customerId === undefined || saved.length === 0) return;
  runAfterAnswer(`Flow ${FLOW_TRIGGER_HANDLES.itemSaved} for ${caller.shop}`, async () => {
    // A trigger no workflow starts with would cost the shop a platform request per save for nothing.
    if (!(await flowTriggerInUse(caller.shop, FLOW_TRIGGER_HANDLES.itemSaved))) return;
    for (const { item } of saved) {
      const productId = numericIdOf(item.entityGid);
      if (productId === undefined) continue;
      await fireFlowTrigger(caller.shop, caller.admin, FLOW_TRIGGER_HANDLES.itemSaved, {
        customer_id: customerId,
        product_id: productId,
        "Variant ID": "",
        "List name": item.context,
      });
    }
  });
}
