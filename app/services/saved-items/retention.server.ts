import { errorFields, writeLog } from "~/lib/json-log";
import { randomUUID } from "node:crypto";
import prisma from "~/db.server";
import { retentionWindowMs } from "~/config/env.server";
import { clock } from "~/lib/clock";
import type { JobDefinition } from "~/infrastructure/jobs/job-runner.server";
import { LockUnavailableError } from "~/infrastructure/coordination/coordinator.server";
import { getCoordinator } from "~/infrastructure/coordination/shared-coordinator.server";
import { readShopVersion } from "~/infrastructure/coordination/shop-version.server";
import type { AdminGraphqlClient } from "~/platform/admin-graphql.server";
import { createBucketPacer, pacedRequest, type BucketPacer } from "~/platform/bucket-pacer.server";
import { loadOfflineAdmin } from "~/platform/offline-admin.server";
import { directoryLockKey, listLockKey } from "./list-locks.server";
import { listDirectoryHandle, listHandle } from "./handles.server";
import { currentState, fencedChange, withoutItems, withPendingItems, withRemoved } from "./list-state";
import { getListStateStore } from "./list-state-store.server";
import { sharedLinksChanged } from "./shared-page-cache.server";
import { fieldValue, parseStoredJson, SAVE_LIST_FIELDS } from "~/services/records/fields";
import { deleteItemsById, readItemRecords } from "~/services/records/metaobject-store.server";
import {
  dropRetainedList,
  readRetainedList,
  readRetentionPage,
  writeRemovedItems,
  type RetainedListNode,
} from "~/services/records/save-list.server";
import { parseRemovedItems, storedStrings, type RemovedItems } from "~/services/records/stored-values";
import { planRetention, type RetainedList } from "./storage-bounds";

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

/** A list's record as retention decides on it; null for a list that keeps no removed items (written before lists did). */
function toRetainedList(node: RetainedListNode): (RetainedList & { customerGid: string; context: string }) | null {
  const removed = parseRemovedItems(parseStoredJson(fieldValue(node.fields, SAVE_LIST_FIELDS.removedItems)));
  const customerGid = fieldValue(node.fields, SAVE_LIST_FIELDS.customerId);
  const context = fieldValue(node.fields, SAVE_LIST_FIELDS.context);
  if (!removed || !customerGid || !context) return null;
  const deletedAt = fieldValue(node.fields, SAVE_LIST_FIELDS.deletedAt);
  return {
    customerGid,
    context,
    index: storedStrings(parseStoredJson(fieldValue(node.fields, SAVE_LIST_FIELDS.activeItems))),
    removed,
    deletedAtMs: deletedAt ? Date.parse(deletedAt) : null,
    named: fieldValue(node.fields, SAVE_LIST_FIELDS.name) !== null,
    updatedAtMs: Date.parse(node.updatedAt),
  };
}

const isDue = (list: RetainedList, cutoffMs: number) => {
  const plan = planRetention(list, cutoffMs);
  return plan.deleteItems.length > 0 || plan.dropList;
};

/**
 * One list's retention, under its lock and its customer's directory's: decided again from the
 * record read by handle (current), the due items checked by handle, deleted, then the record
 * written (or, emptied for the window, deleted and dropped from the directory).
 */
async function retainList(
  shop: string,
  admin: AdminGraphqlClient,
  pacer: BucketPacer,
  owner: { customerGid: string; context: string },
  cutoffMs: number,
): Promise<void> {
  const { customerGid, context } = owner;
  const customer = { shop, customerGid };
  const handle = listHandle(customerGid, context);
  const directoryHandle = listDirectoryHandle(customerGid);
  await getCoordinator().withLocks([listLockKey(customer, context), directoryLockKey(customer)], async (held) => {
    const options = pacedRequest(pacer, () => held.assertHeld());
    const read = await readRetainedList(admin, handle, directoryHandle, options);
    const list = read.list && toRetainedList(read.list);
    if (!list || !read.list) return;
    const plan = planRetention(list, cutoffMs);
    if (plan.deleteItems.length === 0 && !plan.dropList) return;

    // Only an item that is removed, and is still the one removed (same id), is deleted; an entry
    // whose item is active again or gone only leaves the list's removed items.
    const { items } = await readItemRecords(
      admin,
      plan.deleteItems.map((item) => item.handle),
      [],
      undefined,
      options,
    );
    const deletable = plan.deleteItems.filter(({ handle: item, id }) => {
      const record = items.get(item);
      return record?.id === id && record.status === "removed";
    });
    const store = getListStateStore();
    const key = { shop, customerGid, context };
    const shopVersion = await readShopVersion(shop);
    const handles = deletable.map((item) => item.handle);
    // While the deletes are in flight the items, and the list's removed items, are unknown to the cache.
    await store.update(
      key,
      fencedChange(held.fence, (current) =>
        withRemoved(withPendingItems(currentState(current, shopVersion, Date.now()), handles, Date.now()), undefined),
      ),
    );
    const gone = await deleteItemsById(
      admin,
      deletable.map((item) => item.id),
      options,
    );
    const failed = Object.fromEntries(
      deletable.filter((item) => !gone.has(item.id)).map((item) => [item.handle, list.removed[item.handle]!]),
    );
    const removed: RemovedItems = { ...plan.removed, ...failed };
    // A list one of whose items is active (a write whose answer was lost) is not empty, whatever it says.
    const anyActive = plan.deleteItems.some((item) => items.get(item.handle)?.status === "active");
    const dropped = plan.dropList && !anyActive && Object.keys(failed).length === 0;
    const counted = read.directoryLists;
    let written: boolean;
    if (dropped) {
      written = await dropRetainedList(
        admin,
        { id: read.list.id, directoryHandle, customerGid, lists: counted.filter((other) => other !== context) },
        options,
      );
      // A link to the list must stop opening now, not when its cached page expires.
      if (written) await sharedLinksChanged(shop);
    } else {
      written = await writeRemovedItems(admin, handle, removed, options);
    }
    // The deleted items are "no item" now: forgotten, a later read finds them gone. The list's removed
    // items are known again only when written to a list the directory counts.
    const known = written && !dropped && counted.includes(context) ? removed : undefined;
    await store.update(
      key,
      fencedChange(held.fence, (current) =>
        withRemoved(withoutItems(currentState(current, shopVersion, Date.now()), handles), known),
      ),
    );
  });
}

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
    for (const { node } of page.edges) {
      const list = toRetainedList(node);
      if (list && isDue(list, cutoffMs)) await retainList(shop, admin, pacer, list, cutoffMs);
    }
    const { hasNextPage } = page.pageInfo;
    const cursor = page.edges.at(-1)?.cursor ?? null;
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
