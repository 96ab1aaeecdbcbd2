import { errorFields, writeLog } from "~/lib/json-log";
import prisma from "~/db.server";
import { searchLagMs } from "~/config/env.server";
import { runAfterAnswer } from "~/lib/after-answer.server";
import { clock } from "~/lib/clock";
import { LockUnavailableError, type HeldLocks } from "~/infrastructure/coordination/coordinator.server";
import { getCoordinator } from "~/infrastructure/coordination/shared-coordinator.server";
import {
  isAccessDenied,
  platformRefusal,
  type AdminGraphqlClient,
  type AdminGraphqlOptions,
} from "~/platform/admin-graphql.server";
import { createBucketPacer, pacedRequest } from "~/platform/bucket-pacer.server";
import { loadOfflineAdmin } from "~/platform/offline-admin.server";
import { deleteSavedByCounts, existingProducts, setSavedByCounts } from "~/services/records/saved-by.server";
import type { Caller } from "~/services/caller";
import { activeSavers, SAVERS_PER_PAGE } from "~/services/records/savers.server";
import {
  boundAfterCount,
  dueAgainAt,
  FLUSH_COUNTING_MS,
  METAFIELDS_PER_WRITE,
  needsCount,
  planFlush,
  publishedValue,
  publishPlan,
  refusedOwners,
  type DirtyProduct,
  type PublishPlan,
} from "./flush-plan";
import { recordSavedByRefused, savedByGranted } from "./saved-by-grant.server";

/**
 * The "saved by N shoppers" count (decision 0010): a save or removal of a product marks it dirty
 * once the caller has its answer (a database write, never a platform request); the sweep
 * (saved-by-sweeps.server.ts) flushes a shop's dirty products under the shop's lock, so several
 * instances never recount the same products, counting each product's distinct shoppers on the
 * platform and writing the products' `$app:saved_by` metafields, which the theme block reads.
 */

const PRODUCT_GID = /^gid:\/\/shopify\/Product\/\d{1,20}$/;

const lockKey = (shop: string) => `saved-by:${shop}`;

/** A write that succeeded: `saved` when it left the item active (a save, a toggle on). */
export interface SavedByChange {
  entityType: string;
  entityGid: string;
  saved: boolean;
}

/**
 * Marks the products of successful saves and removals, after the answer. Only product saves
 * count: a variant save names no product without a platform request per save.
 */
export function markSavedByAfterAnswer(caller: Caller, changes: readonly SavedByChange[]): void {
  const products = changes.filter((change) => change.entityType === "product" && PRODUCT_GID.test(change.entityGid));
  if (products.length === 0) return;
  runAfterAnswer(`saved-by marks for ${caller.shop}`, () => markDirty(caller.shop, products));
}

/** Adds the writes to each product's pending ones (saves to its bound too); the first since a flush starts its wait. */
export async function markDirty(shop: string, changes: readonly Omit<SavedByChange, "entityType">[]): Promise<void> {
  const now = clock.now();
  const marks = new Map<string, { writes: number; saves: number }>();
  for (const { entityGid, saved } of changes) {
    const mark = marks.get(entityGid) ?? { writes: 0, saves: 0 };
    marks.set(entityGid, { writes: mark.writes + 1, saves: mark.saves + (saved ? 1 : 0) });
  }
  for (const [productGid, { writes, saves }] of marks) {
    const where = { shopDomain: shop, productGid };
    await prisma.savedByProduct.upsert({
      where: { shopDomain_productGid: where },
      create: { ...where, dirtySince: now, dirtyAt: now, pendingSaves: writes, bound: saves },
      update: { dirtyAt: now, pendingSaves: { increment: writes }, bound: { increment: saves } },
    });
    await prisma.savedByProduct.updateMany({ where: { ...where, dirtySince: null }, data: { dirtySince: now } });
  }
}

function chunks<T>(items: readonly T[]): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += METAFIELDS_PER_WRITE) {
    result.push(items.slice(start, start + METAFIELDS_PER_WRITE));
  }
  return result;
}

function refuseOnUserErrors(errors: readonly { message: string }[] | undefined, what: string): void {
  if (errors && errors.length > 0) throw platformRefusal(`The platform refused ${what}`, errors);
}

/**
 * Writes a batch of counts. metafieldsSet is atomic, so one owner deleted since the nodes read
 * refuses the whole batch: that owner is dropped and the rest sent again. Answers the dropped owners.
 */
async function setCounts(
  admin: AdminGraphqlClient,
  batch: PublishPlan["set"],
  paced: AdminGraphqlOptions,
): Promise<string[]> {
  const dropped: string[] = [];
  let remaining = batch;
  while (remaining.length > 0) {
    const errors = await setSavedByCounts(admin, remaining, paced);
    if (errors.length === 0) break;
    const refused = refusedOwners(
      errors,
      remaining.map(({ productGid }) => productGid),
    );
    if (!refused) throw platformRefusal("The platform refused the saved-by counts", errors);
    dropped.push(...refused);
    remaining = remaining.filter(({ productGid }) => !refused.includes(productGid));
  }
  return dropped;
}

/** Writes the plan; answers the owners the platform no longer has, which were left out. */
async function writeMetafields(
  admin: AdminGraphqlClient,
  plan: PublishPlan,
  paced: AdminGraphqlOptions,
): Promise<string[]> {
  const dropped: string[] = [];
  for (const batch of chunks(plan.set)) dropped.push(...(await setCounts(admin, batch, paced)));
  for (const batch of chunks(plan.remove)) {
    refuseOnUserErrors(await deleteSavedByCounts(admin, batch, paced), "the removal of saved-by counts");
  }
  return dropped;
}

/** Products that do not exist on the platform: their marks go, so no sweep counts them again. */
async function forgetProducts(shop: string, productGids: readonly string[]): Promise<void> {
  if (productGids.length === 0) return;
  await prisma.savedByProduct.deleteMany({ where: { shopDomain: shop, productGid: { in: [...productGids] } } });
}

/**
 * Takes the flushed saves off the product and records what was published and the bound the count
 * (if any) leaves; saves marked meanwhile stay on top of it. A mark that arrived while the flush
 * ran (its latest mark moved) leaves the product due again from the flush's start.
 */
async function settle(
  shop: string,
  product: DirtyProduct,
  counted: number | undefined,
  startedAt: Date,
): Promise<void> {
  const where = { shopDomain: shop, productGid: product.productGid };
  const dueAgain = dueAgainAt(product.dirtyAt, startedAt, searchLagMs());
  const bound = counted === undefined ? product.bound : boundAfterCount(counted, product, dueAgain === null);
  const data = {
    published: counted === undefined ? product.published : publishedValue(counted),
    pendingSaves: { decrement: product.pendingSaves },
    bound: { increment: bound - product.bound },
    ...(counted === undefined ? {} : { countedAt: startedAt }),
  };
  const unchanged = await prisma.savedByProduct.updateMany({
    where: { ...where, dirtyAt: product.dirtyAt },
    data: { ...data, dirtySince: dueAgain },
  });
  if (unchanged.count === 0) {
    await prisma.savedByProduct.updateMany({ where, data: { ...data, dirtySince: startedAt } });
  }
}

export interface FlushReport {
  products: number;
  /** Those whose shoppers were counted on the platform; the others could not have reached the floor. */
  counted: number;
  published: number;
  removed: number;
}

/**
 * Recounts the shop's dirty products if planFlush says they are worth it, holding the shop's
 * lock; undefined when nothing was due, another instance holds the lock, or the shop cannot be
 * reached. Every platform request is paced on the shop's bucket (bucket-pacer.server.ts), leaving
 * shoppers' requests their reserve, and confirms the lock once its wait is over; counts start only
 * within FLUSH_COUNTING_MS, so a product not reached is left as it was, due for the next sweep.
 */
export async function flushShop(shop: string, signal?: AbortSignal): Promise<FlushReport | undefined> {
  // Off until the merchant grants the scope: the marks wait, and no platform request is spent.
  if (!(await savedByGranted(shop))) return undefined;
  try {
    return await getCoordinator().withLocks([lockKey(shop)], async (held) => {
      const rows = await prisma.savedByProduct.findMany({ where: { shopDomain: shop, dirtySince: { not: null } } });
      const dirty = rows.map((row) => ({
        ...row,
        dirtySince: row.dirtySince!,
        dirtyAt: row.dirtyAt ?? row.dirtySince!,
      }));
      const products = planFlush(dirty, clock.now(), { searchLagMs: searchLagMs(), itemsPerPage: SAVERS_PER_PAGE });
      if (products.length === 0) return undefined;
      const toCount = products.filter(needsCount);
      const admin = toCount.length > 0 ? await loadOfflineAdmin(shop) : undefined;
      if (toCount.length > 0 && !admin) return undefined;
      const startedAt = clock.now();
      const paced = pacedRequest(createBucketPacer(shop, signal), () => held.assertHeld());
      const existing = admin
        ? await existingProducts(
            admin,
            toCount.map((product) => product.productGid),
            paced,
          )
        : new Set<string>();
      const gone = toCount.filter((product) => !existing.has(product.productGid)).map((product) => product.productGid);
      const counted = toCount.filter((product) => existing.has(product.productGid));
      const shoppers = new Map<string, number>();
      for (const product of counted) {
        if (clock.now().getTime() - startedAt.getTime() >= FLUSH_COUNTING_MS) break;
        const savers = await activeSavers(admin!, product.productGid, Number.POSITIVE_INFINITY, paced);
        shoppers.set(product.productGid, savers.size);
      }
      const reached = products.filter((product) => !needsCount(product) || shoppers.has(product.productGid));
      const plan = publishPlan(reached, shoppers);
      await held.assertHeld();
      const dropped = admin ? await writeMetafields(admin, plan, paced) : [];
      await forgetProducts(shop, [...gone, ...dropped]);
      const flushed = reached.filter((product) => !dropped.includes(product.productGid));
      for (const product of flushed) await settle(shop, product, shoppers.get(product.productGid), startedAt);
      return {
        products: flushed.length,
        counted: shoppers.size,
        published: plan.set.length,
        removed: plan.remove.length,
      };
    });
  } catch (error) {
    // Stopped (shutdown) before its next request: nothing it had not settled is lost, it stays due.
    if (error instanceof LockUnavailableError || signal?.aborted) return undefined;
    // The merchant revoked the scope: the count is off again and its marks wait for a new grant.
    if (isAccessDenied(error)) {
      await recordSavedByRefused(shop);
      return undefined;
    }
    throw error;
  }
}

/**
 * Flushes one sweep runs at once. Each waits on its own shop's platform and bucket (a paced count
 * of a popular product can take minutes), so shops are flushed side by side and a shop whose flush
 * is still running is skipped by later sweeps rather than holding them up.
 */
const SHOPS_FLUSHED_AT_ONCE = 8;

/** The shops this instance is flushing, and the sweeps whose flushes have not all ended. */
const flushing = new Set<string>();
const sweepsRunning = new Set<Promise<void>>();
/** Aborted when the flushes are stopped: a paced count can take minutes, a shutdown should not. */
let stopping = new AbortController();

/**
 * Starts a sweep: every shop with dirty products and no flush running here gets a flush if it is
 * due, SHOPS_FLUSHED_AT_ONCE at a time; one shop's failure stops no other. Resolves once the
 * flushes have begun, with a promise of their end (wrapped: a promise resolved with a promise waits for it).
 */
async function startSweep(): Promise<{ ended: Promise<void> }> {
  const rows = await prisma.savedByProduct.findMany({
    where: { dirtySince: { not: null } },
    distinct: ["shopDomain"],
    select: { shopDomain: true },
  });
  const waiting = rows.map(({ shopDomain }) => shopDomain).filter((shop) => !flushing.has(shop));
  const { signal } = stopping;
  const flushInTurn = async () => {
    for (let shop = waiting.shift(); shop !== undefined && !signal.aborted; shop = waiting.shift()) {
      if (flushing.has(shop)) continue;
      flushing.add(shop);
      await flushShop(shop, signal)
        .catch((error: unknown) =>
          writeLog("error", `[saved-by] flushing the counts of ${shop} failed`, { error: errorFields(error) }),
        )
        .finally(() => flushing.delete(shop));
    }
  };
  const sweep = Promise.all(Array.from({ length: Math.min(SHOPS_FLUSHED_AT_ONCE, waiting.length) }, flushInTurn)).then(
    () => undefined,
  );
  sweepsRunning.add(sweep);
  void sweep.finally(() => sweepsRunning.delete(sweep));
  return { ended: sweep };
}

/** One sweep, to its end: every due shop's flush has ended (the timer does not wait for them: startSavedBySweep). */
export async function runSavedBySweep(): Promise<void> {
  const { ended } = await startSweep();
  await ended;
}

/** One sweep of the timer: its flushes go on after it returns, so a slow shop holds up no later sweep. */
export async function startSavedBySweep(): Promise<void> {
  await startSweep();
}

/**
 * At shutdown, once the timer has stopped: every flush running here stops before its next platform
 * request (its products stay due, for whichever instance sweeps next) and this resolves when all
 * have ended. A request already sent is not cut; its own time bound applies.
 */
export async function stopSavedByFlushes(): Promise<void> {
  stopping.abort();
  await Promise.all(sweepsRunning);
  stopping = new AbortController();
}

/** Runs work under the shop's flush lock, so it never interleaves with a flush (the daily recount's marks). */
export const withShopFlushLock = <T>(shop: string, work: (held: HeldLocks) => Promise<T>): Promise<T> =>
  getCoordinator().withLocks([lockKey(shop)], work);
