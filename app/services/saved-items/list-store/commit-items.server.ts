import { asServiceError } from "~/lib/envelope";
import { ServiceError } from "~/lib/errors";
import { annotateRequest } from "~/lib/request-context.server";
import { storageFullError } from "~/platform/metaobject-cap.server";
import { SAVE_ITEM_TYPE } from "~/services/records/fields";
import {
  applyWrites,
  type DirectoryWrite,
  type ItemWrite,
  type ListWrite,
  type WriteOutcome,
} from "~/services/records/metaobject-store.server";
import type { RemovedItems } from "~/services/records/stored-values";
import { listDirectoryHandle } from "../handles.server";
import { indexAfterRefusals, type ChangeOutcome } from "../item-planner";
import { withItems, withoutItems, withPendingItems, withRemoved, type KnownItem } from "../list-state";
import { observedItem } from "../observations";
import { sharedItemsChanged } from "../shared-page-cache.server";
import type { OpenedList } from "./open-lists.server";
import { stillHeld, updateCachedState, type ListSession } from "./session.server";

/** A list's record as a commit writes it: its new index (or the one it has, kept) and removed items. */
export interface ListChange {
  list: OpenedList;
  index: readonly string[] | "keep";
  removed: RemovedItems;
}

/** One item's write, with what was known of the item before it (what a refusal leaves). */
export interface ItemChangeWrite {
  list: OpenedList;
  handle: string;
  write: ItemWrite;
  before: KnownItem | undefined;
}

export interface ItemCommit {
  lists: readonly ListChange[];
  items: readonly ItemChangeWrite[];
  /** The lists the customer's directory counts, when the commit makes one. */
  directory?: readonly string[];
}

/** What a list's cache learns once the platform has answered its writes. */
interface Settlement {
  known: Record<string, KnownItem>;
  forgotten: string[];
  removed: RemovedItems | undefined;
}

/**
 * Applies the writes decided from the opened lists, in one mutation (the directory and the lists'
 * records first): the cache learns what the open read and marks the items written pending before
 * anything is sent, so a writer that dies leaves them unknown (read again), never wrong. Then the
 * answers become each item's outcome, what refusals left is written again, and the cache settles.
 * Answers each item write's outcome, in order.
 */
export async function commitItems(
  session: ListSession,
  opened: readonly OpenedList[],
  commit: ItemCommit,
): Promise<ChangeOutcome[]> {
  const { owner, held } = session;
  const listWrites = commit.lists.map((change) => toListWrite(session, change));
  const directory = commit.directory && {
    handle: listDirectoryHandle(owner.customerGid),
    customerGid: owner.customerGid,
    lists: commit.directory,
  };
  await markPending(session, opened, commit);
  const read = opened.some((list) => Object.keys(list.learned).length > 0 || list.gone.length > 0);
  annotateRequest({ cache: read ? "miss" : "hit" });
  if (commit.items.length === 0) return [];
  const results = await applyWrites(
    owner.admin,
    listWrites,
    commit.items.map((item) => item.write),
    // A lock that lapsed (a pause longer than its lease) may be someone else's by now: do not send.
    () => held.assertHeld(),
    directory,
  );
  // Shared pages of these lists are read again, whatever of the writes landed.
  await sharedItemsChanged(
    owner.shop,
    opened.map((list) => list.handle),
  );
  const listWritten = (list: OpenedList) => results.lists[commit.lists.findIndex((change) => change.list === list)];
  const outcomes = commit.items.map((item, at) => outcomeOf(session, results.items[at]));
  const settled = settlementsOf(commit, outcomes, results, listWritten);
  await rewriteIndexes(session, commit, listWrites, outcomes);
  if (directory && results.directory) await uncountUnmadeLists(session, commit, directory, results.lists);
  await settleCache(session, settled);
  return outcomes.map((outcome) => outcome.answer);
}

const toListWrite = (session: ListSession, { list, index, removed }: ListChange): ListWrite => ({
  handle: list.handle,
  customerGid: session.owner.customerGid,
  context: list.context,
  ...(index === "keep" ? {} : { index }),
  removed,
});

/**
 * What was read is current (the locks are held): the cache learns it, and the items about to be
 * written become pending before anything is sent. So do the list's removed items as read, unless
 * its record is about to be written: until the answer they are unknown.
 */
async function markPending(session: ListSession, opened: readonly OpenedList[], commit: ItemCommit): Promise<void> {
  for (const list of opened) {
    const written = commit.items.filter((item) => item.list === list).map((item) => item.handle);
    if (written.length === 0 && Object.keys(list.learned).length === 0 && list.gone.length === 0) continue;
    const listWritten = commit.lists.some((change) => change.list === list);
    const removedNow = listWritten || list.record.kind !== "counted" ? undefined : list.removed;
    await updateCachedState(session, list.context, (state) =>
      withRemoved(
        withPendingItems(
          withoutItems(withItems(state, list.learned, { nowMs: Date.now(), settlesPending: true }), list.gone),
          written,
          Date.now(),
        ),
        removedNow,
      ),
    );
  }
}

/**
 * An item write's answer, and what its item is now as far as the cache may say: as written;
 * unchanged (refused); or unknown (it stays pending, to be read again).
 */
type WriteAnswer =
  { answer: ChangeOutcome; kind: "written"; item: KnownItem } | { answer: ChangeOutcome; kind: "refused" | "unknown" };

function outcomeOf(session: ListSession, result: WriteOutcome | undefined): WriteAnswer {
  if (result?.ok) {
    const item = observedItem(result.record);
    return { answer: { ok: true, result: { id: result.record.id, state: item.status } }, kind: "written", item };
  }
  if (result?.code === "REFUSED") {
    const error = result.atCap
      ? storageFullError(session.owner.shop, SAVE_ITEM_TYPE)
      : new ServiceError("PLATFORM_UPSTREAM_ERROR", `The platform refused the write: ${result.message}`);
    return { answer: { ok: false, error }, kind: "refused" };
  }
  // Applied or not, nobody can say.
  return { answer: { ok: false, error: asServiceError(result?.error) }, kind: "unknown" };
}

/** What each list's cache may settle from the answers. */
function settlementsOf(
  commit: ItemCommit,
  outcomes: readonly WriteAnswer[],
  results: { directory: boolean },
  listWritten: (list: OpenedList) => boolean | undefined,
): Map<OpenedList, Settlement> {
  const settled = new Map<OpenedList, Settlement>();
  commit.items.forEach(({ list, handle, before }, at) => {
    const counted = list.record.kind === "counted" || results.directory;
    const change = commit.lists.find((entry) => entry.list === list);
    const entry = settled.get(list) ?? {
      known: {},
      forgotten: [],
      removed: listWritten(list) === true && counted ? change?.removed : undefined,
    };
    settled.set(list, entry);
    const outcome = outcomes[at];
    // Only a list whose every write landed keeps its removed items known: they are what was written.
    if (outcome?.kind !== "written") entry.removed = undefined;
    if (outcome?.kind === "written") entry.known[handle] = outcome.item;
    // Refused, so nothing changed: the item is what it was before.
    else if (outcome?.kind === "refused" && before) entry.known[handle] = before;
    else if (outcome?.kind === "refused") entry.forgotten.push(handle);
  });
  return settled;
}

/**
 * Writes again, without what was refused, the index of each list some of whose writes the
 * platform refused (at the entry cap, a save's create is refused while its list's index, sent
 * first, was written): the index names exactly the active items. Should this request fail, the
 * index stays as sent (an item too many, which reads skip, or, after a refused removal, one too
 * few) until a later write of the list writes it again.
 */
async function rewriteIndexes(
  session: ListSession,
  commit: ItemCommit,
  listWrites: readonly ListWrite[],
  outcomes: readonly WriteAnswer[],
): Promise<void> {
  const rewrites = commit.lists.flatMap((change, at) => {
    const refused = new Set(
      commit.items
        .filter((item, i) => item.list === change.list && outcomes[i]?.kind === "refused")
        .map((item) => item.handle),
    );
    const write = listWrites[at];
    return refused.size > 0 && write?.index
      ? [{ ...write, index: indexAfterRefusals(change.list.index, write.index, refused) }]
      : [];
  });
  if (rewrites.length > 0) await applyWrites(session.owner.admin, rewrites, [], () => session.held.assertHeld());
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
  session: ListSession,
  commit: ItemCommit,
  directory: DirectoryWrite,
  listsWritten: readonly boolean[],
): Promise<void> {
  const unmade = new Set(
    commit.lists
      .filter((change, at) => !listsWritten[at] && change.list.record.kind === "absent")
      .map((change) => change.list.context),
  );
  if (unmade.size === 0) return;
  await applyWrites(session.owner.admin, [], [], () => session.held.assertHeld(), {
    ...directory,
    lists: directory.lists.filter((context) => !unmade.has(context)),
  });
}

/**
 * The cache learns what the answers settled. A holder whose lock lapsed while it wrote (a pause
 * longer than the lease) leaves the cache to the holder after it, which settles its pending marks
 * from the platform.
 */
async function settleCache(session: ListSession, settled: ReadonlyMap<OpenedList, Settlement>): Promise<void> {
  if (!(await stillHeld(session))) return;
  for (const [list, { known, forgotten, removed }] of settled) {
    await updateCachedState(session, list.context, (state) =>
      withRemoved(
        withoutItems(withItems(state, known, { nowMs: Date.now(), settlesPending: true }), forgotten),
        removed,
      ),
    );
  }
}
