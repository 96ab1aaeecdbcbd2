import { runAfterAnswer } from "~/lib/after-answer.server";
import { getCoordinator } from "~/infrastructure/coordination/shared-coordinator.server";
import { writeLog } from "~/lib/json-log";
import { countFlowTriggerDropped } from "~/lib/metrics.server";
import { runAdminGraphql, type AdminGraphqlClient } from "~/platform/admin-graphql.server";
import type { Caller } from "~/services/caller";
import type { SaveOperationResult } from "~/services/saved-items/schemas";
import {
  FLOW_TRIGGER_HANDLES,
  fireFlowTrigger,
  flowTriggerInUse,
  flowTriggersEnabled,
  numericIdOf,
} from "./flow-triggers.server";
import { CUSTOMER_RATE, DROP_LOG_RULE, listKindOf, ONCE_PER_WINDOW, SHOP_RATE } from "./item-saved-rules";

export interface SavedEntity {
  context: string;
  entityType: string;
  entityGid: string;
}

const VARIANT_GID = /^gid:\/\/shopify\/ProductVariant\/\d{1,20}$/;

const VARIANT_PRODUCTS = `#graphql
  query SavedItemsVariantProducts($ids: [ID!]!) {
    nodes(ids: $ids) { id ... on ProductVariant { product { id } } }
  }`;

/**
 * The product of each variant, in one request for a whole batch (at most MAX_BATCH_OPERATIONS
 * ids, well under nodes(ids:)'s 250). A variant deleted since it was saved has no entry.
 */
async function productsOfVariants(
  admin: AdminGraphqlClient,
  variantGids: readonly string[],
): Promise<Map<string, string>> {
  if (variantGids.length === 0) return new Map();
  const data = await runAdminGraphql(admin, VARIANT_PRODUCTS, { ids: [...new Set(variantGids)] });
  return new Map(
    data.nodes.flatMap((node) => (node && "product" in node ? [[node.id, node.product.id] as const] : [])),
  );
}

type Admission = "fire" | "repeat" | "customer-rate" | "shop-rate";

/**
 * Whether this save may fire, decided where every instance shares the state (the coordinator's
 * buckets, in Redis when REDIS_URL is set): the first save of the entity by the customer in the
 * window, within the customer's and the shop's rates. The window's token is taken first, so a save
 * refused by a rate is not fired later either (at most once, never queued).
 */
async function admit(shop: string, customerId: number, entityGid: string): Promise<Admission> {
  const coordinator = getCoordinator();
  const trigger = FLOW_TRIGGER_HANDLES.itemSaved;
  if (
    !(await coordinator.takeTokens(`flow:${trigger}:once:${shop}:${customerId}:${entityGid}`, ONCE_PER_WINDOW)).allowed
  )
    return "repeat";
  if (!(await coordinator.takeTokens(`flow:${trigger}:customer:${shop}:${customerId}`, CUSTOMER_RATE)).allowed)
    return "customer-rate";
  if (!(await coordinator.takeTokens(`flow:${trigger}:shop:${shop}`, SHOP_RATE)).allowed) return "shop-rate";
  return "fire";
}

/** A save over a rate is counted, and logged at most once an hour per shop, so a flood is one line. */
async function noteDropped(shop: string, reason: Exclude<Admission, "fire" | "repeat">): Promise<void> {
  countFlowTriggerDropped(FLOW_TRIGGER_HANDLES.itemSaved, reason);
  if (
    (await getCoordinator().takeTokens(`flow:${FLOW_TRIGGER_HANDLES.itemSaved}:drop-log:${shop}`, DROP_LOG_RULE))
      .allowed
  )
    writeLog("warn", "flow trigger over its rate: dropped", { shop, trigger: FLOW_TRIGGER_HANDLES.itemSaved, reason });
}

/**
 * The Item saved trigger for each change that left a product or variant active (a save, or a
 * toggle that saved), once the caller has its answer; a failure is logged and never touches the
 * save. Each customer and entity fires once a window, under the customer's and the shop's rates
 * (item-saved-rules.ts). Flow's product_reference needs a product, which a variant save does not name: the
 * variants' products are read then, in one request, and only while a workflow uses the trigger,
 * so a shop without one still pays nothing per save.
 */
export function fireItemSavedAfterAnswer(
  caller: Caller,
  changes: readonly { item: SavedEntity; result: SaveOperationResult | undefined }[],
): void {
  if (!flowTriggersEnabled()) return;
  const customerId = numericIdOf(caller.customerGid);
  const saved = changes
    .filter(({ result }) => result?.state === "active")
    .map(({ item }) => item)
    .filter(
      (item) => item.entityType === "product" || (item.entityType === "variant" && VARIANT_GID.test(item.entityGid)),
    );
  if (customerId === undefined || saved.length === 0) return;
  runAfterAnswer(`Flow ${FLOW_TRIGGER_HANDLES.itemSaved} for ${caller.shop}`, async () => {
    // A trigger no workflow starts with would cost the shop a platform request per save for nothing.
    if (!(await flowTriggerInUse(caller.shop, FLOW_TRIGGER_HANDLES.itemSaved))) return;
    const admitted: SavedEntity[] = [];
    for (const item of saved) {
      const admission = await admit(caller.shop, customerId, item.entityGid);
      if (admission === "fire") admitted.push(item);
      else if (admission !== "repeat") await noteDropped(caller.shop, admission);
    }
    const variantProducts = await productsOfVariants(
      caller.admin,
      admitted.filter((item) => item.entityType === "variant").map((item) => item.entityGid),
    );
    for (const item of admitted) {
      const isVariant = item.entityType === "variant";
      const productId = numericIdOf(isVariant ? (variantProducts.get(item.entityGid) ?? "") : item.entityGid);
      if (productId === undefined) continue;
      await fireFlowTrigger(caller.shop, caller.admin, FLOW_TRIGGER_HANDLES.itemSaved, {
        customer_id: customerId,
        product_id: productId,
        // The GID, as the field's declaration says and as the other two triggers send it.
        "Variant ID": isVariant ? item.entityGid : "",
        "List name": listKindOf(item.context),
      });
    }
  });
}
