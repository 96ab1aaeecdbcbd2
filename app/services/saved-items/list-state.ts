import type { EntityType, ItemState, RemovedItems } from "~/services/records/stored-values";

/** What is known of one save_item of a customer's list. */
export interface KnownItem {
  /** The metaobject's GID; null when the item is known not to exist. */
  id: string | null;
  status: ItemState;
  entityType: EntityType;
  entityGid: string;
  savedAt: string | null;
  snapshot: string | null;
  /** The platform's updatedAt of the state described (0 for an item that does not exist): list order. */
  stampMs: number;
}

/** A write is under way (or its writer died): the item's state is unknown until it is read again. */
export interface PendingItem {
  pending: true;
  sinceMs: number;
}

export type CachedItem = KnownItem | PendingItem;

/**
 * The cached state of one customer's list (one list context): the items known by handle, and
 * whether they include every active item of the list, so is-saved and list can be answered
 * without the platform.
 *
 * Why it is never wrong (docs/decisions/0005-consistent-list-state.md): only a holder of the
 * list's lock changes the list on the platform, and it marks the items it writes pending before
 * the write and settles them after, under that lock. Anything else that fills the state (a read
 * that missed) installs what it read only if the state has not changed since it looked at it
 * (a version compared where the state is stored), never over a pending mark.
 */
export interface ListState {
  /** The shop version the state was filled under; another version makes it stale. */
  shopVersion: number;
  /** Every active item of the list is among `items` (filled from the list's index, or kept so by its writers). */
  complete: boolean;
  items: Record<string, CachedItem>;
  expiresAtMs: number;
  /** The lock fence of the list's last writer: a writer whose lock lapsed meanwhile holds a smaller one. */
  fence?: number;
  /**
   * The list's removed items still stored, as the holder of its lock last wrote or read them; only
   * set while the list's record exists and the customer's directory counts it, so a writer that
   * finds it needs to read neither (docs/decisions/0017-bounded-storage.md).
   */
  removed?: RemovedItems;
}

/** How long a list state is trusted after it was last filled from the platform or written. */
export const LIST_STATE_TTL_MS = 5 * 60_000;

export const isPending = (item: CachedItem | undefined): item is PendingItem => Boolean(item && "pending" in item);

/** The state to build on: the cached one while it is current, else an empty one. */
export function currentState(state: ListState | undefined, shopVersion: number, nowMs: number): ListState {
  if (state && state.shopVersion === shopVersion && state.expiresAtMs > nowMs) return state;
  return { shopVersion, complete: false, items: {}, expiresAtMs: nowMs + LIST_STATE_TTL_MS };
}

/**
 * What the state says of one item: its known state; "inactive" when the state is complete and
 * does not hold it (not active, but whether it exists as removed is not known); undefined when the
 * platform must be asked (not known, or a write on it is under way).
 */
export function lookUpItem(state: ListState, handle: string): KnownItem | "inactive" | undefined {
  const item = state.items[handle];
  if (isPending(item)) return undefined;
  if (item) return item;
  return state.complete ? "inactive" : undefined;
}

/**
 * The state with observed items in it. Pending marks stay unless `settlesPending` (only the
 * holder of the list's lock settles them); `complete` sets the flag.
 */
export function withItems(
  state: ListState,
  observed: Record<string, KnownItem>,
  options: { nowMs: number; settlesPending?: boolean; complete?: boolean },
): ListState {
  const items = { ...state.items };
  for (const [handle, item] of Object.entries(observed)) {
    if (!isPending(items[handle]) || options.settlesPending) items[handle] = item;
  }
  return {
    ...state,
    items,
    complete: options.complete ?? state.complete,
    expiresAtMs: options.nowMs + LIST_STATE_TTL_MS,
  };
}

/** Marks items as being written: their state is unknown until the writer settles it. */
export function withPendingItems(state: ListState, handles: readonly string[], nowMs: number): ListState {
  const items = { ...state.items };
  for (const handle of handles) items[handle] = { pending: true, sinceMs: nowMs };
  return { ...state, items, expiresAtMs: nowMs + LIST_STATE_TTL_MS };
}

/** The state with the list's removed items as now stored, or without them (unknown) when undefined. */
export function withRemoved(state: ListState, removed: RemovedItems | undefined): ListState {
  const { removed: _previous, ...rest } = state;
  return removed === undefined ? rest : { ...rest, removed };
}

/** Forgets what the state says of items (a write on them ended without a known outcome). */
export function withoutItems(state: ListState, handles: readonly string[]): ListState {
  const items = { ...state.items };
  for (const handle of handles) delete items[handle];
  return { ...state, items };
}

/**
 * A writer's change of the state, refused (the state is left as it is) when a writer with a newer
 * fence changed it since: the writer's lock lapsed and what it knows may be older.
 */
export function fencedChange(
  fence: number,
  change: (current: ListState | undefined) => ListState,
): (current: ListState | undefined) => ListState | undefined {
  return (current) => ((current?.fence ?? -Infinity) > fence ? current : { ...change(current), fence });
}

/** The list's active items by handle, newest save first (the platform's updated_at order). */
function activeEntries(state: ListState): [string, KnownItem][] {
  return Object.entries(state.items)
    .filter((entry): entry is [string, KnownItem] => !isPending(entry[1]) && entry[1].status === "active")
    .sort(([, a], [, b]) => b.stampMs - a.stampMs || (b.id ?? "").localeCompare(a.id ?? ""));
}

export const activeItems = (state: ListState): KnownItem[] => activeEntries(state).map(([, item]) => item);

/** The handles of the list's active items, newest save first: the list's index when the state is complete. */
export const activeHandles = (state: ListState): string[] => activeEntries(state).map(([handle]) => handle);

export function pendingHandles(state: ListState): string[] {
  return Object.entries(state.items)
    .filter(([, item]) => isPending(item))
    .map(([handle]) => handle);
}
