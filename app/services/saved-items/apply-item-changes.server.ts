import { clock } from "~/lib/clock";
import { LockUnavailableError, type HeldLocks } from "~/lib/coordination/coordinator.server";
import { getCoordinator } from "~/lib/coordination/shared-coordinator.server";
import { readShopVersion } from "~/lib/coordination/shop-version.server";
import { asServiceError } from "~/lib/envelope";
import { ServiceError } from "~/lib/errors";
import { annotateRequest } from "~/lib/request-context.server";
import { storageFullError } from "~/platform/metaobject-cap.server";
import type { Caller } from "./caller";
import { itemHandle, listHandle } from "./handles.server";
import {
  indexAfterRefusals,
  planChanges,
  readsNeeded,
  type ChangeOutcome,
  type ItemPlan,
  type Knowledge,
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
  type KnownItem,
  type ListState,
} from "./list-state";
import { getListStateStore, type ListKey } from "./list-state-store.server";
import {
  applyWrites,
  listActiveItems,
  readItemRecords,
  SAVE_ITEM_TYPE,
  type ItemWrite,
  type ListRecord,
  type ListWrite,
  type SaveItemRecord,
} from "./metaobject-store.server";
import { absentItem, observedItem } from "./observations";
import { MAX_LIST_LIMIT, type ItemIdentity } from "./schemas";
import type { ItemAction } from "./transitions";

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
 * Applies save/remove/toggle changes for one customer. The lock of every list touched is held for
 * the whole read-decide-write, across instances, so the list's writers take turns and each decides
 * from what the one before left: the cached state where it is exact, otherwise one read by handle.
 * The decisions are item-planner.ts's; all writes (the list's index first) go in one mutation
 * request. Written items are pending in the cache until the platform's answer settles them, so a
 * writer that dies leaves them unknown (read again), never wrong.
 */
export async function applyItemChanges(caller: Caller, changes: ItemChange[]): Promise<ChangeOutcome[]> {
  const contexts = [...new Set(changes.map((change) => change.item.context))];
  return withWriteLocks(
    contexts.map((context) => listLockKey(caller, context)),
    (held) => applyLocked(caller, changes, contexts, held, {}),
  );
}

/** The lock every writer of one of a customer's lists holds, item writes and list operations alike. */
export function listLockKey(caller: Caller, context: string): string {
  return `list:${caller.shop}/${listHandle(caller.customerGid, context)}`;
}

/** Runs `work` holding the locks (across instances); locks that cannot be had are a retryable INTERNAL_ERROR. */
export async function withWriteLocks<T>(keys: string[], work: (held: HeldLocks) => Promise<T>): Promise<T> {
  try {
    return await getCoordinator().withLocks(keys, work);
  } catch (error) {
    if (error instanceof LockUnavailableError) {
      throw new ServiceError(
        "INTERNAL_ERROR",
        "The list is busy or the service cannot coordinate right now; retry shortly",
        {
          cause: error,
        },
      );
    }
    throw error;
  }
}

interface ListWork {
  key: ListKey;
  handle: string;
  state: ListState;
  /** The list's index when known: the active items of a complete state, or as read. */
  index: string[] | undefined;
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

/** applyItemChanges for a caller that already holds the lock of every list the changes touch. */
export function applyItemChangesLocked(
  caller: Caller,
  changes: ItemChange[],
  held: HeldLocks,
  options: LockedApplyOptions,
): Promise<ChangeOutcome[]> {
  return applyLocked(caller, changes, [...new Set(changes.map((change) => change.item.context))], held, options);
}

async function applyLocked(
  caller: Caller,
  changes: ItemChange[],
  contexts: string[],
  held: HeldLocks,
  options: LockedApplyOptions,
): Promise<ChangeOutcome[]> {
  const store = getListStateStore();
  const shopVersion = await readShopVersion(caller.shop);
  const startMs = Date.now();
  const lists = new Map<string, ListWork>();
  for (const context of contexts) {
    const key = { shop: caller.shop, customerGid: caller.customerGid, context };
    const state = currentState((await store.read(key)).state, shopVersion, startMs);
    const exact = state.complete && pendingHandles(state).length === 0;
    lists.set(context, {
      key,
      handle: listHandle(caller.customerGid, context),
      state,
      index: options.keepIndex ? [] : exact ? activeHandles(state) : undefined,
      changes: [],
      gone: [],
    });
  }
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
  const learned = await readMissing(caller, lists, knowledge);

  const savedAt = isoSeconds(clock.now());
  const outcomes: ChangeOutcome[] = [];
  const listWrites: ListWrite[] = [];
  const writes: { write: ItemWrite; list: ListWork; handle: string; position: number }[] = [];
  for (const [context, list] of lists) {
    const plan = planChanges(
      list.changes.map((entry) => entry.change),
      knowledge,
      list.index!,
      savedAt,
    );
    plan.plans.forEach((itemPlan, planIndex) => {
      const { position, change } = list.changes[planIndex]!;
      if (itemPlan.kind === "answer") outcomes[position] = itemPlan.outcome;
      else writes.push({ write: toWrite(caller, change, itemPlan), list, handle: change.handle, position });
    });
    if (plan.index && !options.keepIndex)
      listWrites.push({ handle: list.handle, customerGid: caller.customerGid, context, index: plan.index });
  }

  // What was read is current (the locks are held): the cache learns it, and the items about to be
  // written become pending before anything is sent.
  for (const list of lists.values()) {
    const written = writes.filter((entry) => entry.list === list).map((entry) => entry.handle);
    const read = learned.get(list);
    if (written.length === 0 && !read) continue;
    await store.update(
      list.key,
      fencedChange(held.fence, (current) =>
        withPendingItems(
          withoutItems(
            withItems(currentState(current, shopVersion, startMs), read ?? {}, {
              nowMs: Date.now(),
              settlesPending: true,
            }),
            list.gone,
          ),
          written,
          Date.now(),
        ),
      ),
    );
  }
  annotateRequest({ cache: learned.size > 0 ? "miss" : "hit" });
  if (writes.length === 0) return outcomes;

  const results = await applyWrites(
    caller.admin,
    listWrites,
    writes.map((entry) => entry.write),
    // A lock that lapsed (a pause longer than its lease) may be someone else's by now: do not send.
    () => held.assertHeld(),
  );
  const settled = new Map<ListWork, { known: Record<string, KnownItem>; forgotten: string[] }>();
  const refused = new Map<ListWork, Set<string>>();
  writes.forEach(({ list, handle, position }, writeIndex) => {
    const result = results.items[writeIndex]!;
    const entry = settled.get(list) ?? { known: {}, forgotten: [] };
    settled.set(list, entry);
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
  await rewriteIndexes(caller, held, lists, listWrites, refused);
  // A holder whose lock lapsed while it wrote (a pause longer than the lease) leaves the cache to the
  // holder after it, which settles its pending marks from the platform.
  if (
    !(await held.assertHeld().then(
      () => true,
      () => false,
    ))
  )
    return outcomes;
  for (const [list, { known, forgotten }] of settled) {
    await store.update(
      list.key,
      fencedChange(held.fence, (current) =>
        withoutItems(
          withItems(currentState(current, shopVersion, startMs), known, { nowMs: Date.now(), settlesPending: true }),
          forgotten,
        ),
      ),
    );
  }
  return outcomes;
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
    return handles ? [{ ...write, index: indexAfterRefusals(list.index!, write.index, handles) }] : [];
  });
  if (rewrites.length > 0) await applyWrites(caller.admin, rewrites, [], () => held.assertHeld());
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
    else list.index ??= [];
  }
  const learned = new Map<ListWork, Record<string, KnownItem>>();
  if (itemHandles.length === 0 && indexLists.length === 0) return learned;
  const { items, lists: records } = await readItemRecords(
    caller.admin,
    itemHandles,
    indexLists.map((list) => list.handle),
  );
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
  for (const list of indexLists) list.index = await indexOf(caller, list, records.get(list.handle)!);
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
      list_key: listHandle(caller.customerGid, change.item.context),
      customer_id: caller.customerGid,
      ...plan.fields,
    },
  };
}
