import { CoordinatorUnavailableError } from "~/infrastructure/coordination/coordinator.server";
import { readShopVersion } from "~/infrastructure/coordination/shop-version.server";
import { countCacheLookup } from "~/lib/metrics.server";
import { annotateRequest } from "~/lib/request-context.server";
import type { Caller } from "~/services/caller";
import { storefrontCompanion } from "./contexts";
import { itemHandle, listHandle } from "./handles.server";
import { decodeListCursor, encodeListCursor, type ListPosition } from "./list-cursor.server";
import {
  activeItems,
  currentState,
  isPending,
  lookUpItem,
  pendingHandles,
  withItems,
  withRemoved,
  type KnownItem,
  type ListState,
} from "./list-state";
import { getListStateReader, type ListKey } from "./list-state-store.server";
import { parseStoredJson } from "~/services/records/fields";
import {
  listActiveItems,
  readItemRecords,
  readLists,
  type ListRead,
  type SaveItemRecord,
} from "~/services/records/metaobject-store.server";
import { absentItem, observedItem } from "./observations";
import { withCards } from "./product-cards.server";
import { MAX_LIST_LIMIT, type IsSavedQuery, type ListItem, type ListQuery, type ListResult } from "./schemas";

/** How many pages of the platform's search a cursor position may be looked for in. */
const MAX_PAGES_TO_POSITION = 10;

function recordLookup(result: "hit" | "miss"): void {
  annotateRequest({ cache: result });
  countCacheLookup("list-state", result);
}

/** The cache only saves platform calls: when its shared store is unreachable, reads go to the platform. */
async function withoutCacheIfUnreachable<T>(work: () => Promise<T>, fallback: T): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof CoordinatorUnavailableError) return fallback;
    throw error;
  }
}

/** Fills the cache with what a read found, unless anything changed since the read looked at it. */
function installState(key: ListKey, token: string, next: ListState): Promise<unknown> {
  return withoutCacheIfUnreachable(() => getListStateReader().install(key, token, next), false);
}

/** A list's state as read from the cache, with the token of its version (none when the cache is unreachable). */
interface LoadedState {
  key: ListKey;
  state: ListState;
  token?: string;
}

async function loadState(caller: Caller, context: string): Promise<LoadedState> {
  const key = { shop: caller.shop, customerGid: caller.customerGid, context };
  const read = await withoutCacheIfUnreachable(() => getListStateReader().read(key), undefined);
  const state = currentState(read?.state, await readShopVersion(caller.shop), Date.now());
  return { key, state, ...(read ? { token: read.token } : {}) };
}

/**
 * is-saved: from the list's cached state when it knows the item (a hit costs the platform
 * nothing), else one strongly consistent read by handle, remembered for the next time.
 */
export async function isSaved(caller: Caller, input: IsSavedQuery): Promise<{ saved: boolean }> {
  const { key, state, token } = await loadState(caller, input.context);
  const handle = itemHandle(caller.customerGid, input);
  const known = lookUpItem(state, handle);
  recordLookup(known === undefined ? "miss" : "hit");
  if (known !== undefined) return { saved: known !== "inactive" && known.status === "active" };
  const { items } = await readItemRecords(caller.admin, [handle]);
  const record = items.get(handle);
  const observed = record ? observedItem(record) : absentItem(input);
  if (token !== undefined && !isPending(state.items[handle])) {
    await installState(key, token, withItems(state, { [handle]: observed }, { nowMs: Date.now() }));
  }
  return { saved: observed.status === "active" };
}

/**
 * list: lists of up to MAX_LIST_LIMIT active items are read whole from the platform once (the
 * list's index, current, and its items; on the storefront, its companion list's too) and then
 * served from their cached state; longer lists are paged through the platform's search. Items
 * whose write is under way are read by handle first.
 */
export async function listSaved(caller: Caller, input: ListQuery): Promise<ListResult> {
  const listKey = listHandle(caller.customerGid, input.context);
  const position = input.cursor === undefined ? undefined : decodeListCursor(input.cursor, listKey);
  const loaded = await loadState(caller, input.context);
  let state = loaded.state;
  recordLookup(state.complete ? "hit" : "miss");
  if (position?.kind === "platform") return platformPage(caller, input, position.cursor, state);
  if (!state.complete) {
    const filled = await fillStates(caller, [loaded, ...(await incompleteCompanion(caller, input))]);
    if (!filled) return longListPage(caller, input, position, state);
    state = filled;
  }
  const items = activeItems(await settledForReading(caller, state)).filter((item) => isAfter(item, position));
  const page = items.slice(0, input.limit);
  const last = page.at(-1);
  return {
    items: await withCards(caller, page.map(toListItem)),
    pageInfo: {
      hasNextPage: items.length > input.limit,
      endCursor: last ? encodeListCursor(listKey, { kind: "state", stampMs: last.stampMs, id: last.id! }) : null,
    },
  };
}

/**
 * The storefront's other list, when the page shows it too and its cached state is not complete and
 * can be installed: the read that fills this list fills it too, in the same request, so the
 * session's read of it is a hit. Its state is loaded, and its token taken, before the platform is
 * read, like the list's own.
 */
async function incompleteCompanion(caller: Caller, input: ListQuery): Promise<LoadedState[]> {
  const companion = storefrontCompanion(caller.channel, input.context, input.companion);
  if (companion === undefined) return [];
  const loaded = await loadState(caller, companion);
  return loaded.state.complete || loaded.token === undefined ? [] : [loaded];
}

/**
 * Completes the first list's state from the platform, and the others' (a companion) from the same
 * request, and installs each on its own token: a write that ended on any of them meanwhile wins
 * over what was read. The first list's completed state, or undefined when it is too long to cache.
 */
async function fillStates(caller: Caller, lists: [LoadedState, ...LoadedState[]]): Promise<ListState | undefined> {
  const reads = await readLists(
    caller.admin,
    lists.map(({ key }) => listHandle(caller.customerGid, key.context)),
    MAX_LIST_LIMIT,
  );
  const found = reads.map((read) => observedList(caller, read));
  const missing = found.flatMap((list) => list?.missing ?? []);
  if (missing.length > 0) {
    const { items } = await readItemRecords(caller.admin, missing);
    for (const { observed, missing: unread } of found.filter((list) => list !== undefined)) {
      for (const handle of unread) {
        const record = items.get(handle);
        if (record) observed[handle] = observedItem(record);
      }
    }
  }
  const filled = lists.map(({ state }, index) => {
    const observed = found[index]?.observed;
    // The list's removed items, read with its index, are as current as it: a write after this read needs no read.
    return (
      observed &&
      withRemoved(
        withItems(state, observed, { nowMs: Date.now(), complete: true }),
        reads[index]!.list.removed ?? undefined,
      )
    );
  });
  await Promise.all(
    lists.map(({ key, token }, index) => {
      const next = filled[index];
      return next && token !== undefined ? installState(key, token, next) : undefined;
    }),
  );
  return filled[0];
}

/**
 * What a list's read says of its items: the list's index (read by handle, so current) says which
 * items are active; search, in the same request, supplies their fields, and what the index names
 * that search has not caught up with is `missing`, to read by handle. Items search finds that the
 * index does not name are kept too (a list record whose write was refused). A list without an
 * index (written before lists kept one) is taken from search alone. Undefined when the list is too
 * long to cache.
 */
function observedList(
  caller: Caller,
  { list, items, hasNextPage }: ListRead,
): { observed: Record<string, KnownItem>; missing: string[] } | undefined {
  if (hasNextPage || (list.index ?? []).length > MAX_LIST_LIMIT) return undefined;
  const observed: Record<string, KnownItem> = {};
  for (const record of items) observed[itemHandle(caller.customerGid, record)] = observedItem(record);
  return { observed, missing: (list.index ?? []).filter((handle) => !(handle in observed)) };
}

/** The state with its pending items read by handle (strongly consistent), for this answer only. */
async function settledForReading(caller: Caller, state: ListState): Promise<ListState> {
  const pending = pendingHandles(state);
  if (pending.length === 0) return state;
  const { items } = await readItemRecords(caller.admin, pending);
  const observed: Record<string, KnownItem> = {};
  for (const handle of pending) {
    const record = items.get(handle);
    if (record) observed[handle] = observedItem(record);
  }
  const withoutMissing = { ...state, items: { ...state.items } };
  for (const handle of pending) if (!items.get(handle)) delete withoutMissing.items[handle];
  return withItems(withoutMissing, observed, { nowMs: Date.now(), settlesPending: true });
}

function isAfter(item: KnownItem, position: ListPosition | undefined): boolean {
  if (position?.kind !== "state") return true;
  return item.stampMs < position.stampMs || (item.stampMs === position.stampMs && (item.id ?? "") < position.id);
}

/**
 * A page of a list too long to cache whole, from the platform's search: items the cached state
 * knows to be removed since are left out (search lags behind writes).
 */
async function platformPage(caller: Caller, input: ListQuery, after: string, state: ListState): Promise<ListResult> {
  const page = await listActiveItems(caller.admin, listHandle(caller.customerGid, input.context), input.limit, after);
  return toPlatformResult(caller, input.context, page.items, page.hasNextPage, state);
}

/** The first page after `position` of a list that has grown past what is cached whole. */
async function longListPage(
  caller: Caller,
  input: ListQuery,
  position: ListPosition | undefined,
  state: ListState,
): Promise<ListResult> {
  const listKey = listHandle(caller.customerGid, input.context);
  let after: string | undefined;
  for (let pages = 0; pages < MAX_PAGES_TO_POSITION; pages++) {
    const page = await listActiveItems(caller.admin, listKey, MAX_LIST_LIMIT, after);
    const rest = page.items.filter((record) => isAfter(observedItem(record), position));
    if (rest.length > 0 || !page.hasNextPage) {
      const served = rest.slice(0, input.limit);
      return toPlatformResult(caller, input.context, served, rest.length > input.limit || page.hasNextPage, state);
    }
    after = page.items.at(-1)?.cursor;
  }
  return { items: [], pageInfo: { hasNextPage: false, endCursor: null } };
}

async function toPlatformResult(
  caller: Caller,
  context: string,
  records: (SaveItemRecord & { cursor: string })[],
  hasNextPage: boolean,
  state: ListState,
): Promise<ListResult> {
  const listKey = listHandle(caller.customerGid, context);
  const last = records.at(-1);
  const items = records.map(observedItem).filter((item) => {
    const cached = lookUpItem(state, itemHandle(caller.customerGid, { ...item, context }));
    return (
      item.status === "active" &&
      !(cached && cached !== "inactive" && cached.status === "removed" && cached.stampMs > item.stampMs)
    );
  });
  return {
    items: await withCards(caller, items.map(toListItem)),
    pageInfo: {
      hasNextPage,
      endCursor: last ? encodeListCursor(listKey, { kind: "platform", cursor: last.cursor }) : null,
    },
  };
}

function toListItem(item: KnownItem): ListItem {
  const snapshot = parseStoredJson(item.snapshot);
  return {
    id: item.id!,
    entityType: item.entityType,
    entityGid: item.entityGid,
    status: item.status,
    ...(item.savedAt ? { savedAt: item.savedAt } : {}),
    ...(snapshot === undefined ? {} : { snapshot }),
  };
}
