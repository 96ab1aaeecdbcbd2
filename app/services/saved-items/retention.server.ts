import { errorFields, writeLog } from "~/lib/json-log";
import { randomUUID } from "node:crypto";
import prisma from "~/db.server";
import { retentionWindowMs } from "~/config/env.server";
import { clock } from "~/lib/clock";
import type { JobDefinition } from "~/infrastructure/jobs/job-runner.server";
import { LockUnavailableError } from "~/infrastructure/coordination/coordinator.server";
import { createBucketPacer, pacedRequest } from "~/platform/bucket-pacer.server";
import { loadOfflineAdmin } from "~/platform/offline-admin.server";
import { readRetentionPage } from "~/services/records/retained-list.server";
import { retainList } from "./list-store/retain-list.server";
import { planRetention, retainedListOf, type RetainedList } from "./storage-bounds";

/**
 * Retention (docs/decisions/0017-bounded-storage.md): removed items, and lists deleted or left
 * empty, older than RETENTION_SECONDS are deleted from the platform, so what a customer stored
 * stops counting against the bounds and the shop's entries. Each shop's lists are read a page at
 * a time from search (which may lag: what it misses is found by a later pass); a list with
 * something due is read again by handle under its lock and its directory's (the locks its writers
 * hold), its due items are checked by handle (only a removed item is ever deleted), deleted by id,
 * and its record and the list-state cache are left exact: afterwards each is "no item". Every
 * request is paced to leave shoppers their share of the shop's bucket. The sweep is a job on the
 * app's job runner (decision 0028); each page is claimed on the shop's ListRetention row, so sweeps
 * that meet (a run taken over after its lease) run it once, and a restart resumes.
 */

/** How often the job looks for shops whose pass is due. */
const SWEEP_INTERVAL_MS = 10 * 60_000;
/** How long after a finished pass a shop's next one starts: items come due within this much of their time. */
const PASS_INTERVAL_MS = 6 * 60 * 60_000;
/** A page's lease: a claim older than this is taken over (the instance running it died). */
const PAGE_LEASE_MS = 15 * 60_000;
/** After a failed page, how long until it is tried again. */
const RETRY_MS = 10 * 60_000;
/** Lists per page of search: each due one costs up to four paced requests. */
const LISTS_PER_PAGE = 25;

/** The cadence, shortened with a short window (the sandbox's), so nothing waits much past its time. */
export function retentionCadence(windowMs: number): { sweepMs: number; passMs: number } {
  return { sweepMs: Math.min(SWEEP_INTERVAL_MS, windowMs / 4), passMs: Math.min(PASS_INTERVAL_MS, windowMs / 4) };
}

const isDue = (list: RetainedList, cutoffMs: number) => {
  const plan = planRetention(list, cutoffMs);
  return plan.deleteItems.length > 0 || plan.dropList;
};

interface Claim {
  shop: string;
  token: string;
  cursor: string | null;
}

const later = (ms: number) => new Date(clock.now().getTime() + ms);

/** Takes the shop's next page: only one caller's conditional write lands, on any instance. */
async function claimPage(shop: string): Promise<Claim | undefined> {
  const token = randomUUID();
  const taken = await prisma.listRetention.updateMany({
    where: { shopDomain: shop, runAfter: { lte: clock.now() } },
    data: { claimToken: token, runAfter: later(PAGE_LEASE_MS) },
  });
  if (taken.count !== 1) return undefined;
  const row = await prisma.listRetention.findUnique({ where: { shopDomain: shop } });
  return row?.claimToken === token ? { shop, token, cursor: row.cursor } : undefined;
}

/** Hands the pass back until runAfter, at `cursor`, unless a page that took over after the lease holds it. */
async function release(claim: Claim, runAfter: Date, cursor: string | null): Promise<void> {
  await prisma.listRetention.updateMany({
    where: { shopDomain: claim.shop, claimToken: claim.token },
    data: { claimToken: null, runAfter, cursor },
  });
}

/**
 * One page of one shop's pass, claimed first. Says whether the pass goes on (another page is
 * due at once). A failed page is handed back for a retry and rethrown.
 */
async function runPage(shop: string, signal: AbortSignal): Promise<boolean> {
  const claim = await claimPage(shop);
  if (!claim) return false;
  const windowMs = retentionWindowMs();
  try {
    const admin = await loadOfflineAdmin(shop);
    if (!admin) {
      await release(claim, later(retentionCadence(windowMs).passMs), null);
      return false;
    }
    const pacer = createBucketPacer(shop, signal);
    const cutoffMs = clock.now().getTime() - windowMs;
    const page = await readRetentionPage(
      admin,
      LISTS_PER_PAGE,
      claim.cursor,
      pacedRequest(pacer, async () => {}),
    );
    for (const record of page.lists) {
      const list = retainedListOf(record);
      if (list && isDue(list, cutoffMs))
        await retainList({ shop, admin, customerGid: list.customerGid }, list.context, pacer, cutoffMs);
    }
    const { hasNextPage, endCursor: cursor } = page;
    if (hasNextPage && cursor) {
      await release(claim, clock.now(), cursor);
      return true;
    }
    await release(claim, later(retentionCadence(windowMs).passMs), null);
    return false;
  } catch (error) {
    // A list whose writer holds it, or a stop: the page is looked at again, from where it was.
    const handBack = error instanceof LockUnavailableError || signal.aborted ? clock.now() : later(RETRY_MS);
    await release(claim, handBack, claim.cursor);
    if (error instanceof LockUnavailableError || signal.aborted) return false;
    throw error;
  }
}

/**
 * One sweep: every installed shop gets a retention row, then every shop whose pass is due runs
 * its pages until the pass ends (or the sweep is stopped). One shop's failure stops no other.
 */
export async function runRetentionSweep(signal: AbortSignal = new AbortController().signal): Promise<void> {
  const installed = await prisma.shop.findMany({ where: { uninstalledAt: null }, select: { domain: true } });
  await prisma.listRetention.createMany({
    data: installed.map(({ domain }) => ({ shopDomain: domain, runAfter: clock.now() })),
    skipDuplicates: true,
  });
  const due = await prisma.listRetention.findMany({
    where: { runAfter: { lte: clock.now() }, shopDomain: { in: installed.map(({ domain }) => domain) } },
    select: { shopDomain: true },
    orderBy: { runAfter: "asc" },
  });
  for (const { shopDomain } of due) {
    try {
      while (!signal.aborted && (await runPage(shopDomain, signal)));
    } catch (error) {
      writeLog("error", `[retention] a page of the pass of ${shopDomain} failed; tried again later`, {
        error: errorFields(error),
      });
    }
  }
}

/** Its interval follows RETENTION_SECONDS; its runs stop before their next platform request when stopped. */
export const retentionJob: JobDefinition = {
  name: "retention",
  intervalMs: () => retentionCadence(retentionWindowMs()).sweepMs,
  run: (signal) => runRetentionSweep(signal),
};
