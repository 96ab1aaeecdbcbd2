import { errorFields, writeLog } from "~/lib/json-log";
import { randomUUID } from "node:crypto";
import prisma from "~/db.server";
import { searchLagMs } from "~/config/env.server";
import { clock } from "~/lib/clock";
import { LockUnavailableError } from "~/infrastructure/coordination/coordinator.server";
import { isServiceError } from "~/lib/errors";
import type { AdminGraphqlClient } from "~/platform/admin-graphql.server";
import { readBulkOperation, readBulkResult, startBulkQuery } from "~/platform/bulk-operations.server";
import { loadOfflineAdmin } from "~/platform/offline-admin.server";
import { saveItemsBulkQuery, toSaveItemLine } from "~/services/records/save-item-lines";
import { maxDelayMs } from "./flush-plan";
import {
  afterPoll,
  createShopperCounter,
  planRecount,
  RECOUNT_INTERVAL_MS,
  RECOUNT_LEASE_MS,
  RECOUNT_RETRY_MS,
  recountStep,
  type RecountMark,
} from "./recount-plan";
import { withShopFlushLock } from "./saved-by-flush.server";
import { savedByGranted } from "./saved-by-grant.server";

/**
 * The daily recount (decision 0010, "What survives what"): a mark lost between a save's answer
 * and its write leaves a product's count wrong until its next mark. Once a day at most, a shop
 * that saved since its last recount (or never had one) gets a bulk query over its active
 * save_items, which costs nothing against its rate limit; the products the result shows to be
 * wrong are marked due, and the normal flush recounts and publishes them under its own rules.
 * Each step (start, poll and read) is claimed on the shop's SavedByRecount row, so instances
 * sweeping together run it once, and a restart resumes a running recount from the row.
 */

interface Claim {
  shop: string;
  token: string;
  countedAt: Date | null;
  operation: string | null;
  startedAt: Date | null;
}

const later = (ms: number) => new Date(clock.now().getTime() + ms);

/** Takes the shop's recount for one step: only one caller's conditional write lands, on any instance. */
async function claimRecount(shop: string): Promise<Claim | undefined> {
  const token = randomUUID();
  const taken = await prisma.savedByRecount.updateMany({
    where: { shopDomain: shop, runAfter: { lte: clock.now() } },
    data: { claimToken: token, runAfter: later(RECOUNT_LEASE_MS) },
  });
  if (taken.count !== 1) return undefined;
  const row = await prisma.savedByRecount.findUnique({ where: { shopDomain: shop } });
  return row?.claimToken === token ? { ...row, shop, token } : undefined;
}

/** Hands the recount back until runAfter, unless a step that took over after the lease holds it. */
async function release(
  claim: Claim,
  runAfter: Date,
  data: { countedAt?: Date; operation?: string | null; startedAt?: Date | null } = {},
): Promise<void> {
  await prisma.savedByRecount.updateMany({
    where: { shopDomain: claim.shop, claimToken: claim.token },
    data: { ...data, claimToken: null, runAfter },
  });
}

/** Starts the bulk query; a shop whose bulk query slot is taken (an export, an insights refresh) is tried again later. */
async function startRecount(claim: Claim, admin: AdminGraphqlClient): Promise<void> {
  const startedAt = clock.now();
  let operation: string;
  try {
    operation = await startBulkQuery(admin, saveItemsBulkQuery("active"));
  } catch (error) {
    if (!isServiceError(error) || error.code !== "RATE_LIMITED") throw error;
    return release(claim, later(RECOUNT_RETRY_MS));
  }
  await release(claim, clock.now(), { operation, startedAt });
}

/** Polls the running operation; once it has finished, reads its result and marks what it shows wrong. */
async function pollRecount(claim: Claim, admin: AdminGraphqlClient, operation: string): Promise<void> {
  const bulk = await readBulkOperation(admin, operation).catch((error: unknown) => {
    // An operation the platform no longer knows is given up like a failed one.
    if (isServiceError(error) && error.code === "NOT_FOUND") return undefined;
    throw error;
  });
  const next = bulk ? afterPoll(bulk.status) : "abandon";
  if (next === "wait") return release(claim, clock.now());
  if (next === "abandon") {
    writeLog("warn", `[saved-by] the recount of ${claim.shop} ended ${bulk?.status ?? "unknown"}; tried again later`);
    return release(claim, later(RECOUNT_RETRY_MS), { operation: null, startedAt: null });
  }
  const counter = createShopperCounter();
  for await (const node of readBulkResult(bulk!.url)) {
    const line = toSaveItemLine(node);
    if (line) counter.add(line);
  }
  const snapshotAt = claim.startedAt ?? clock.now();
  try {
    await markRecounted(claim.shop, counter.counts(), snapshotAt);
  } catch (error) {
    // A flush holds the shop: the result is read again at the next sweep.
    if (error instanceof LockUnavailableError) return release(claim, clock.now());
    throw error;
  }
  await release(claim, new Date(snapshotAt.getTime() + RECOUNT_INTERVAL_MS), {
    countedAt: snapshotAt,
    operation: null,
    startedAt: null,
  });
}

/**
 * Applies planRecount under the shop's flush lock: a flush that read a product before the marks
 * could otherwise settle it afterwards without the count they ask for. Saves marked meanwhile
 * need no lock: marks and these writes only ever add to a bound.
 */
async function markRecounted(shop: string, counted: ReadonlyMap<string, number>, snapshotAt: Date): Promise<void> {
  await withShopFlushLock(shop, async (held) => {
    const rows = await prisma.savedByProduct.findMany({
      where: { shopDomain: shop },
      select: { productGid: true, published: true, bound: true },
    });
    const marks = planRecount(counted, new Map(rows.map((row) => [row.productGid, row])));
    await held.assertHeld();
    // A new row's latest mark is the last write the snapshot surely saw: its flush then settles, and
    // the row does not count as a save since this recount, which would make the shop due again.
    const seen = new Date(snapshotAt.getTime() - searchLagMs());
    // Due as if it had waited the flush's delay: the day since the last recount was the wait, and
    // marks that no save pays for would otherwise hold the shop's newer saves back for that delay.
    const dueSince = new Date(clock.now().getTime() - maxDelayMs(searchLagMs()));
    for (const mark of marks) await writeMark(shop, mark, dueSince, seen);
    if (marks.length > 0) writeLog("info", `[saved-by] the recount of ${shop} marked ${marks.length} product(s)`);
  });
}

async function writeMark(shop: string, mark: RecountMark, dueSince: Date, seen: Date): Promise<void> {
  const where = { shopDomain: shop, productGid: mark.productGid };
  if (mark.create) {
    // A row a save created since the rows were read is already due: the count is added to its bound.
    await prisma.savedByProduct.upsert({
      where: { shopDomain_productGid: where },
      create: { ...where, bound: mark.raiseBy, dirtyAt: seen, dirtySince: mark.due ? dueSince : null },
      update: { bound: { increment: mark.raiseBy } },
    });
    return;
  }
  if (mark.raiseBy > 0) {
    await prisma.savedByProduct.updateMany({ where, data: { bound: { increment: mark.raiseBy } } });
  }
  if (mark.due) {
    await prisma.savedByProduct.updateMany({ where: { ...where, dirtySince: null }, data: { dirtySince: dueSince } });
  }
}

/** One step of one shop's recount, claimed first; a failed step is handed back for a retry and rethrown. */
async function stepShop(shop: string, latestMark: Date | null): Promise<void> {
  const claim = await claimRecount(shop);
  if (!claim) return;
  try {
    // Decided again on the claimed row: another instance may have finished a step meanwhile.
    const step = recountStep(claim, latestMark, searchLagMs());
    if (step === "idle") return await release(claim, clock.now());
    // Its marks are for the flush, which writes nothing until the merchant grants the scope.
    if (step === "start" && !(await savedByGranted(shop))) return await release(claim, later(RECOUNT_RETRY_MS));
    const admin = await loadOfflineAdmin(shop);
    if (!admin) return await release(claim, later(RECOUNT_INTERVAL_MS));
    if (step === "start") return await startRecount(claim, admin);
    return await pollRecount(claim, admin, claim.operation!);
  } catch (error) {
    await release(claim, later(RECOUNT_RETRY_MS));
    throw error;
  }
}

/**
 * One sweep: every installed shop gets a recount row (so shops installed before the recount get
 * their first one), then every shop with a step to run one step. A shop with no mark since its
 * last recount is left as it is, without a write, and looked at again at the next sweep. One
 * shop's failure does not stop the others.
 */
export async function runSavedByRecounts(): Promise<void> {
  const installed = await prisma.shop.findMany({ where: { uninstalledAt: null }, select: { domain: true } });
  await prisma.savedByRecount.createMany({
    data: installed.map(({ domain }) => ({ shopDomain: domain, runAfter: clock.now() })),
    skipDuplicates: true,
  });
  const shops = new Set(installed.map(({ domain }) => domain));
  const due = (
    await prisma.savedByRecount.findMany({
      where: { runAfter: { lte: clock.now() } },
      select: { shopDomain: true, countedAt: true, operation: true },
      orderBy: { runAfter: "asc" },
    })
  ).filter(({ shopDomain }) => shops.has(shopDomain));
  if (due.length === 0) return;
  const latest = await prisma.savedByProduct.groupBy({
    by: ["shopDomain"],
    where: { shopDomain: { in: due.map(({ shopDomain }) => shopDomain) } },
    _max: { dirtyAt: true },
  });
  const latestMarks = new Map(latest.map((row) => [row.shopDomain, row._max.dirtyAt]));
  for (const row of due) {
    const latestMark = latestMarks.get(row.shopDomain) ?? null;
    if (recountStep(row, latestMark, searchLagMs()) === "idle") continue;
    const { shopDomain } = row;
    await stepShop(shopDomain, latestMark).catch((error: unknown) =>
      writeLog("error", `[saved-by] a step of the recount of ${shopDomain} failed; tried again later`, {
        error: errorFields(error),
      }),
    );
  }
}
