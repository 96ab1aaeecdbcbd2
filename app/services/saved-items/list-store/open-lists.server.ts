import type { AdminGraphqlClient } from "~/platform/admin-graphql.server";
import { listActiveItems, readItemRecords, type ListRecord } from "~/services/records/metaobject-store.server";
import type { RemovedItems } from "~/services/records/stored-values";
import { itemHandle, listDirectoryHandle } from "../handles.server";
import { activeHandles, pendingHandles, type KnownItem, type ListState } from "../list-state";
import { absentItem, observedItem } from "../observations";
import { MAX_LIST_LIMIT, type ItemIdentity } from "../schemas";
import { cachedState, listHandleOf, type ListSession } from "./session.server";

/** How many pages of search build the index of a list that has none (written before lists kept one). */
const MAX_PAGES_TO_INDEX = 10;

/**
 * Whether the list's record exists and the customer's directory counts it. `uncounted` and
 * `absent` are known only from a read of the record, which reads the directory with it.
 */
export type RecordStatus =
  { kind: "counted" } | { kind: "uncounted" | "absent"; directory: readonly string[] } | { kind: "unknown" };

/** One list as a writer opened it, under its lock: all of it current, nothing filled later. */
export interface OpenedList {
  context: string;
  handle: string;
  /** The cached state when opened. */
  state: ListState;
  /** Its index: the active items of an exact state, or as read; empty when neither (then nothing writes it). */
  index: readonly string[];
  /** Its removed items still stored, known with the index. */
  removed: RemovedItems;
  record: RecordStatus;
  /** What the reads found of its items (a changed item that does not exist too), for the cache to learn. */
  learned: Readonly<Record<string, KnownItem>>;
  /** Pending items left by a writer that died, found not to exist: their marks go. */
  gone: readonly string[];
}

/** What a writer asks of one list: the items it changes, and what it must read given the cached state. */
export interface ListRequest {
  context: string;
  items: ReadonlyMap<string, ItemIdentity>;
  needs(state: ListState, indexKnown: boolean): { items: readonly string[]; index: boolean };
}

interface Cached {
  request: ListRequest;
  state: ListState;
  /** The index and removed items of a state that is exact (complete, nothing pending, removed known). */
  exact: { index: string[]; removed: RemovedItems } | undefined;
  /** The items to read: the writer's, and marks a writer that died left. */
  items: readonly string[];
  orphans: readonly string[];
  readIndex: boolean;
}

/**
 * Opens the session's lists: each one's cached state, then, in one request by handle, the items
 * and list records the writer needs and the cache cannot say, with the marks a writer that died
 * left (this holder of the list's lock may settle them).
 */
export async function openLists(session: ListSession, requests: readonly ListRequest[]): Promise<OpenedList[]> {
  const cached: Cached[] = [];
  for (const request of requests) {
    const state = await cachedState(session, request.context);
    const exact =
      state.complete && pendingHandles(state).length === 0 && state.removed !== undefined
        ? { index: activeHandles(state), removed: state.removed }
        : undefined;
    const needs = request.needs(state, exact !== undefined);
    const orphans = pendingHandles(state).filter((handle) => !request.items.has(handle));
    cached.push({ request, state, exact, items: needs.items, orphans, readIndex: needs.index });
  }
  const itemHandles = cached.flatMap((list) => [...list.items, ...list.orphans]);
  const indexLists = cached.filter((list) => list.readIndex);
  if (itemHandles.length === 0 && indexLists.length === 0) {
    return cached.map((list) => openedFromCache(session, list, {}, []));
  }
  const { owner } = session;
  const read = await readItemRecords(
    owner.admin,
    itemHandles,
    indexLists.map((list) => listHandleOf(session, list.request.context)),
    indexLists.length > 0 ? listDirectoryHandle(owner.customerGid) : undefined,
  );
  const opened: OpenedList[] = [];
  for (const list of cached) opened.push(await openedFromRead(session, list, read));
  return opened;
}

/** A list as the read found it; its record, when read, decides its index and removed items. */
async function openedFromRead(
  session: ListSession,
  list: Cached,
  read: Awaited<ReturnType<typeof readItemRecords>>,
): Promise<OpenedList> {
  const learned: Record<string, KnownItem> = {};
  const gone: string[] = [];
  for (const handle of list.items) {
    const record = read.items.get(handle);
    const identity = list.request.items.get(handle);
    if (record) learned[handle] = observedItem(record);
    else if (identity) learned[handle] = absentItem(identity);
  }
  for (const handle of list.orphans) {
    const record = read.items.get(handle);
    if (record) learned[handle] = observedItem(record);
    else gone.push(handle);
  }
  const handle = listHandleOf(session, list.request.context);
  const record = read.lists.get(handle);
  if (!record) return openedFromCache(session, list, learned, gone);
  return {
    context: list.request.context,
    handle,
    state: list.state,
    index: await indexOf(session.owner, handle, record),
    removed: record.removed ?? {},
    record: recordStatus(list.request.context, record, read.directory),
    learned,
    gone,
  };
}

function openedFromCache(
  session: ListSession,
  { request, state, exact }: Pick<Cached, "request" | "state" | "exact">,
  learned: Record<string, KnownItem>,
  gone: string[],
): OpenedList {
  return {
    context: request.context,
    handle: listHandleOf(session, request.context),
    state,
    index: exact?.index ?? [],
    removed: exact?.removed ?? {},
    record: exact ? { kind: "counted" } : { kind: "unknown" },
    learned,
    gone,
  };
}

function recordStatus(context: string, record: ListRecord, directory: readonly string[]): RecordStatus {
  if (!record.exists) return { kind: "absent", directory };
  if (record.removed !== null || directory.includes(context)) return { kind: "counted" };
  return { kind: "uncounted", directory };
}

/**
 * A list's index as the platform holds it; a list written before lists kept an index gets one from
 * search (which may lag behind writes of the last moments: the one time the index can miss one).
 */
async function indexOf(owner: ListSession["owner"], handle: string, record: ListRecord): Promise<string[]> {
  return record.index ?? indexFromSearch(owner, handle);
}

/** The active items of a list that has no index, as search finds them (MAX_PAGES_TO_INDEX pages at most). */
export async function indexFromSearch(
  owner: { admin: AdminGraphqlClient; customerGid: string },
  handle: string,
): Promise<string[]> {
  const handles: string[] = [];
  let after: string | undefined;
  for (let page = 0; page < MAX_PAGES_TO_INDEX; page++) {
    const { items, hasNextPage } = await listActiveItems(owner.admin, handle, MAX_LIST_LIMIT, after);
    for (const item of items) if (item.status === "active") handles.push(itemHandle(owner.customerGid, item));
    if (!hasNextPage) break;
    after = items.at(-1)?.cursor;
  }
  return handles;
}
