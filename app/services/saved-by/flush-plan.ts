/**
 * The decisions behind the "saved by N shoppers" count (decision 0010), pure: when a shop's dirty
 * products are worth a flush, what a flush publishes, and when a product is due again. The I/O
 * around them is in saved-by-flush.server.ts.
 */

/** No count below this reaches the platform, so no storefront can show a figure that points at one or two people. */
export const SAVED_BY_FLOOR = 5;
/** Once saves stop, a product's count is recounted within this long (or the search lag, if longer). */
export const SAVED_BY_MAX_DELAY_MS = 5 * 60 * 1000;
/** The cost budget: a flush spends at most one platform request per this many marked saves, unless its time bound forces it. */
export const SAVES_PER_REQUEST = 10;
/** metafieldsSet takes at most 25 metafields; metafieldsDelete is sent in batches of the same size. */
export const METAFIELDS_PER_WRITE = 25;
/** Products one flush recounts at most; a bigger backlog spreads over the following sweeps. */
export const PRODUCTS_PER_FLUSH = 100;
/**
 * A flush starts no product's count this long after its own start; the products it did not reach
 * stay due for the next sweep. Paced on the shop's bucket, a count page can wait seconds, so
 * without it a backlog of popular products would hold the shop's lock (and the sweep) for minutes.
 */
export const FLUSH_COUNTING_MS = 20_000;

export interface DirtyProduct {
  productGid: string;
  /** When it became due for a recount (the first mark since its last flush). */
  dirtySince: Date;
  /** Its latest mark. */
  dirtyAt: Date;
  pendingSaves: number;
  published: number | null;
  /** At least its distinct shoppers: the last count plus the saves marked since. */
  bound: number;
  /** When its shoppers were last counted on the platform (null: never). */
  countedAt: Date | null;
}

/**
 * Whether a flush must count the product's shoppers: not when it cannot have reached the floor and
 * nothing is published, so saves spread over rarely saved products cost no request at all.
 */
export const needsCount = (product: DirtyProduct) => product.bound >= SAVED_BY_FLOOR || product.published !== null;

export interface FlushCosts {
  /** How far behind writes the platform's search may be. */
  searchLagMs: number;
  /** Items one count request reads. */
  itemsPerPage: number;
}

/**
 * Requests a flush of these products costs: the read of which of them still exist (one nodes(ids:)
 * for up to PRODUCTS_PER_FLUSH), the count pages (guessed from the bound) and the writes.
 */
export function estimatedRequests(products: readonly DirtyProduct[], itemsPerPage: number): number {
  const counted = products.filter(needsCount);
  if (counted.length === 0) return 0;
  const pages = counted.reduce((sum, product) => sum + Math.max(1, Math.ceil(product.bound / itemsPerPage)), 0);
  return 1 + pages + Math.ceil(counted.length / METAFIELDS_PER_WRITE);
}

/** The delay after which a product is flushed whatever it costs: the search must have caught up by then. */
export const maxDelayMs = (searchLagMs: number) => Math.max(SAVED_BY_MAX_DELAY_MS, searchLagMs);

/**
 * Whether the product may be counted now: not within the maximum delay of its last count, however
 * many saves and removals were marked since (they coalesce into its next count), so shoppers
 * toggling a popular product cost the shop at most one count of it per window. A product's saves
 * still reach its count within the delay of the last one.
 */
export const countableNow = (product: DirtyProduct, now: Date, searchLagMs: number) =>
  !needsCount(product) ||
  product.countedAt === null ||
  product.countedAt.getTime() <= now.getTime() - maxDelayMs(searchLagMs);

/**
 * The products to recount now, oldest first, or none. A shop is flushed when its marked saves pay
 * for the flush at SAVES_PER_REQUEST each, or when one product has waited the maximum delay; so a
 * busy shop pays at most one request per SAVES_PER_REQUEST saves and a quiet one waits at most the
 * delay. A product counted within the delay waits for its window to pass (countableNow).
 */
export function planFlush(dirty: readonly DirtyProduct[], now: Date, costs: FlushCosts): DirtyProduct[] {
  const products = dirty
    .filter((product) => countableNow(product, now, costs.searchLagMs))
    .sort((a, b) => a.dirtySince.getTime() - b.dirtySince.getTime() || a.productGid.localeCompare(b.productGid))
    .slice(0, PRODUCTS_PER_FLUSH);
  if (products.length === 0) return [];
  const overdue = products[0]!.dirtySince.getTime() <= now.getTime() - maxDelayMs(costs.searchLagMs);
  const saves = products.reduce((sum, product) => sum + product.pendingSaves, 0);
  return overdue || saves >= SAVES_PER_REQUEST * estimatedRequests(products, costs.itemsPerPage) ? products : [];
}

/**
 * The bound a count leaves (saves marked while it ran are added on top where it is stored). A count
 * that may have missed saves the search had not yet seen (the product stays due) never lowers it.
 */
export function boundAfterCount(counted: number, product: DirtyProduct, settled: boolean): number {
  return settled ? counted : Math.max(counted, product.bound);
}

/**
 * What the metafield should hold for this many distinct shoppers: the largest step at or below it
 * (5, 10, 25, 50, 100, 250, 500, 1,000, 2,500, …), shown as "N+", and nothing below the floor. An
 * exact figure let anyone watching it tell one shopper's save or removal (issue #31 A11); a step
 * changes only when many shoppers do, except at a step's edge (decision 0010 says what that leaves).
 */
export function publishedValue(shoppers: number): number | null {
  if (!(shoppers >= SAVED_BY_FLOOR)) return null;
  let step = SAVED_BY_FLOOR;
  for (let decade = 10; ; decade *= 10) {
    for (const next of [decade, 2.5 * decade, 5 * decade]) {
      if (next > shoppers) return step;
      step = next;
    }
  }
}

export interface PublishPlan {
  set: { productGid: string; value: number }[];
  remove: string[];
}

/** The metafield writes that bring the products from what was published to their new counts; unchanged ones cost nothing. */
export function publishPlan(products: readonly DirtyProduct[], shoppers: ReadonlyMap<string, number>): PublishPlan {
  const plan: PublishPlan = { set: [], remove: [] };
  for (const product of products) {
    const counted = shoppers.get(product.productGid);
    if (counted === undefined) continue;
    const value = publishedValue(counted);
    if (value === product.published) continue;
    if (value === null) plan.remove.push(product.productGid);
    else plan.set.push({ productGid: product.productGid, value });
  }
  return plan;
}

/**
 * When a flushed product is due again: never, if its latest mark is old enough for the search to
 * have shown it to the count; otherwise as soon as the search can have, so the count never keeps
 * a save the search had not yet seen.
 */
export function dueAgainAt(latestMark: Date, startedAt: Date, searchLagMs: number): Date | null {
  if (latestMark.getTime() <= startedAt.getTime() - searchLagMs) return null;
  return new Date(latestMark.getTime() + searchLagMs - maxDelayMs(searchLagMs));
}

/**
 * The owners a refused metafieldsSet names as the fault, from its userErrors: each entry's error is
 * on `["metafields", index, "ownerId"]` (the owner does not exist, or no longer). Undefined when any
 * error is about something else: then the batch itself is wrong and dropping owners would not help.
 */
export function refusedOwners(
  userErrors: readonly { field?: readonly string[] | null }[],
  owners: readonly string[],
): string[] | undefined {
  const refused = new Set<string>();
  for (const { field } of userErrors) {
    const owner =
      field?.length === 3 && field[0] === "metafields" && field[2] === "ownerId" ? owners[Number(field[1])] : undefined;
    if (owner === undefined) return undefined;
    refused.add(owner);
  }
  return [...refused];
}
