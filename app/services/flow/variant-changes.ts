import { FLOW_TRIGGER_HANDLES, type FlowTriggerHandle } from "./flow-triggers.server";

/** The last state seen of a variant; inventory_levels/update knows the inventory only, not the price. */
export interface VariantState {
  price?: number;
  inventory?: number;
}

/** One variant's change that a Flow trigger reports. */
export interface VariantChange {
  trigger: FlowTriggerHandle;
  variantGid: string;
  oldPrice?: number;
  newPrice?: number;
  /** Saved item low in stock: the inventory now, and the merchant's threshold it fell to or below. */
  inventory?: number;
  threshold?: number;
}

/**
 * What one observation of a variant announces against the last state seen: a lower price is a
 * drop; inventory from none (≤ 0) to some is back in stock; inventory from above the merchant's
 * threshold to at or below it is low in stock (a crossing, so updates while it stays low announce
 * nothing, and a restock above the threshold arms it again). Without a baseline nothing is announced.
 */
export function variantChanges(
  variantGid: string,
  before: VariantState | undefined,
  seen: VariantState,
  lowStockThreshold: number | undefined,
): VariantChange[] {
  const changes: VariantChange[] = [];
  if (before?.price !== undefined && seen.price !== undefined && seen.price < before.price) {
    changes.push({
      trigger: FLOW_TRIGGER_HANDLES.priceDropped,
      variantGid,
      oldPrice: before.price,
      newPrice: seen.price,
    });
  }
  if (before?.inventory === undefined || seen.inventory === undefined) return changes;
  if (before.inventory <= 0 && seen.inventory > 0)
    changes.push({ trigger: FLOW_TRIGGER_HANDLES.backInStock, variantGid });
  if (lowStockThreshold !== undefined && before.inventory > lowStockThreshold && seen.inventory <= lowStockThreshold) {
    changes.push({
      trigger: FLOW_TRIGGER_HANDLES.lowInStock,
      variantGid,
      inventory: seen.inventory,
      threshold: lowStockThreshold,
    });
  }
  return changes;
}
