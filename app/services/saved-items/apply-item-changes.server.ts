import { retentionWindowMs } from "~/config/env.server";
import { clock } from "~/lib/clock";
import type { Caller } from "~/services/caller";
import { itemOwnerFields, storedJson } from "~/services/records/fields";
import type { ItemWrite, SaveItemRecord } from "~/services/records/metaobject-store.server";
import { isoSeconds } from "~/services/records/stored-values";
import { itemHandle, listHandle } from "./handles.server";
import {
  planChanges,
  readsNeeded,
  type ChangeOutcome,
  type ItemPlan,
  type Knowledge,
  type Plan,
  type PlannedChange,
} from "./item-planner";
import { lookUpItem, type ListState } from "./list-state";
import { commitItems, type ItemChangeWrite, type ListChange } from "./list-store/commit-items.server";
import { openLists, type OpenedList } from "./list-store/open-lists.server";
import { withListSession, type ListSession } from "./list-store/session.server";
import { observedItem } from "./observations";
import type { ItemIdentity } from "./schemas";
import { admitNewLists, tooManyListsError } from "./storage-bounds";
import type { ItemAction } from "./transitions";

export type { ChangeOutcome } from "./item-planner";

/*
 * Item saves: save, remove, toggle and batch. Under the lock of every list touched, and the
 * customer's directory's (list-store/), each list is opened with what its changes need to know,
 * item-planner.ts decides (storage-bounds.ts too, for a list the write would make), and the
 * decisions are committed in one mutation.
 */

export interface ItemChange {
  action: ItemAction;
  item: ItemIdentity;
  source?: string;
  snapshot?: Record<string, unknown>;
}

/**
 * How delete-list removes a list's items through the same path: `known` holds the items as it
 * just read them under the list's lock (so they are not read again), and `keepIndex` leaves the
 * list's index as it is, to be written once every removal has succeeded: until then it still names
 * every item that may be active, and a retry finds them.
 */
export interface ItemChangeOptions {
  known?: ReadonlyMap<string, SaveItemRecord>;
  keepIndex?: boolean;
}

/** A change as the planner takes it, with its place in the request. */
interface Entry {
  position: number;
  change: PlannedChange;
}

/** One opened list, its changes and the planner's decisions for them. */
interface Decided {
  list: OpenedList;
  entries: readonly Entry[];
  knowledge: ReadonlyMap<string, Knowledge>;
  plan: Plan;
}

/** Applies save/remove/toggle changes for one customer, each answered in the order given. */
export function applyItemChanges(caller: Caller, changes: readonly ItemChange[]): Promise<ChangeOutcome[]> {
  const contexts = changes.map((change) => change.item.context);
  return withListSession(caller, contexts, { directory: true }, (session) =>
    applyItemChangesInSession(session, changes, {}),
  );
}

/** applyItemChanges in a session that holds the lock of every list the changes touch, and the directory's. */
export async function applyItemChangesInSession(
  session: ListSession,
  changes: readonly ItemChange[],
  options: ItemChangeOptions,
): Promise<ChangeOutcome[]> {
  const byList = entriesByList(session.owner.customerGid, changes);
  const opened = await openLists(
    session,
    [...byList].map(([context, entries]) => ({
      context,
      items: new Map(entries.map(({ change }) => [change.handle, change.item])),
      needs: (state: ListState, indexKnown: boolean) =>
        readsNeeded(
          entries.map((entry) => entry.change),
          knowledgeBefore(entries, state, options),
          indexKnown,
        ),
    })),
  );
  const savedAt = isoSeconds(clock.now());
  const retentionMs = retentionWindowMs();
  const decided = opened.map((list) => decide(list, byList.get(list.context) ?? [], options, savedAt, retentionMs));
  const { admitted, directory } = boundNewLists(decided, retentionMs);

  const outcomes: ChangeOutcome[] = [];
  const writes: (ItemChangeWrite & { position: number })[] = [];
  const lists: ListChange[] = [];
  for (const { list, entries, knowledge, plan } of admitted) {
    entries.forEach(({ position, change }, at) => {
      const itemPlan = plan.plans[at];
      if (itemPlan?.kind === "answer") outcomes[position] = itemPlan.outcome;
      else if (itemPlan) writes.push({ list, position, ...itemWrite(session, change, itemPlan, knowledge) });
    });
    if (plan.index && plan.removed) {
      lists.push({ list, index: options.keepIndex ? "keep" : plan.index, removed: plan.removed });
    }
  }
  const answers = await commitItems(session, opened, { lists, items: writes, ...(directory ? { directory } : {}) });
  writes.forEach(({ position }, at) => {
    const answer = answers[at];
    if (answer) outcomes[position] = answer;
  });
  return outcomes;
}

/** Files each change under its list, as the planner takes it, remembering its place in the request. */
function entriesByList(customerGid: string, changes: readonly ItemChange[]): Map<string, Entry[]> {
  const byList = new Map<string, Entry[]>();
  changes.forEach((change, position) => {
    const entries = byList.get(change.item.context) ?? [];
    byList.set(change.item.context, entries);
    entries.push({
      position,
      change: {
        action: change.action,
        handle: itemHandle(customerGid, change.item),
        item: change.item,
        ...(change.source ? { source: change.source } : {}),
        ...(change.snapshot ? { snapshot: storedJson(change.snapshot) } : {}),
      },
    });
  });
  return byList;
}

/** What is known of each changed item before any read: as the caller just read it, or from the cache. */
function knowledgeBefore(entries: readonly Entry[], state: ListState, options: ItemChangeOptions) {
  const knowledge = new Map<string, Knowledge>();
  for (const { change } of entries) {
    const record = options.known?.get(change.handle);
    knowledge.set(
      change.handle,
      record ? { kind: "known", item: observedItem(record) } : knowledgeOf(state, change.handle),
    );
  }
  return knowledge;
}

/** What the cached state says of an item, for the planner. */
function knowledgeOf(state: ListState, handle: string): Knowledge {
  const known = lookUpItem(state, handle);
  if (known === undefined) return { kind: "unknown" };
  return known === "inactive" ? { kind: "inactive" } : { kind: "known", item: known };
}

/** The planner's decisions for one opened list, from what was known before and what its open read. */
function decide(
  list: OpenedList,
  entries: readonly Entry[],
  options: ItemChangeOptions,
  savedAt: string,
  retentionMs: number,
): Decided {
  const knowledge = knowledgeBefore(entries, list.state, options);
  for (const [handle, item] of Object.entries(list.learned)) {
    if (knowledge.has(handle)) knowledge.set(handle, { kind: "known", item });
  }
  const changes = entries.map((entry) => entry.change);
  const plan = planChanges(changes, knowledge, { index: list.index, removed: list.removed }, savedAt, retentionMs);
  return { list, entries, knowledge, plan };
}

/**
 * The bound on the customer's lists (storage-bounds.ts), where a write would make one: a list
 * whose record does not exist is made only while the directory counts fewer than the bound, and
 * otherwise every change of it that writes answers the bound's error instead; a list written
 * before the directory counted lists is counted now. Returns the directory's new lists, if any.
 */
function boundNewLists(
  decided: readonly Decided[],
  retentionMs: number,
): { admitted: Decided[]; directory?: readonly string[] } {
  const writing = decided.flatMap(({ list, plan }) =>
    plan.index && (list.record.kind === "uncounted" || list.record.kind === "absent")
      ? [{ context: list.context, record: list.record }]
      : [],
  );
  const [first] = writing;
  if (!first) return { admitted: [...decided] };
  const stored = [...writing.filter(({ record }) => record.kind === "uncounted").map(({ context }) => context)];
  const { admitted, lists } = admitNewLists(
    [...stored, ...first.record.directory],
    writing.filter(({ record }) => record.kind === "absent").map(({ context }) => context),
  );
  const refused: ChangeOutcome = { ok: false, error: tooManyListsError(retentionMs) };
  return {
    admitted: decided.map((entry) =>
      entry.list.record.kind !== "absent" || !entry.plan.index || admitted.has(entry.list.context)
        ? entry
        : {
            ...entry,
            plan: {
              plans: entry.plan.plans.map((plan) =>
                plan.kind === "answer" ? plan : { kind: "answer", outcome: refused },
              ),
            },
          },
    ),
    directory: lists,
  };
}

/** The write of one planned change, with its item as known before (what a refusal leaves). */
function itemWrite(
  session: ListSession,
  change: PlannedChange,
  plan: Exclude<ItemPlan, { kind: "answer" }>,
  knowledge: ReadonlyMap<string, Knowledge>,
): { handle: string; write: ItemWrite; before: ItemChangeWrite["before"] } {
  const known = knowledge.get(change.handle);
  const before = known?.kind === "known" ? known.item : undefined;
  if (plan.kind === "deactivate") return { handle: change.handle, write: { kind: "deactivate", id: plan.id }, before };
  const owner = itemOwnerFields(listHandle(session.owner.customerGid, change.item.context), session.owner.customerGid);
  return {
    handle: change.handle,
    write: { kind: "activate", handle: plan.handle, fields: { ...owner, ...plan.fields } },
    before,
  };
}
