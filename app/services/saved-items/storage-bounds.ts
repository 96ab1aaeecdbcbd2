import { ServiceError } from "~/lib/errors";
import { PLANS } from "~/services/plans";
import type { RemovedItems } from "~/services/records/stored-values";
import { DEFAULT_LIST_CONTEXT, SAVE_FOR_LATER_CONTEXT } from "./contexts";

/**
 * Per-customer bounds on what the app stores on the platform, and retention's decisions, as pure
 * functions (docs/decisions/0017-bounded-storage.md). Each metaobject definition holds at most
 * 1,000,000 entries per shop (shopify.dev, "Metaobject limits"); these bounds keep one customer to a
 * known share of that, and are counted where the state is written, under the locks its writers hold.
 */

/**
 * Lists one customer may have stored, deleted and emptied ones included until retention deletes
 * them: the largest plan's named lists and the storefront's two default lists.
 */
export const MAX_LISTS_PER_CUSTOMER =
  Math.max(...Object.values(PLANS).map((plan) => plan.maxNamedLists)) +
  [DEFAULT_LIST_CONTEXT, SAVE_FOR_LATER_CONTEXT].length;

/** Save_items one customer may have stored: active ones and removed ones retention has not deleted yet. */
export const MAX_STORED_ITEMS_PER_CUSTOMER = 5_000;

/**
 * Save_items one list may hold, active and removed-but-stored: counted exactly under the list's
 * lock alone, and with MAX_LISTS_PER_CUSTOMER no customer passes MAX_STORED_ITEMS_PER_CUSTOMER.
 */
export const MAX_STORED_ITEMS_PER_LIST = Math.floor(MAX_STORED_ITEMS_PER_CUSTOMER / MAX_LISTS_PER_CUSTOMER);

/** The retention window in words, for messages: "30 days", "2 minutes". */
export function describeWindow(windowMs: number): string {
  const units = [
    ["day", 86_400_000],
    ["hour", 3_600_000],
    ["minute", 60_000],
  ] as const;
  const [unit, ms] = units.find(([, size]) => windowMs % size === 0) ?? ["second", 1000];
  const count = Math.round(windowMs / ms);
  return `${count} ${unit}${count === 1 ? "" : "s"}`;
}

/**
 * A save that would pass MAX_STORED_ITEMS_PER_LIST. PLAN_LIMIT_REACHED (402), like the plan's
 * other caps: the request is valid, and the customer's own removals and retention make room.
 */
export function listFullError(windowMs: number): ServiceError {
  const window = describeWindow(windowMs);
  return new ServiceError(
    "PLAN_LIMIT_REACHED",
    `A list holds at most ${MAX_STORED_ITEMS_PER_LIST} saved items, counting items removed in the last ${window}; ` +
      `remove items or delete the list, then save again once removed items stop counting (${window} after their removal)`,
  );
}

/** Making one more list for a customer who has MAX_LISTS_PER_CUSTOMER (PLAN_LIMIT_REACHED, as above). */
export function tooManyListsError(windowMs: number): ServiceError {
  const window = describeWindow(windowMs);
  return new ServiceError(
    "PLAN_LIMIT_REACHED",
    `You can have at most ${MAX_LISTS_PER_CUSTOMER} lists, counting lists deleted or left empty in the last ${window}; ` +
      `save to one of your lists, or delete a list (it stops counting ${window} after)`,
  );
}

/**
 * Which of `wanted` (contexts with no list counted yet, in order) may become lists, given the
 * customer's stored lists: those that fit under MAX_LISTS_PER_CUSTOMER, and the lists afterwards.
 */
export function admitNewLists(
  stored: readonly string[],
  wanted: readonly string[],
): { admitted: Set<string>; lists: string[] } {
  const lists = [...stored];
  const admitted = new Set<string>();
  for (const context of wanted) {
    if (lists.includes(context)) {
      admitted.add(context);
      continue;
    }
    if (lists.length >= MAX_LISTS_PER_CUSTOMER) continue;
    lists.unshift(context);
    admitted.add(context);
  }
  return { admitted, lists };
}

/** A list as retention decides on it, from its record read by handle. */
export interface RetainedList {
  /** Its active items' handles (its index). */
  index: readonly string[];
  removed: RemovedItems;
  deletedAtMs: number | null;
  named: boolean;
  updatedAtMs: number;
}

export interface RetentionPlan {
  /** The removed items to delete now. */
  deleteItems: { handle: string; id: string }[];
  /** The list's removed items afterwards. */
  removed: RemovedItems;
  /** The list's record goes too: nothing is left in it, and it has been so for the window. */
  dropList: boolean;
}

/**
 * Retention of one list: its removed items removed at or before `cutoffMs` are deleted. The list
 * itself goes once it holds nothing (no active item, every removed one deleted now) and has held
 * nothing since the cutoff: emptied by its last removal, its deletion, or (holding no removed item)
 * its last write. A named list the customer has not deleted stays: they made it on purpose, and
 * the plan's named-list limit bounds those.
 */
export function planRetention(list: RetainedList, cutoffMs: number): RetentionPlan {
  const due = Object.entries(list.removed).filter(([, item]) => Date.parse(item.at) <= cutoffMs);
  const removed = Object.fromEntries(Object.entries(list.removed).filter(([, item]) => Date.parse(item.at) > cutoffMs));
  const entries = Object.values(list.removed);
  const emptiedAtMs = Math.max(
    list.deletedAtMs ?? 0,
    entries.length > 0 ? Math.max(...entries.map((item) => Date.parse(item.at))) : list.updatedAtMs,
  );
  const dropList =
    list.index.length === 0 &&
    Object.keys(removed).length === 0 &&
    (list.deletedAtMs !== null || !list.named) &&
    emptiedAtMs <= cutoffMs;
  return { deleteItems: due.map(([handle, item]) => ({ handle, id: item.id })), removed, dropList };
}

/** A list's record as retention decides on it; null for a list that keeps no removed items (written before lists did). */
export function retainedListOf(
  record: Omit<RetainedList, "removed" | "named" | "index"> & {
    customerGid: string | null;
    context: string | null;
    index: readonly string[] | null;
    removed: RemovedItems | null;
    name: string | null;
  },
): (RetainedList & { customerGid: string; context: string }) | null {
  const { removed, customerGid, context } = record;
  if (!removed || !customerGid || !context) return null;
  return {
    customerGid,
    context,
    index: record.index ?? [],
    removed,
    deletedAtMs: record.deletedAtMs,
    named: record.name !== null,
    updatedAtMs: record.updatedAtMs,
  };
}
