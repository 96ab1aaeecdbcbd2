import { ServiceError } from "~/lib/errors";
import { itemActivationFields } from "~/services/records/fields";
import type { KnownItem } from "./list-state";
import type { ItemIdentity, SaveOperationResult } from "./schemas";
import type { RemovedItems } from "~/services/records/stored-values";
import { listFullError, MAX_STORED_ITEMS_PER_LIST } from "./storage-bounds";
import { decideTransition, type ItemAction } from "./transitions";

/**
 * The write path's decisions, as pure functions: what a change needs to know, what it writes and
 * what it answers, from what is known of its item and of its list's index. The I/O around them
 * (apply-item-changes.server.ts, through list-store/) holds the list's lock, reads what these say
 * is missing, writes what they say and settles the cache with the platform's answers.
 */

/** What is known of an item when deciding. */
export type Knowledge =
  /** Its state as read from the platform or kept exact by the cache; `id: null` when it does not exist. */
  | { kind: "known"; item: KnownItem }
  /** Not active (a complete list state does not hold it), but whether it exists as removed is not known. */
  | { kind: "inactive" }
  /** Nothing can be said: it must be read by handle. */
  | { kind: "unknown" };

export interface PlannedChange {
  action: ItemAction;
  handle: string;
  item: ItemIdentity;
  source?: string;
  /** The snapshot as stored (JSON text). */
  snapshot?: string;
}

export type ChangeOutcome = { ok: true; result: SaveOperationResult } | { ok: false; error: ServiceError };

export type ItemPlan =
  | { kind: "answer"; outcome: ChangeOutcome }
  /** Create or reactivate by handle (an upsert): whether it exists as removed need not be known. */
  | { kind: "activate"; handle: string; fields: Record<string, string> }
  | { kind: "deactivate"; handle: string; id: string };

export interface Plan {
  plans: ItemPlan[];
  /** The list's new index (active handles, newest first) and removed items, when the changes alter them. */
  index?: string[];
  removed?: RemovedItems;
}

/** A list as the planner needs it: its index and its removed items still stored, both exact. */
export interface PlannedList {
  index: readonly string[];
  removed: RemovedItems;
}

const MESSAGES = {
  DUPLICATE_SAVE: "This item is already saved in this list",
  ITEM_NOT_FOUND: "No saved item matches this context, entity type and GID",
} as const;

const failure = (code: keyof typeof MESSAGES): ChangeOutcome => ({
  ok: false,
  error: new ServiceError(code, MESSAGES[code]),
});

/** The current state of an item for the state table, or undefined when it must be read first. */
function stateFor(action: ItemAction, knowledge: Knowledge): "active" | "removed" | null | "not-active" | undefined {
  if (knowledge.kind === "unknown") return undefined;
  if (knowledge.kind === "inactive") return action === "remove" ? undefined : "not-active";
  const { item } = knowledge;
  return item.id === null ? null : item.status;
}

/**
 * What must be read before deciding: the items whose state is unknown (a remove must also know
 * whether an inactive item exists: 404 or 200), and the list's index when it is not known and a
 * change may alter it.
 */
export function readsNeeded(
  changes: readonly PlannedChange[],
  knowledge: ReadonlyMap<string, Knowledge>,
  indexKnown: boolean,
): { items: string[]; index: boolean } {
  const items = changes
    .filter((change) => stateFor(change.action, knowledge.get(change.handle)!) === undefined)
    .map((change) => change.handle);
  const mayWrite = changes.some((change) => {
    const state = stateFor(change.action, knowledge.get(change.handle)!);
    if (state === undefined) return true;
    const { kind } = decideTransition(change.action, state === "not-active" ? null : state);
    return kind === "activate" || kind === "deactivate";
  });
  return { items: [...new Set(items)], index: !indexKnown && mayWrite };
}

/**
 * Decides every change from complete knowledge (readsNeeded satisfied): the answers that need no
 * write, the writes, and the list's new index and removed items. Changes apply in order, each
 * seeing the ones before it (a batch never holds one item twice: BATCH_CONFLICT comes first). A
 * save that would store one item more than MAX_STORED_ITEMS_PER_LIST (active and removed ones
 * retention has not deleted, `retentionMs` after their removal) is refused; reactivating a removed
 * item stores nothing more.
 */
export function planChanges(
  changes: readonly PlannedChange[],
  knowledge: ReadonlyMap<string, Knowledge>,
  list: PlannedList,
  savedAt: string,
  retentionMs: number,
): Plan {
  const active = new Set(list.index);
  const order = [...list.index];
  const removed: Record<string, RemovedItems[string]> = { ...list.removed };
  let changed = false;
  const plans = changes.map((change): ItemPlan => {
    const known = knowledge.get(change.handle)!;
    const state = stateFor(change.action, known);
    if (state === undefined) throw new Error(`planChanges: ${change.handle} must be read first`);
    const transition = decideTransition(change.action, state === "not-active" ? null : state);
    const item = known.kind === "known" ? known.item : undefined;
    switch (transition.kind) {
      case "unchanged":
        return { kind: "answer", outcome: { ok: true, result: { id: item!.id!, state: transition.state } } };
      case "error":
        return { kind: "answer", outcome: failure(transition.code) };
      case "deactivate":
        active.delete(change.handle);
        removed[change.handle] = { id: item!.id!, at: savedAt };
        changed = true;
        return { kind: "deactivate", handle: change.handle, id: item!.id! };
      case "activate":
        if (
          !active.has(change.handle) &&
          !(change.handle in removed) &&
          active.size + Object.keys(removed).length >= MAX_STORED_ITEMS_PER_LIST
        ) {
          return { kind: "answer", outcome: { ok: false, error: listFullError(retentionMs) } };
        }
        delete removed[change.handle];
        active.add(change.handle);
        order.unshift(change.handle);
        changed = true;
        return { kind: "activate", handle: change.handle, fields: activationFields(change, savedAt) };
    }
  });
  if (!changed) return { plans };
  return { plans, index: [...new Set(order)].filter((handle) => active.has(handle)), removed };
}

/**
 * The list's index once some of the planned writes were refused, which changed nothing for their
 * items: a refused activation leaves it, a refused deactivation stays in it, in the order it had.
 * The index went to the platform with the writes, in the same request, before their answers
 * (aliases of one mutation are not atomic): this is what it must be written as again.
 */
export function indexAfterRefusals(
  before: readonly string[],
  planned: readonly string[],
  refused: ReadonlySet<string>,
): string[] {
  const wasActive = new Set(before);
  const stays = new Set(planned);
  return [
    ...planned.filter((handle) => !wasActive.has(handle) && !refused.has(handle)),
    ...before.filter((handle) => stays.has(handle) || refused.has(handle)),
  ];
}

/** Every field of an active save_item: an upsert may create it. */
function activationFields(change: PlannedChange, savedAt: string): Record<string, string> {
  return itemActivationFields({
    ...change.item,
    savedAt,
    ...(change.source ? { source: change.source } : {}),
    ...(change.snapshot ? { snapshot: change.snapshot } : {}),
  });
}
