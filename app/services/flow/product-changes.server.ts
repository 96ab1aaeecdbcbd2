import { z } from "zod";
import { claimOnce, updateSharedField } from "~/infrastructure/coordination/shared-fields.server";
import { runAdminGraphql, offlineAdminClient, type AdminGraphqlClient } from "~/platform/admin-graphql.server";
import { readLowStockThreshold } from "~/services/installs/shop-state.server";
import { productCardsChanged } from "~/services/saved-items/product-cards.server";
import { resumeFanOutsAfterAnswer, startFanOut } from "./fan-outs.server";
import { FLOW_TRIGGER_HANDLES, flowTriggerInUse, flowTriggersEnabled } from "./flow-triggers.server";
import { variantChanges, type VariantChange, type VariantState } from "./variant-changes";

/**
 * products/update → Saved item price dropped, back in stock and low in stock, and
 * inventory_levels/update → Saved item back in stock and low in stock (docs/reach.md).
 *
 * The webhook says what a product is now, not what it was, so the app keeps the last price and
 * inventory it saw of each variant (shared hashes with Redis, else bounded in the process) and
 * compares (variant-changes.ts). A variant seen for the first time only sets that baseline. The snapshot's price is not used: it
 * is whatever text the saving client chose ("€49,00"), neither a number nor current.
 */

/** The part of the products/update payload (REST shape) this reads; everything else is ignored. */
export const ProductUpdatePayloadSchema = z.object({
  admin_graphql_api_id: z.string().regex(/^gid:\/\/shopify\/Product\/\d+$/),
  variants: z
    .array(
      z.object({
        admin_graphql_api_id: z.string().regex(/^gid:\/\/shopify\/ProductVariant\/\d+$/),
        price: z.coerce.number().finite().nonnegative(),
        inventory_quantity: z.number().int().optional(),
      }),
    )
    .max(2048),
});
export type ProductUpdatePayload = z.infer<typeof ProductUpdatePayloadSchema>;

const WEBHOOK_ID_TTL_MS = 7 * 24 * 60 * 60 * 1000;
const VARIANT_STATE_TTL_MS = 90 * 24 * 60 * 60 * 1000;

/**
 * What changed for one variant against the last state seen; stores the new state (merged over the
 * old, so an inventory-only update keeps the price baseline) as the baseline.
 */
async function observeVariant(
  shop: string,
  variantGid: string,
  seen: VariantState,
  lowStockThreshold: number | undefined,
): Promise<VariantChange[]> {
  let changes: VariantChange[] = [];
  await updateSharedField(
    `reach:variants:${shop}`,
    variantGid,
    (current) => {
      const before = current === undefined ? undefined : (JSON.parse(current) as VariantState);
      changes = variantChanges(variantGid, before, seen, lowStockThreshold);
      return JSON.stringify({ ...before, ...seen });
    },
    VARIANT_STATE_TTL_MS,
  );
  return changes;
}

/** The merchant's low-stock threshold where a workflow listens for Saved item low in stock, else undefined. */
async function listenedLowStockThreshold(shop: string): Promise<number | undefined> {
  if (!(await flowTriggerInUse(shop, FLOW_TRIGGER_HANDLES.lowInStock))) return undefined;
  return (await readLowStockThreshold(shop)) ?? undefined;
}

/**
 * Handles one products/update delivery: the product's cards are read again on their next view
 * (a redelivery too: that costs one read); for Flow, a webhook id seen before does nothing; the comparison
 * runs before answering (so a redelivery after a crash cannot skip it twice), the fan-out after.
 */
export async function handleProductUpdate(
  shop: string,
  webhookId: string,
  payload: ProductUpdatePayload,
): Promise<void> {
  await productCardsChanged(shop, [
    payload.admin_graphql_api_id,
    ...payload.variants.map((variant) => variant.admin_graphql_api_id),
  ]);
  if (!flowTriggersEnabled()) return;
  await resumeFanOutsWhereListened(shop);
  const lowStockThreshold = await listenedLowStockThreshold(shop);
  if (!(await claimOnce(`webhook:${shop}`, webhookId, WEBHOOK_ID_TTL_MS))) return;
  const changes: VariantChange[] = [];
  for (const variant of payload.variants) {
    changes.push(
      ...(await observeVariant(
        shop,
        variant.admin_graphql_api_id,
        {
          price: variant.price,
          ...(variant.inventory_quantity === undefined ? {} : { inventory: variant.inventory_quantity }),
        },
        lowStockThreshold,
      )),
    );
  }
  // Prices and stock are compared either way, so a workflow enabled later starts from a baseline;
  // the search for savers and the triggers cost platform requests only where a workflow listens.
  await fanOutAfterAnswer(shop, webhookId, payload.admin_graphql_api_id, changes);
}

/** The part of the inventory_levels/update payload (REST shape) this reads. */
export const InventoryLevelUpdatePayloadSchema = z.object({
  inventory_item_id: z.union([z.number().int().positive(), z.string().regex(/^\d+$/)]),
});
export type InventoryLevelUpdatePayload = z.infer<typeof InventoryLevelUpdatePayloadSchema>;

const INVENTORY_ITEM_VARIANT = `#graphql
  query SavedItemsInventoryItemVariant($id: ID!) {
    inventoryItem(id: $id) { variants(first: 1) { nodes { id inventoryQuantity product { id } } } }
  }`;

/**
 * Handles one inventory_levels/update delivery (one location's level of one inventory item). The
 * payload has no variant and only that location's quantity, so one Admin query maps the item to
 * its variant and the variant's inventory summed over locations, the same figure products/update
 * carries; both webhooks then share one baseline per variant.
 *
 * Unlike products/update, nothing is compared (nor queried) while no workflow uses Saved item
 * back in stock or low in stock: the comparison would cost a platform request per delivery, and products/update
 * keeps the inventory baseline current meanwhile. The query runs before the webhook id is taken,
 * so a failed query answers 500 and the platform's redelivery can still be handled.
 */
export async function handleInventoryLevelUpdate(
  shop: string,
  webhookId: string,
  payload: InventoryLevelUpdatePayload,
): Promise<void> {
  // The cards of the item's variant and product, without a request: they are filed under it too.
  await productCardsChanged(shop, [`gid://shopify/InventoryItem/${payload.inventory_item_id}`]);
  if (!flowTriggersEnabled()) return;
  await resumeFanOutsWhereListened(shop);
  const lowStockThreshold = await listenedLowStockThreshold(shop);
  if (lowStockThreshold === undefined && !(await flowTriggerInUse(shop, FLOW_TRIGGER_HANDLES.backInStock))) return;
  const admin = offlineAdminClient(shop);
  const data = await runAdminGraphql(admin, INVENTORY_ITEM_VARIANT, {
    id: `gid://shopify/InventoryItem/${payload.inventory_item_id}`,
  });
  const variant = data.inventoryItem?.variants?.nodes[0];
  // An item without a variant (deleted meanwhile) or untracked stock has nothing to compare.
  if (!variant || variant.inventoryQuantity == null) return;
  if (!(await claimOnce(`webhook:${shop}`, webhookId, WEBHOOK_ID_TTL_MS))) return;
  const changes = await observeVariant(shop, variant.id, { inventory: variant.inventoryQuantity }, lowStockThreshold);
  await fanOutAfterAnswer(shop, webhookId, variant.product.id, changes, admin);
}

/**
 * Keeps the changes some workflow listens for and records their fan-out, which notifies the savers
 * once the webhook is answered (fan-outs.server.ts: durable, resumed if it fails).
 */
async function fanOutAfterAnswer(
  shop: string,
  webhookId: string,
  productGid: string,
  changes: VariantChange[],
  admin: AdminGraphqlClient = offlineAdminClient(shop),
): Promise<void> {
  const inUse = await Promise.all(changes.map((change) => flowTriggerInUse(shop, change.trigger)));
  const listened = changes.filter((_, index) => inUse[index]);
  if (listened.length === 0) return;
  await startFanOut(shop, webhookId, productGid, listened, admin);
}

/**
 * Each delivery (a redelivery too) is when a fan-out that failed or died earlier is resumed; only
 * a shop with a workflow on a fanned-out trigger can have one, so others pay no database read.
 */
async function resumeFanOutsWhereListened(shop: string): Promise<void> {
  const listened = await Promise.all(
    [FLOW_TRIGGER_HANDLES.priceDropped, FLOW_TRIGGER_HANDLES.backInStock, FLOW_TRIGGER_HANDLES.lowInStock].map(
      (handle) => flowTriggerInUse(shop, handle),
    ),
  );
  if (listened.some(Boolean)) resumeFanOutsAfterAnswer(shop);
}
