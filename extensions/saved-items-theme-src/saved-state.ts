import type { BlockConfig } from "./block-config";
import { listen, readStored, writeStored } from "./dom";
import { GUEST_KEY, guestRows, guestSavedMap } from "./guest-saves";
import { PRODUCT_GID, type ShopperItem } from "./shopper-item";

/** entityGid → the product handle saved with it ("" when none): all that buttons and hearts need. */
export type SavedMap = Record<string, string>;
/**
 * entityGid → the item with its snapshot, kept only for a list whose block shows rows from the
 * stored state (the cart's saved-for-later list): a wishlist's state stays small.
 */
export type SavedRows = Record<string, ShopperItem>;

/**
 * A customer's saved state, kept in localStorage so that a session reads the list once, not once
 * per page: it is re-read from the server when older than this. Ten minutes bounds how long a save
 * made on another device (or in the admin) can go unseen here; this page's own writes, and those
 * of other tabs, show at once.
 */
const STATE_TTL_MS = 10 * 60 * 1000;

/** One key per shop: {customer, lists: {context: {readAt, items}}, shown, paused}. */
interface StoredState {
  customer: string;
  lists: Record<string, { readAt: number; items: SavedMap; rows?: SavedRows } | undefined>;
  /** Per context, the rows the Saved items block last read: what it shows while saving is paused. */
  shown?: Record<string, ShopperItem[] | undefined>;
  /** Set while saving is paused (see setPaused). */
  paused?: string;
}

const lists: Record<string, SavedMap> = {};
const rows: Record<string, SavedRows | undefined> = {};
/** Per context, what this page changed since its server read began: laid over that read's answer. */
const changedSinceRead: Record<string, Record<string, string | undefined>> = {};
const renderers: (() => void)[] = [];
/** The page's shop's key in localStorage, and its customer ("" for a guest); set by startSession. */
let stateKey = "";
let sessionCustomer = "";
/** The reset time while saving is paused, "" when the service gave none; undefined while it serves. */
let paused: string | undefined;

const list = (context: string) => (lists[context] ||= {});
const notify = () => renderers.forEach((render) => render());

/** Renders now and after every change of the saved state. */
export function subscribe(render: () => void): void {
  renderers.push(render);
  render();
}

/** The handle saved with the item, undefined when it is not saved. */
export const savedValue = (context: string, gid: string): string | undefined => list(context)[gid];

/** The saved items of a list kept with rows, in the order they were saved here or read. */
export const savedRows = (context: string): ShopperItem[] => Object.values(rows[context] || {});

/** The saved product of this handle, for a card known by its link only: a saved variant of it is not the product. */
export const savedProductOf = (context: string, handle: string): string | undefined =>
  Object.keys(list(context)).find((gid) => gid.startsWith(PRODUCT_GID) && list(context)[gid] === handle);

/**
 * The page's shopper (every block of a page has the same). Whatever is stored for another customer
 * of this shop, or for a customer on a guest's page, is dropped at once: after a logout, or a login
 * as someone else, nothing of the previous customer's state is shown or kept.
 */
export function startSession({ shop, customer }: BlockConfig): void {
  if (stateKey) return;
  stateKey = `saved-items:state:${shop}`;
  sessionCustomer = customer;
  const stored = readStored<StoredState>(stateKey);
  if (stored && stored.customer !== customer) writeStored(stateKey, undefined);
  else paused = stored && stored.paused;
  listen(window, "storage", (event) => {
    // Another tab wrote: take its state for every list this page shows.
    if ((event as StorageEvent).key !== (customer ? stateKey : GUEST_KEY)) return;
    for (const context in lists) {
      const stored = customer ? storedList(context) : { items: guestSavedMap(context), rows: guestRows(context) };
      if (stored) replaceList(context, stored.items, stored.rows);
    }
  });
}

function storedState(): StoredState | undefined {
  const stored = readStored<StoredState>(stateKey);
  return stored && stored.customer === sessionCustomer ? stored : undefined;
}

/** The stored list of a context for this customer; `fresh` while younger than STATE_TTL_MS. */
export function storedList(context: string): { items: SavedMap; rows?: SavedRows; fresh: boolean } | undefined {
  const state = storedState();
  const stored = state && state.lists[context];
  if (!stored) return undefined;
  const age = Date.now() - stored.readAt;
  return { items: stored.items, rows: stored.rows, fresh: age >= 0 && age < STATE_TTL_MS };
}

function updateStored(change: (stored: StoredState) => void): void {
  const customer = sessionCustomer;
  // A guest's state is the guest saves; nothing else is kept for a guest.
  if (!customer) return;
  const stored = storedState() || { customer, lists: {} };
  change(stored);
  writeStored(stateKey, stored);
}

export const pausedUntil = (): string | undefined => paused;

/**
 * Pauses saving (the shop's monthly budget, or this customer's share of it, is spent) until
 * `until`, the reset time ("" when unknown), or resumes it (undefined). Kept with the customer's
 * state, so that the next page shows the pause before its own read answers.
 */
export function setPaused(until: string | undefined): void {
  if (until === paused) return;
  paused = until;
  updateStored((stored) => (stored.paused = until));
  notify();
}

/** The rows the Saved items block last read of a context, for this customer. */
export const shownRows = (context: string): ShopperItem[] => {
  const state = storedState();
  return (state && state.shown && state.shown[context]) || [];
};

/** Keeps a page the Saved items block read: the first replaces what was kept, a further one adds to it. */
export function keepShown(context: string, items: ShopperItem[], further: boolean): void {
  updateStored((stored) => {
    const shown = (stored.shown ||= {});
    shown[context] = ((further && shown[context]) || []).concat(items);
  });
}

export function replaceList(context: string, items: SavedMap, listRows?: SavedRows): void {
  lists[context] = items;
  rows[context] = listRows;
  notify();
}

/** Starts a server read of a context: changes from now on are kept to lay over its answer. */
export function beginRead(context: string): void {
  changedSinceRead[context] = {};
}

/** The answer of a full server read, with this page's changes since it began laid over it. */
export function completeRead(context: string, items: SavedMap, readAt: number, listRows?: SavedRows): void {
  const changes = changedSinceRead[context] || {};
  for (const gid in changes) {
    setEntry(items, gid, changes[gid]);
    if (listRows) setEntry(listRows, gid, changes[gid] === undefined ? undefined : savedRowsOf(context)[gid]);
  }
  updateStored((stored) => (stored.lists[context] = { readAt, items, rows: listRows }));
  replaceList(context, items, listRows);
}

const savedRowsOf = (context: string): SavedRows => rows[context] || {};

/**
 * Saves (value = handle) or unsaves (undefined) an item in this page's state. `confirmed` when the
 * server has answered: then the stored state, and so the other tabs, learn it too. `item` is the
 * saved item, for a list kept with rows.
 */
export function setSaved(
  context: string,
  gid: string,
  value: string | undefined,
  confirmed?: boolean,
  item?: ShopperItem,
): void {
  const row = value === undefined ? undefined : item || savedRowsOf(context)[gid];
  setEntry(list(context), gid, value);
  const listRows = rows[context];
  if (listRows) setEntry(listRows, gid, row);
  (changedSinceRead[context] ||= {})[gid] = value;
  if (confirmed) {
    updateStored((stored) => {
      const kept = stored.lists[context];
      if (kept) setEntry(kept.items, gid, value);
      if (kept && kept.rows) setEntry(kept.rows, gid, row);
      // A save goes first, as the list is read (newest first); a remove leaves.
      const shown = stored.shown && stored.shown[context];
      if (shown) stored.shown![context] = (row ? [row] : []).concat(shown.filter((other) => other.entityGid !== gid));
    });
  }
  notify();
}

function setEntry<T>(items: Record<string, T>, gid: string, value: T | undefined): void {
  if (value === undefined) delete items[gid];
  else items[gid] = value;
}
