/**
 * The decisions of the daily recount (decision 0010, "What survives what"), pure: which products a
 * bulk count of the shop's active save_items shows to be wrong, how their bounds are raised, and
 * when the shop's next step runs. The I/O around them is in saved-by-recount.server.ts.
 */
import type { BulkOperationStatus } from "~/platform/bulk-operations.server";
import { publishedValue, SAVED_BY_FLOOR } from "./flush-plan";

/** A shop is recounted at most this often, and only if it saved since its last recount. */
export const RECOUNT_INTERVAL_MS = 24 * 60 * 60 * 1000;
/** A step that could not run (the shop's bulk query slot busy, a failed operation) is retried after this. */
export const RECOUNT_RETRY_MS = 30 * 60 * 1000;
/** How long a step holds the shop's recount; a step that died is taken over after it. */
export const RECOUNT_LEASE_MS = 30 * 60 * 1000;

/** What the app holds of a product's count: the SavedByProduct row, if any. */
export interface RecordedCount {
  published: number | null;
  bound: number;
}

/** What the recount does to one product: raise its bound by `raiseBy`, and make it due for a flush. */
export interface RecountMark {
  productGid: string;
  /** True when the product has no row yet: it is created with the counted bound. */
  create: boolean;
  raiseBy: number;
  due: boolean;
}

/**
 * The products whose row disagrees with the bulk count of distinct shoppers: what is published
 * differs from what the count would publish, its bound is below the count, or it has no row.
 *
 * A bound is raised by the whole count, never set to it: saves marked after the snapshot began
 * are already in the bound, and the snapshot may not have seen them, so `max(bound, counted)`
 * could leave the bound below the truth (4 lost saves counted, 1 marked since: a bound of 4
 * would settle without a count while 5 shoppers have it). The sum is at least the truth; a
 * bound above it only costs the flush a count, which then sets it exactly. The bound is never
 * lowered here: only a flush's own count, which sees saves after the snapshot, may do that.
 *
 * A new row below the floor is created clean: it can show nothing, and its bound lets later
 * marks make it eligible for a count (products saved before the count existed).
 */
export function planRecount(
  counted: ReadonlyMap<string, number>,
  recorded: ReadonlyMap<string, RecordedCount>,
): RecountMark[] {
  const marks: RecountMark[] = [];
  for (const [productGid, shoppers] of counted) {
    const row = recorded.get(productGid);
    if (!row) {
      marks.push({ productGid, create: true, raiseBy: shoppers, due: shoppers >= SAVED_BY_FLOOR });
      continue;
    }
    const low = row.bound < shoppers;
    if (low || publishedValue(shoppers) !== row.published) {
      marks.push({ productGid, create: false, raiseBy: low ? shoppers : 0, due: true });
    }
  }
  for (const [productGid, row] of recorded) {
    // Nobody had it active in the snapshot, yet a count is shown: the flush's own count decides.
    if (!counted.has(productGid) && row.published !== null) {
      marks.push({ productGid, create: false, raiseBy: 0, due: true });
    }
  }
  return marks;
}

/**
 * Distinct shoppers per product among active product save_items, one line at a time: memory
 * holds each shopper's GID once and a small number per (product, shopper) pair, never the lines.
 */
export function createShopperCounter() {
  const customers = new Map<string, number>();
  const shoppers = new Map<string, Set<number>>();
  return {
    add(line: { entityType: string; entityGid: string; customerGid: string; active: boolean }): void {
      if (!line.active || line.entityType !== "product") return;
      let customer = customers.get(line.customerGid);
      if (customer === undefined) customers.set(line.customerGid, (customer = customers.size));
      let set = shoppers.get(line.entityGid);
      if (!set) shoppers.set(line.entityGid, (set = new Set()));
      set.add(customer);
    },
    counts(): Map<string, number> {
      return new Map([...shoppers].map(([productGid, set]) => [productGid, set.size]));
    },
  };
}

/** The shop's recount state, as stored. */
export interface RecountState {
  /** When the last finished recount's bulk query started; null when it never had one. */
  countedAt: Date | null;
  /** The running recount's bulk operation. */
  operation: string | null;
}

/**
 * What a due shop's step does: poll its running operation, start a recount, or nothing. A shop
 * is recounted when it never was (installed before the recount existed, or new), or when a
 * product was marked since the last snapshot could have seen it: the snapshot reads through the
 * platform's search, which may miss writes younger than its lag, so marks that close before it
 * count as after it. A shop where every save since was lost waits for its next marked save.
 */
export function recountStep(
  state: RecountState,
  latestMark: Date | null,
  searchLagMs: number,
): "poll" | "start" | "idle" {
  if (state.operation !== null) return "poll";
  if (state.countedAt === null) return "start";
  if (latestMark && latestMark.getTime() > state.countedAt.getTime() - searchLagMs) return "start";
  return "idle";
}

/** What a poll of the running operation leads to: read its result, look again, or give it up. */
export function afterPoll(status: BulkOperationStatus): "read" | "wait" | "abandon" {
  if (status === "COMPLETED") return "read";
  if (status === "CREATED" || status === "RUNNING" || status === "CANCELING") return "wait";
  return "abandon";
}
