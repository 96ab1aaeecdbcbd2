import type { EntityType, ItemState } from "./schemas";

/** What is known of one save_item of a customer's list. */
export interface KnownItem {
  /** The metaobject's GID; null when the item is known not to exist. */
  id: string | null;
  status: ItemState;
  entityType: EntityType;
  entityGid: string;
  savedAt: string | null;
  snapshot: string | null;
  /** When the state was written (platform updatedAt, or the write's time): newer replaces older. */
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
 * without the platform and a shopper's own writes show at once although the platform's search
 * lags behind its writes.
 */
export interface ListState {
  /** The shop version the state was filled under; another version makes it stale. */
  shopVersion: number;
  /** Every active item of the list is among `items`. */
  complete: boolean;
  /** Whether the save_list record exists; undefined when unknown. */
  listExists?: boolean;
  items: Record<string, CachedItem>;
  expiresAtMs: number;
}

/** How long a list state is trusted after it was last filled from the platform or written. */
export const LIST_STATE_TTL_MS = 5 * 60_000;
/**
 * A pending mark older than this belongs to a writer that died: its lock expired long ago, so a
 * reader may settle it from the platform. Younger marks are left to their writer.
 */
export const PENDING_SETTLE_AFTER_MS = 30_000;

export const isPending = (item: CachedItem | undefined): item is PendingItem => Boolean(item && "pending" in item);

/** The state to build on: the cached one while it is current, else an empty one. */
export function currentState(state: ListState | undefined, shopVersion: number, nowMs: number): ListState {
  if (state && state.shopVersion === shopVersion && state.expiresAtMs > nowMs) return state;
  return { shopVersion, complete: false, items: {}, expiresAtMs: nowMs + LIST_STATE_TTL_MS };
}

/**
 * What the state says of one item: its known state, "absent" when the item is known not to be
 * active (a complete state without it), or undefined when the platform must be asked.
 */
export function lookUpItem(state: ListState, handle: string): KnownItem | "absent" | undefined {
  const item = state.items[handle];
  if (isPending(item)) return undefined;
  if (item) return item;
  return state.complete ? "absent" : undefined;
}

/**
 * Folds observed items into the state: an item replaces what is cached unless the cached state is
 * newer, and a pending mark is replaced only by its writer (`settlesPending`) or once it is old
 * enough to have been abandoned. Observations from the platform's search may lag behind writes,
 * which the stamps take care of.
 */
export function withObservedItems(
  state: ListState,
  observed: Record<string, KnownItem>,
  options: { nowMs: number; settlesPending?: boolean; complete?: boolean; listExists?: boolean },
): ListState {
  const items = { ...state.items };
  for (const [handle, item] of Object.entries(observed)) {
    const cached = items[handle];
    if (isPending(cached)) {
      if (options.settlesPending || options.nowMs - cached.sinceMs > PENDING_SETTLE_AFTER_MS) items[handle] = item;
    } else if (!cached || cached.stampMs <= item.stampMs) {
      items[handle] = item;
    }
  }
  return {
    ...state,
    items,
    complete: state.complete || Boolean(options.complete),
    listExists: options.listExists ?? state.listExists,
    expiresAtMs: options.nowMs + LIST_STATE_TTL_MS,
  };
}

/** Marks items as being written: their state is unknown until the writer settles it. */
export function withPendingItems(state: ListState, handles: readonly string[], nowMs: number): ListState {
  const items = { ...state.items };
  for (const handle of handles) items[handle] = { pending: true, sinceMs: nowMs };
  return { ...state, items };
}

/** The list's active items, newest save first (the platform's updated_at order). */
export function activeItems(state: ListState): KnownItem[] {
  return Object.values(state.items)
    .filter((item): item is KnownItem => !isPending(item) && item.status === "active")
    .sort((a, b) => b.stampMs - a.stampMs || (b.id ?? "").localeCompare(a.id ?? ""));
}

export function pendingHandles(state: ListState): string[] {
  return Object.entries(state.items)
    .filter(([, item]) => isPending(item))
    .map(([handle]) => handle);
}
