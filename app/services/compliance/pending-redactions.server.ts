import { errorFields, writeLog } from "~/lib/json-log";
import { randomUUID } from "node:crypto";
import prisma from "~/db.server";
import { loadOrFallback, staleEntry } from "~/infrastructure/database/availability.server";
import { searchLagMs } from "~/config/env.server";
import { clock } from "~/lib/clock";
import { CoordinatorUnavailableError } from "~/infrastructure/coordination/coordinator.server";
import { getCoordinator } from "~/infrastructure/coordination/shared-coordinator.server";
import { isServiceError, ServiceError } from "~/lib/errors";
import { registerProcessCache } from "~/lib/process-caches.server";
import type { AdminGraphqlClient } from "~/platform/admin-graphql.server";
import { loadOfflineAdmin } from "~/platform/offline-admin.server";
import { forgetCustomerLists, redactCustomerLists } from "~/services/saved-items/list-store/redact-lists.server";
import { forgetCustomerUsage } from "~/services/usage/monthly-budget.server";
import { deleteCustomerRecords } from "./customer-records.server";
import { judgePass, NO_ACCESS_RETRY_MS, PASS_LEASE_MS, retryAfterFailure, settlesAt } from "./redaction-schedule";

/**
 * customers/redact as a durable promise (PendingCustomerRedaction): recorded before anything is
 * deleted, then carried out in passes, each claimed by one instance, until a pass that started
 * after the platform's search can have caught up finds nothing (redaction-schedule.ts). While the
 * record exists the customer's writes are refused, so nothing new can hide from the search.
 */

export type RedactionProgress =
  | { status: "completed"; deleted: { items: number; lists: number } }
  /** pending: deleted what the search showed, looks again at nextPassAt; deferred: no access to the shop. */
  | { status: "pending" | "deferred"; deleted: { items: number; lists: number }; nextPassAt: string };

interface Claim {
  shop: string;
  customerGid: string;
  token: string;
  requestedAt: Date;
  attempts: number;
}

const NOTHING = { items: 0, lists: 0 };

const versionKey = (shop: string) => `redactions:${shop}`;

/**
 * Tells every instance's write check that the shop's pending redactions changed. With Redis
 * unreachable the bump is made once it is back, and meanwhile the checks read the database.
 */
async function announceChange(shop: string): Promise<void> {
  try {
    await getCoordinator().bumpVersion(versionKey(shop));
  } catch (error) {
    if (!(error instanceof CoordinatorUnavailableError)) throw error;
    writeLog("warn", `[compliance] announcing a redaction change for ${shop} waits for the coordinator`);
  }
}

/**
 * Records a customers/redact (once; a redelivery keeps the first arrival) and refuses the
 * customer's writes. The delivery runs the first pass itself, so for the timers the record is due
 * only once a pass can complete it.
 */
async function recordCustomerRedaction(shop: string, customerGid: string): Promise<void> {
  const now = clock.now();
  await prisma.pendingCustomerRedaction.createMany({
    data: { shopDomain: shop, customerGid, requestedAt: now, runAfter: settlesAt(now, searchLagMs()) },
    skipDuplicates: true,
  });
  await announceChange(shop);
}

/**
 * Takes the record for one pass: only one caller's conditional write lands, on any instance. A
 * due record (its retry time or a dead pass's lease has passed) is always taken; `unclaimed`
 * also takes one that waits for its time with no pass running (a webhook delivery, a reinstall).
 */
async function claimRedaction(
  shop: string,
  customerGid: string,
  which: "due" | "unclaimed",
): Promise<Claim | undefined> {
  const now = clock.now();
  const token = randomUUID();
  const due = { runAfter: { lte: now } };
  const taken = await prisma.pendingCustomerRedaction.updateMany({
    where: { shopDomain: shop, customerGid, ...(which === "due" ? due : { OR: [due, { claimToken: null }] }) },
    data: { claimToken: token, runAfter: new Date(now.getTime() + PASS_LEASE_MS) },
  });
  if (taken.count !== 1) return undefined;
  const record = await prisma.pendingCustomerRedaction.findUnique({
    where: { shopDomain_customerGid: { shopDomain: shop, customerGid } },
  });
  return record?.claimToken === token
    ? { shop, customerGid, token, requestedAt: record.requestedAt, attempts: record.attempts }
    : undefined;
}

/** Hands the record back for a later pass, unless another instance took it over meanwhile. */
async function release(claim: Claim, runAfter: Date, deleted: { items: number; lists: number }): Promise<void> {
  await prisma.pendingCustomerRedaction.updateMany({
    where: { shopDomain: claim.shop, customerGid: claim.customerGid, claimToken: claim.token },
    data: {
      claimToken: null,
      runAfter,
      attempts: { increment: 1 },
      deletedItems: { increment: deleted.items },
      deletedLists: { increment: deleted.lists },
    },
  });
}

/**
 * One pass of a claimed redaction: the customer's records deleted, with the cached list states
 * and shared pages (redactCustomerLists). A failure hands the record back for a retry and is rethrown.
 */
async function runPass(claim: Claim, admin: AdminGraphqlClient | undefined): Promise<RedactionProgress> {
  const { shop, customerGid } = claim;
  const startedAt = clock.now();
  if (!admin) return deferUntilAccess(claim);
  let deleted: { items: number; lists: number };
  try {
    deleted = await redactCustomerLists(shop, customerGid, () => deleteCustomerRecords(admin, customerGid));
  } catch (error) {
    if (isServiceError(error) && error.code === "SHOP_NOT_INSTALLED") return deferUntilAccess(claim);
    await release(claim, retryAfterFailure(clock.now(), claim.attempts + 1), NOTHING).catch((releaseError) =>
      writeLog("error", `[compliance] handing back the redaction of ${customerGid} on ${shop} failed`, {
        error: errorFields(releaseError),
      }),
    );
    throw error;
  }
  const verdict = judgePass({ requestedAt: claim.requestedAt, startedAt, found: deleted, searchLagMs: searchLagMs() });
  if (verdict.status === "pending") {
    await release(claim, verdict.runAfter, deleted);
    return { status: "pending", deleted, nextPassAt: verdict.runAfter.toISOString() };
  }
  await completeRedaction(claim);
  return { status: "completed", deleted };
}

async function deferUntilAccess(claim: Claim): Promise<RedactionProgress> {
  const nextPassAt = new Date(clock.now().getTime() + NO_ACCESS_RETRY_MS);
  await release(claim, nextPassAt, NOTHING);
  writeLog(
    "info",
    `[compliance] customers/redact for ${claim.customerGid} on ${claim.shop} waits until the app can reach the shop again`,
  );
  return { status: "deferred", deleted: NOTHING, nextPassAt: nextPassAt.toISOString() };
}

/** The last pass found nothing late enough: the record goes, and with it the refusal of writes. */
async function completeRedaction(claim: Claim): Promise<void> {
  const { shop, customerGid } = claim;
  await forgetCustomerUsage(shop, customerGid);
  const record = await prisma.pendingCustomerRedaction.findUnique({
    where: { shopDomain_customerGid: { shopDomain: shop, customerGid } },
  });
  const removed = await prisma.pendingCustomerRedaction.deleteMany({
    where: { shopDomain: shop, customerGid, claimToken: claim.token },
  });
  if (removed.count === 0) return;
  await forgetCustomerLists(shop, customerGid);
  await announceChange(shop);
  writeLog(
    "info",
    `[compliance] customers/redact for ${customerGid} on ${shop} completed after ${(record?.attempts ?? 0) + 1} pass(es): ` +
      `${record?.deletedItems ?? 0} item(s), ${record?.deletedLists ?? 0} list(s) deleted before the last`,
  );
}

/**
 * customers/redact as delivered: recorded, then one pass now. Its answer is what is true after
 * that pass; a pass already running elsewhere leaves the delivery with nothing to do but say when.
 */
export async function redactCustomer(shop: string, customerGid: string): Promise<RedactionProgress> {
  await recordCustomerRedaction(shop, customerGid);
  const claim = await claimRedaction(shop, customerGid, "unclaimed");
  if (claim) return runPass(claim, await loadOfflineAdmin(shop));
  const record = await prisma.pendingCustomerRedaction.findUnique({
    where: { shopDomain_customerGid: { shopDomain: shop, customerGid } },
  });
  if (!record) return { status: "completed", deleted: NOTHING };
  return { status: "pending", deleted: NOTHING, nextPassAt: record.runAfter.toISOString() };
}

/**
 * Runs passes of the shop's pending redactions: on reinstall every one not running (the ones
 * that waited for access), on an admin load the due ones.
 */
export async function resumeShopRedactions(
  shop: string,
  admin: AdminGraphqlClient,
  which: "due" | "unclaimed",
): Promise<void> {
  const records = await prisma.pendingCustomerRedaction.findMany({
    where: { shopDomain: shop },
    select: { customerGid: true },
  });
  for (const { customerGid } of records) {
    const claim = await claimRedaction(shop, customerGid, which);
    if (claim) await runPass(claim, admin);
  }
}

/** resumeShopRedactions for page loads: a failure is logged, and the record retried later. */
export async function settleDueShopRedactions(shop: string, admin: AdminGraphqlClient): Promise<void> {
  try {
    await resumeShopRedactions(shop, admin, "due");
  } catch (error) {
    writeLog("error", `[compliance] a pending customer redaction for ${shop} failed; it is retried later`, {
      error: errorFields(error),
    });
  }
}

/**
 * The passes that are due on any shop, for the timer every instance runs: each record is claimed
 * first, so instances sweeping together run each pass once. A failed pass is logged and retried.
 */
export async function runDueRedactions(limit: number): Promise<number> {
  const due = await prisma.pendingCustomerRedaction.findMany({
    where: { runAfter: { lte: clock.now() } },
    select: { shopDomain: true, customerGid: true },
    orderBy: { runAfter: "asc" },
    take: limit,
  });
  let passes = 0;
  for (const { shopDomain, customerGid } of due) {
    const claim = await claimRedaction(shopDomain, customerGid, "due");
    if (!claim) continue;
    passes += 1;
    try {
      await runPass(claim, await loadOfflineAdmin(shopDomain));
    } catch (error) {
      writeLog(
        "error",
        `[compliance] a pass of the redaction of ${customerGid} on ${shopDomain} failed; retried later`,
        { error: errorFields(error) },
      );
    }
  }
  return passes;
}

interface CachedRedactions {
  version: number;
  /** Customers with a pending redaction, and when their next pass was due when read. */
  customers: ReadonlyMap<string, Date>;
  loadedAtMs: number;
}

/** A backstop for a version bump that was lost; changes are normally seen at once through it. */
const CACHE_TTL_MS = 60_000;
const MAX_CACHED_SHOPS = 10_000;
const cache = new Map<string, CachedRedactions>();
registerProcessCache(() => cache.clear());

/**
 * The shop's customers being redacted, from this process's cache while the shop's redaction
 * version is unchanged: one coordinator read per write, the database only after a change.
 */
async function customersBeingRedacted(shop: string): Promise<ReadonlyMap<string, Date>> {
  let version: number | undefined;
  try {
    [version] = await getCoordinator().readVersions([versionKey(shop)]);
  } catch (error) {
    if (!(error instanceof CoordinatorUnavailableError)) throw error;
  }
  const nowMs = Date.now();
  const cached = cache.get(shop);
  if (version !== undefined && cached?.version === version && nowMs - cached.loadedAtMs <= CACHE_TTL_MS) {
    return cached.customers;
  }
  return loadOrFallback(
    async () => {
      const records = await prisma.pendingCustomerRedaction.findMany({
        where: { shopDomain: shop },
        select: { customerGid: true, runAfter: true },
      });
      const customers = new Map(records.map((record) => [record.customerGid, record.runAfter]));
      cache.delete(shop);
      // Without a version the next change could not be told apart from this state: not cached.
      if (version !== undefined) {
        if (cache.size >= MAX_CACHED_SHOPS) cache.delete(cache.keys().next().value!);
        cache.set(shop, { version, customers, loadedAtMs: nowMs });
      }
      return customers;
    },
    // The database away: the redactions known before, while none was recorded since (decision 0027);
    // without a version nothing vouches for them, and the write is refused.
    version === undefined ? () => undefined : staleEntry(cached, version, (entry) => entry.customers),
  );
}

/**
 * For the dispatcher's write operations: a customer whose redaction is pending may not write, or
 * the write could land where the redaction's search does not see it yet. RATE_LIMITED: retrying
 * after the redaction's next pass can succeed (Retry-After says when), and nothing was spent.
 */
export async function assertNotBeingRedacted(shop: string, customerGid: string): Promise<void> {
  const nextPassAt = (await customersBeingRedacted(shop)).get(customerGid);
  if (!nextPassAt) return;
  throw new ServiceError(
    "RATE_LIMITED",
    "This customer's saved items are being erased at the shop's request; saving resumes once that is done",
    { retryAfterSeconds: Math.max(1, (nextPassAt.getTime() - clock.now().getTime()) / 1000) },
  );
}
