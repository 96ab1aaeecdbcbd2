import { retentionWindowMs } from "~/config/env.server";
import { clock } from "~/lib/clock";
import type { HeldLocks } from "~/infrastructure/coordination/coordinator.server";
import { readShopVersion } from "~/infrastructure/coordination/shop-version.server";
import { asServiceError } from "~/lib/envelope";
import { ServiceError } from "~/lib/errors";
import { annotateRequest } from "~/lib/request-context.server";
import { storageFullError } from "~/platform/metaobject-cap.server";
import type { Caller } from "~/services/caller";
import { itemHandle, listDirectoryHandle, listHandle } from "./handles.server";
import { directoryLockKey, listLockKey, withWriteLocks } from "./list-locks.server";
import {
  indexAfterRefusals,
  planChanges,
  readsNeeded,
  type ChangeOutcome,
  type ItemPlan,
  type Knowledge,
  type Plan,
  type PlannedChange,
} from "./item-planner";
import {
  activeHandles,
  currentState,
  fencedChange,
  lookUpItem,
  pendingHandles,
  withItems,
  withoutItems,
  withPendingItems,
  withRemoved,
  type KnownItem,
  type ListState,
} from "./list-state";
import { getListStateStore, type ListKey } from "./list-state-store.server";
import { SAVE_ITEM_FIELDS, SAVE_ITEM_TYPE } from "~/services/records/fields";
import {
  applyWrites,
  listActiveItems,
  readItemRecords,
  type DirectoryWrite,
  type ItemWrite,
  type ListRecord,
  type ListWrite,
  type SaveItemRecord,
} from "~/services/records/metaobject-store.server";
import { absentItem, observedItem } from "./observations";
import { MAX_LIST_LIMIT, type ItemIdentity } from "./schemas";
import type { RemovedItems } from "~/services/records/stored-values";
import { admitNewLists, tooManyListsError } from "./storage-bounds";
import type { ItemAction } from "./transitions";
import { sharedItemsChanged } from "./shared-page-cache.server";

export type { ChangeOutcome } from "./item-planner";

export interface ItemChange {
  action: ItemAction;
  item: ItemIdentity;
  source?: string;
  snapshot?: Record<string, unknown>;
}

// date_time fields take second precision.
export const isoSeconds = (at: Date) => at.toISOString().replace(/\.\d{3}Z$/, "Z");

/** How many pages of search build the index of a list that has none (written before lists kept one). */
const MAX_PAGES_TO_INDEX = 10;

/**
 * Applies save/remove/toggle changes for one customer. The lock of every list touched, and the
 * customer's directory's, are held for the whole read-decide-write, across instances, so the
 * list's writers take turns and each decides from what the one before left: the cached state
 * where it is exact, otherwise one read by handle. The decisions are item-planner.ts's (and
 * storage-bounds.ts's for a list the write would make); all writes (the directory and the list's
 * record first) go in one mutation request. Written items are pending in the cache until the
 * platform's answer settles them, so a writer that dies leaves them unknown (read again), never wrong.
 */
export async function applyItemChanges(caller: Caller, changes: ItemChange[]): Promise<ChangeOutcome[]> {
  const contexts = [...new Set(changes.map((change) => change.item.context))];
  return withWriteLocks(
    [...contexts.map((context) => listLockKey(caller, context)), directoryLockKey(caller)],
    (held) => applyLocked(caller, changes, contexts, held, {}),
  );
}

interface ListWork {
  key: ListKey;
  handle: string;
  state: ListState;
  /** The list's index when known: the active items of a complete state, or as read. */
  index: string[] | undefined;
  /** Its removed items still stored, known with the index: from the cached state, or as read. */
  removed: RemovedItems | undefined;
  /** Whether its record exists and the customer's directory counts it: known with its removed items. */
  record: "counted" | "uncounted" | "absent" | "unknown";
  changes: { position: number; change: PlannedChange }[];
  /** Pending items left by a writer that died, found not to exist: their marks go. */
  gone: string[];
}

/**
 * How delete-list removes a list's items through the same path: `known` holds the items as it
 * just read them under the list's lock (so they are not read again), and `keepIndex` leaves the
 * list's index as it is, to be written once every removal has succeeded: until then it still names
 * every item that may be active, and a retry finds them.
 */
export interface LockedApplyOptions {
  known?: ReadonlyMap<string, SaveItemRecord>;
  keepIndex?: boolean;
}

/** What the changes' reads found of the customer's directory: the lists it counts (read with a list's record). */
interface Directory {
  lists: string[] | undefined;
}

/** applyItemChanges for a caller that already holds the lock of every list the changes touch. */
export function applyItemChangesLocked(
  caller: Caller,
  changes: ItemChange[],
  held: HeldLocks,
  options: LockedApplyOptions,
): Promise<ChangeOutcome[]> {
  return applyLocked(caller, changes, [...new Set(changes.map((change) => change.item.context))], held, options);
}

/** What every phase of one locked apply shares: who writes, under which locks, against which cache. */
interface LockedRun {
  caller: Caller;
  held: HeldLocks;
  store: ReturnType<typeof getListStateStore>;
  shopVersion: Awaited<ReturnType<typeof readShopVersion>>;
  /** When the run began: states cached before it by an older shop version are dropped. */
  startMs: number;
}

/** One item write to send, with the list and the change it is for. */
interface PendingWrite {
  write: ItemWrite;
  list: ListWork;
  handle: string;
  position: number;
}

/** What a list's cache learns once the platform has answered its writes. */
interface Settlement {
  known: Record<string, KnownItem>;
  forgotten: string[];
  removed: RemovedItems | undefined;
}

/**
 * The write path under the locks, phase by phase: each list's cached state and its changes, what
 * is known of each item, one read of what is not, the planner's decisions, the cache marking what
 * is about to be written, one mutation, its answers, the indexes and directory put right after
 * refusals, and the cache settled from the answers.
 */
async function applyLocked(
  caller: Caller,
  changes: ItemChange[],
  contexts: string[],
  held: HeldLocks,
  options: LockedApplyOptions,
): Promise<ChangeOutcome[]> {
  const store = getListStateStore();
  const run: LockedRun = { caller, held, store, shopVersion: await readShopVersion(caller.shop), startMs: Date.now() };
  const lists = await cachedLists(run, contexts);
  assignChanges(caller, lists, changes);
  const knowledge = knownItems(lists, options);
  const directory: Directory = { lists: undefined };
  const learned = await readMissing(caller, lists, knowledge, directory);

  const retentionMs = retentionWindowMs();
  const plans = planLists(lists, knowledge, isoSeconds(clock.now()), retentionMs);
  const directoryWrite = countNewLists(caller, plans, directory, retentionMs);
  const { outcomes, listWrites, writes, written } = writesOfPlans(caller, plans, options);

  await markPending(run, lists, learned, writes, written);
  annotateRequest({ cache: learned.size > 0 ? "miss" : "hit" });
  if (writes.length === 0) return outcomes;

  const results = await applyWrites(
    caller.admin,
    listWrites,
    writes.map((entry) => entry.write),
    // A lock that lapsed (a pause longer than its lease) may be someone else's by now: do not send.
    () => held.assertHeld(),
    directoryWrite,
  );
  // Shared pages of these lists are read again, whatever of the writes landed.
  await sharedItemsChanged(
    caller.shop,
    contexts.map((context) => listHandle(caller.customerGid, context)),
  );
  const { settled, refused } = answersOf(caller, writes, results, listWrites, written, knowledge, outcomes);
  await rewriteIndexes(caller, held, lists, listWrites, refused);
  await uncountUnmadeLists(caller, held, lists, listWrites, directoryWrite, results);
  await settleCache(run, settled);
  return outcomes;
}

/** Each list's cached state; where it is exact (complete, nothing pending), its index and removed items too. */
async function cachedLists(run: LockedRun, contexts: string[]): Promise<Map<string, ListWork>> {
  const { caller, store, shopVersion, startMs } = run;
  const lists = new Map<string, ListWork>();
  for (const context of contexts) {
    const key = { shop: caller.shop, customerGid: caller.customerGid, context };
    const state = currentState((await store.read(key)).state, shopVersion, startMs);
    const exact = state.complete && pendingHandles(state).length === 0 && state.removed !== undefined;
    lists.set(context, {
      key,
      handle: listHandle(caller.customerGid, context),
      state,
      index: exact ? activeHandles(state) : undefined,
      removed: exact ? state.removed : undefined,
      record: exact ? "counted" : "unknown",
      changes: [],
      gone: [],
    });
  }
  return lists;
}

/** Files each change under its list, as the planner takes it, remembering its place in the request. */
function assignChanges(caller: Caller, lists: Map<string, ListWork>, changes: ItemChange[]): void {
  changes.forEach((change, position) =>
    lists.get(change.item.context)!.changes.push({
      position,
      change: {
        action: change.action,
        handle: itemHandle(caller.customerGid, change.item),
        item: change.item,
        ...(change.source ? { source: change.source } : {}),
        ...(change.snapshot ? { snapshot: JSON.stringify(change.snapshot) } : {}),
      },
    }),
  );
}

/** What is known of each changed item before any read: as the caller just read it, or from the cache. */
function knownItems(lists: Map<string, ListWork>, options: LockedApplyOptions): Map<string, Knowledge> {
  const knowledge = new Map<string, Knowledge>();
  for (const list of lists.values()) {
    for (const { change } of list.changes) {
      const record = options.known?.get(change.handle);
      knowledge.set(
        change.handle,
        record ? { kind: "known", item: observedItem(record) } : knowledgeOf(list.state, change.handle),
      );
    }
  }
  return knowledge;
}

/** The planner's decisions for each list, on its index and removed items as now known. */
function planLists(
  lists: Map<string, ListWork>,
  knowledge: Map<string, Knowledge>,
  savedAt: string,
  retentionMs: number,
): Map<ListWork, Plan> {
  return new Map(
    [...lists.values()].map((list) => [
      list,
      planChanges(
        list.changes.map((entry) => entry.change),
        knowledge,
        { index: list.index!, removed: list.removed! },
        savedAt,
        retentionMs,
      ),
    ]),
  );
}

/** The plans as answers given without writing, item writes to send and list records to write. */
function writesOfPlans(caller: Caller, plans: Map<ListWork, Plan>, options: LockedApplyOptions) {
  const outcomes: ChangeOutcome[] = [];
  const listWrites: ListWrite[] = [];
  const writes: PendingWrite[] = [];
  const written = new Map<ListWork, ListWrite>();
  for (const [list, plan] of plans) {
    plan.plans.forEach((itemPlan, planIndex) => {
      const { position, change } = list.changes[planIndex]!;
      if (itemPlan.kind === "answer") outcomes[position] = itemPlan.outcome;
      else writes.push({ write: toWrite(caller, change, itemPlan), list, handle: change.handle, position });
    });
    if (plan.index) {
      const listWrite: ListWrite = {
        handle: list.handle,
        customerGid: caller.customerGid,
        context: list.key.context,
        ...(options.keepIndex ? {} : { index: plan.index }),
        removed: plan.removed!,
      };
      listWrites.push(listWrite);
      written.set(list, listWrite);
    }
  }
  return { outcomes, listWrites, writes, written };
}

/**
 * What was read is current (the locks are held): the cache learns it, and the items about to be
 * written become pending before anything is sent. So do the list's removed items as read, unless
 * its record is about to be written: until the answer they are unknown.
 */
async function markPending(
  run: LockedRun,
  lists: Map<string, ListWork>,
  learned: Map<ListWork, Record<string, KnownItem>>,
  writes: readonly PendingWrite[],
  written: ReadonlyMap<ListWork, ListWrite>,
): Promise<void> {
  const { held, store, shopVersion, startMs } = run;
  for (const list of lists.values()) {
    const itemsWritten = writes.filter((entry) => entry.list === list).map((entry) => entry.handle);
    const read = learned.get(list);
    if (itemsWritten.length === 0 && !read) continue;
    const removedNow = written.has(list) || list.record !== "counted" ? undefined : list.removed;
    await store.update(
      list.key,
      fencedChange(held.fence, (current) =>
        withRemoved(
          withPendingItems(
            withoutItems(
              withItems(currentState(current, shopVersion, startMs), read ?? {}, {
                nowMs: Date.now(),
                settlesPending: true,
              }),
              list.gone,
            ),
            itemsWritten,
            Date.now(),
          ),
          removedNow,
        ),
      ),
    );
  }
}

/**
 * The platform's answers to the item writes: each change's outcome (filled into `outcomes`), what
 * each list's cache may settle, and the items each list's refused writes left as they were.
 */
function answersOf(
  caller: Caller,
  writes: readonly PendingWrite[],
  results: Awaited<ReturnType<typeof applyWrites>>,
  listWrites: readonly ListWrite[],
  written: ReadonlyMap<ListWork, ListWrite>,
  knowledge: ReadonlyMap<string, Knowledge>,
  outcomes: ChangeOutcome[],
): { settled: Map<ListWork, Settlement>; refused: Map<ListWork, Set<string>> } {
  const settled = new Map<ListWork, Settlement>();
  const refused = new Map<ListWork, Set<string>>();
  writes.forEach(({ list, handle, position }, writeIndex) => {
    const result = results.items[writeIndex]!;
    const listWritten = results.lists[listWrites.indexOf(written.get(list)!)] === true;
    const counted = list.record === "counted" || results.directory === true;
    const entry = settled.get(list) ?? {
      known: {},
      forgotten: [],
      removed: listWritten && counted ? written.get(list)!.removed : undefined,
    };
    settled.set(list, entry);
    // Only a list whose every write landed keeps its removed items known: they are what was written.
    if (!result.ok) entry.removed = undefined;
    if (result.ok) {
      const item = observedItem(result.record);
      outcomes[position] = { ok: true, result: { id: item.id!, state: item.status } };
      entry.known[handle] = item;
    } else if (result.code === "REFUSED") {
      outcomes[position] = {
        ok: false,
        error: result.atCap
          ? storageFullError(caller.shop, SAVE_ITEM_TYPE)
          : new ServiceError("PLATFORM_UPSTREAM_ERROR", `The platform refused the write: ${result.message}`),
      };
      refused.set(list, (refused.get(list) ?? new Set()).add(handle));
      // Refused, so nothing changed: the item is what it was before.
      const before = knowledge.get(handle)!;
      if (before.kind === "known") entry.known[handle] = before.item;
      else entry.forgotten.push(handle);
    } else {
      // Applied or not, nobody can say: the item stays pending, to be read again.
      outcomes[position] = { ok: false, error: asServiceError(result.error) };
    }
  });
  return { settled, refused };
}

/**
 * The cache learns what the answers settled. A holder whose lock lapsed while it wrote (a pause
 * longer than the lease) leaves the cache to the holder after it, which settles its pending marks
 * from the platform.
 */
async function settleCache(run: LockedRun, settled: ReadonlyMap<ListWork, Settlement>): Promise<void> {
  const { held, store, shopVersion, startMs } = run;
  if (
    !(await held.assertHeld().then(
      () => true,
      () => false,
    ))
  )
    return;
  for (const [list, { known, forgotten, removed }] of settled) {
    await store.update(
      list.key,
      fencedChange(held.fence, (current) =>
        withRemoved(
          withoutItems(
            withItems(currentState(current, shopVersion, startMs), known, { nowMs: Date.now(), settlesPending: true }),
            forgotten,
          ),
          removed,
        ),
      ),
    );
  }
}

/**
 * The bound on the customer's lists (storage-bounds.ts), where a write would make one: a list
 * whose record does not exist is made only while the directory counts fewer than the bound, and
 * otherwise every change of it that writes answers the bound's error instead; a list written
 * before the directory counted lists is counted now. Returns the directory's new value, if any.
 */
function countNewLists(
  caller: Caller,
  plans: Map<ListWork, Plan>,
  directory: Directory,
  retentionMs: number,
): DirectoryWrite | undefined {
  const writing = [...plans].filter(([list, plan]) => plan.index && list.record !== "counted");
  if (writing.length === 0) return undefined;
  const stored = [
    ...writing.filter(([list]) => list.record === "uncounted").map(([list]) => list.key.context),
    ...directory.lists!,
  ];
  const { admitted, lists } = admitNewLists(
    stored,
    writing.filter(([list]) => list.record === "absent").map(([list]) => list.key.context),
  );
  for (const [list, plan] of writing) {
    if (admitted.has(list.key.context) || list.record === "uncounted") continue;
    const refused = { ok: false as const, error: tooManyListsError(retentionMs) };
    plans.set(list, {
      plans: plan.plans.map((itemPlan) =>
        itemPlan.kind === "answer" ? itemPlan : { kind: "answer", outcome: refused },
      ),
    });
  }
  return { handle: listDirectoryHandle(caller.customerGid), customerGid: caller.customerGid, lists };
}

/**
 * Writes again, without what was refused, the index of each list some of whose writes the
 * platform refused (at the entry cap, a save's create is refused while its list's index, sent
 * first, was written): the index names exactly the active items. Should this request fail, the
 * index stays as sent (an item too many, which reads skip, or, after a refused removal, one too
 * few) until a later write of the list writes it again.
 */
async function rewriteIndexes(
  caller: Caller,
  held: HeldLocks,
  lists: Map<string, ListWork>,
  listWrites: readonly ListWrite[],
  refused: ReadonlyMap<ListWork, ReadonlySet<string>>,
): Promise<void> {
  const rewrites = listWrites.flatMap((write) => {
    const list = lists.get(write.context)!;
    const handles = refused.get(list);
    return handles && write.index ? [{ ...write, index: indexAfterRefusals(list.index!, write.index, handles) }] : [];
  });
  if (rewrites.length > 0) await applyWrites(caller.admin, rewrites, [], () => held.assertHeld());
}

/**
 * Writes the directory again without the new lists it counted whose record the platform refused
 * (at the entry cap a new list's create is refused while the directory, sent first in the same
 * request, was written): a list that does not exist would otherwise hold one of the customer's
 * list slots for good, since retention finds lists by their records. The directory and every list
 * record go in the first request (at most MAX_LISTS_PER_CUSTOMER + 1 writes, under
 * MAX_WRITES_PER_MUTATION), so a list written false beside a written directory was refused, never
 * of unknown outcome. Should this request fail, the directory keeps counting the list: a count too
 * high can only refuse a list early, never lose one.
 */
async function uncountUnmadeLists(
  caller: Caller,
  held: HeldLocks,
  lists: Map<string, ListWork>,
  listWrites: readonly ListWrite[],
  directoryWrite: DirectoryWrite | undefined,
  results: { lists: readonly boolean[]; directory: boolean },
): Promise<void> {
  if (!directoryWrite || !results.directory) return;
  const unmade = new Set(
    listWrites
      .filter((write, index) => !results.lists[index] && lists.get(write.context)!.record === "absent")
      .map((write) => write.context),
  );
  if (unmade.size === 0) return;
  await applyWrites(caller.admin, [], [], () => held.assertHeld(), {
    ...directoryWrite,
    lists: directoryWrite.lists.filter((context) => !unmade.has(context)),
  });
}

/** What the cached state says of an item, for the planner. */
function knowledgeOf(state: ListState, handle: string): Knowledge {
  const known = lookUpItem(state, handle);
  if (known === undefined) return { kind: "unknown" };
  return known === "inactive" ? { kind: "inactive" } : { kind: "known", item: known };
}

/**
 * Reads, in one request, the items and list indexes the planner needs; fills `knowledge` and the
 * lists' indexes, and says what each list's cache may learn from it.
 */
async function readMissing(
  caller: Caller,
  lists: Map<string, ListWork>,
  knowledge: Map<string, Knowledge>,
  directory: Directory,
): Promise<Map<ListWork, Record<string, KnownItem>>> {
  const itemHandles: string[] = [];
  const indexLists: ListWork[] = [];
  const orphans = new Map<ListWork, string[]>();
  for (const list of lists.values()) {
    const needed = readsNeeded(
      list.changes.map((entry) => entry.change),
      knowledge,
      list.index !== undefined,
    );
    itemHandles.push(...needed.items);
    // Marks left by a writer that died: this holder of the list's lock may settle them.
    const changed = new Set(list.changes.map((entry) => entry.change.handle));
    const left = pendingHandles(list.state).filter((handle) => !changed.has(handle));
    if (left.length > 0) orphans.set(list, left);
    itemHandles.push(...left);
    if (needed.index) indexLists.push(list);
    // Nothing to write means no index to keep.
    else {
      list.index ??= [];
      list.removed ??= {};
    }
  }
  const learned = new Map<ListWork, Record<string, KnownItem>>();
  if (itemHandles.length === 0 && indexLists.length === 0) return learned;
  const {
    items,
    lists: records,
    directory: counted,
  } = await readItemRecords(
    caller.admin,
    itemHandles,
    indexLists.map((list) => list.handle),
    indexLists.length > 0 ? listDirectoryHandle(caller.customerGid) : undefined,
  );
  if (indexLists.length > 0) directory.lists = counted;
  for (const list of lists.values()) {
    const read: Record<string, KnownItem> = {};
    for (const { change } of list.changes) {
      if (!items.has(change.handle)) continue;
      const record = items.get(change.handle);
      const item = record ? observedItem(record) : absentItem(change.item);
      read[change.handle] = item;
      knowledge.set(change.handle, { kind: "known", item });
    }
    for (const handle of orphans.get(list) ?? []) {
      const record = items.get(handle);
      if (record) read[handle] = observedItem(record);
      else list.gone.push(handle);
    }
    if (Object.keys(read).length > 0 || list.gone.length > 0) learned.set(list, read);
  }
  for (const list of indexLists) {
    const record = records.get(list.handle)!;
    list.index = await indexOf(caller, list, record);
    list.removed = record.removed ?? {};
    list.record = !record.exists
      ? "absent"
      : record.removed !== null || counted.includes(list.key.context)
        ? "counted"
        : "uncounted";
  }
  return learned;
}

/**
 * A list's index as the platform holds it; a list written before lists kept an index gets one from
 * search (which may lag behind writes of the last moments: the one time the index can miss one).
 */
async function indexOf(caller: Caller, list: ListWork, record: ListRecord): Promise<string[]> {
  return record.index ?? indexFromSearch(caller, list.handle);
}

/** The active items of a list that has no index, as search finds them (MAX_PAGES_TO_INDEX pages at most). */
export async function indexFromSearch(caller: Caller, handle: string): Promise<string[]> {
  const handles: string[] = [];
  let after: string | undefined;
  for (let page = 0; page < MAX_PAGES_TO_INDEX; page++) {
    const { items, hasNextPage } = await listActiveItems(caller.admin, handle, MAX_LIST_LIMIT, after);
    for (const item of items) if (item.status === "active") handles.push(itemHandle(caller.customerGid, item));
    if (!hasNextPage) break;
    after = items.at(-1)?.cursor;
  }
  return handles;
}

function toWrite(caller: Caller, change: PlannedChange, plan: Exclude<ItemPlan, { kind: "answer" }>): ItemWrite {
  if (plan.kind === "deactivate") return { kind: "deactivate", id: plan.id };
  return {
    kind: "activate",
    handle: plan.handle,
    fields: {
      [SAVE_ITEM_FIELDS.listKey]: listHandle(caller.customerGid, change.item.context),
      [SAVE_ITEM_FIELDS.customerId]: caller.customerGid,
      ...plan.fields,
    },
  };
}
