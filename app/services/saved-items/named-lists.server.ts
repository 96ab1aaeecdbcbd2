import { randomBytes } from "node:crypto";
import { clock } from "~/lib/clock";
import { ServiceError } from "~/lib/errors";
import { requireInstalledShopPlan } from "~/services/installs/shop-state.server";
import { retentionWindowMs } from "~/config/env.server";
import type { Caller } from "~/services/caller";
import { readItemRecords, type SaveItemRecord } from "~/services/records/metaobject-store.server";
import { readNamedListsByHandle, searchCustomerLists, type NamedList } from "~/services/records/save-list.server";
import { applyItemChangesInSession } from "./apply-item-changes.server";
import { listDirectoryHandle, listHandle } from "./handles.server";
import { decodeListCursor, encodeListCursor } from "./list-cursor.server";
import type {
  CreateListRequest,
  DeleteListRequest,
  DeleteListResult,
  ListsQuery,
  ListsResult,
  RenameListRequest,
  SavedList,
} from "./list-schemas";
import { readListWithDirectory, renameListRecord, writeListRecord } from "./list-store/list-records.server";
import { indexFromSearch } from "./list-store/open-lists.server";
import { withListSession } from "./list-store/session.server";
import {
  assertListExists,
  decideCreateList,
  directoryWithout,
  listsSearchMissed,
  searchResultsShown,
} from "./named-lists";

/**
 * The list operations (docs/decisions/0011-named-lists.md). A list's name and deleted mark live on
 * its save_list; the customer's save_list_directory holds the lists create-list made, which the
 * plan's limit counts. Every write holds the list's lock (the one item writes hold) and, when it
 * changes the directory, the directory's; what it decides from is read by handle under them.
 */

/** How many items delete-list reads and removes per round: the batch's bound, a known-safe cost. */
const DELETE_CHUNK = 50;

async function toSavedList(caller: Caller, list: NamedList): Promise<SavedList> {
  const context = list.context ?? "";
  const index = list.index ?? (await indexFromSearch(caller, listHandle(caller.customerGid, context)));
  return {
    context,
    name: list.name,
    itemCount: index.length,
    createdAt: list.createdAt,
    updatedAt: list.updatedAt,
  };
}

/**
 * lists: the caller's lists that are not deleted, newest first, a page of the platform's search at
 * a time. Search lags writes, so the first page also reads the customer's directory (by handle, in
 * the same request), which every write that makes a list names it in: a list it names that search
 * has not caught up with is read by handle (a second request, only then) and shown first.
 */
export async function listLists(caller: Caller, input: ListsQuery): Promise<ListsResult> {
  const binding = listDirectoryHandle(caller.customerGid);
  const position = input.cursor === undefined ? undefined : decodeListCursor(input.cursor, binding);
  if (position?.kind === "state") throw new ServiceError("VALIDATION_ERROR", "cursor: not a cursor of lists");
  const page = await searchCustomerLists(caller.admin, caller.customerGid, {
    first: input.limit,
    after: position?.cursor ?? null,
    // Lists search misses are the newest, so they belong on the first page only.
    ...(position ? {} : { directoryHandle: binding }),
  });
  const found = new Set(page.edges.map((edge) => edge.list.context ?? ""));
  const missing = listsSearchMissed(page.directoryLists ?? [], found, page.pageInfo.hasNextPage);
  const missed = (
    missing.length === 0
      ? []
      : await readNamedListsByHandle(
          caller.admin,
          missing.map((context) => listHandle(caller.customerGid, context)),
        )
  )
    .filter((list) => !list.deleted)
    .sort((a, b) => metaobjectNumber(b.id) - metaobjectNumber(a.id));
  const shown = searchResultsShown(missed.length, page.edges.length, input.limit);
  const edges = page.edges.slice(0, shown);
  // Search may match on values a list no longer has; its fields are current, so they decide.
  const current = edges
    .map((edge) => edge.list)
    .filter((list) => !list.deleted && list.customerGid === caller.customerGid);
  const lastCursor = edges.at(-1)?.cursor;
  return {
    lists: await Promise.all([...missed, ...current].map((list) => toSavedList(caller, list))),
    pageInfo: {
      hasNextPage: page.pageInfo.hasNextPage || shown < page.edges.length,
      endCursor: lastCursor === undefined ? null : encodeListCursor(binding, { kind: "platform", cursor: lastCursor }),
    },
  };
}

/** A metaobject's number, from its GID: the order of its creation, which search's sort by id follows. */
const metaobjectNumber = (gid: string) => Number(gid.slice(gid.lastIndexOf("/") + 1));

/** A key for a list made without one: random, so it never meets a list the customer has. */
export function newListContext(): string {
  return `list-${randomBytes(8).toString("hex")}`;
}

export async function createList(caller: Caller, input: CreateListRequest): Promise<SavedList> {
  const plan = await requireInstalledShopPlan(caller.shop);
  const context = input.context ?? newListContext();
  return withListSession(caller, [context], { directory: true }, async (session) => {
    const { list, directory } = await readListWithDirectory(session, context);
    const decision = decideCreateList(list, directory, { context, name: input.name }, plan, retentionWindowMs());
    if (decision.kind === "refuse") throw decision.error;
    // It exists, not deleted, with this name: this same create repeated.
    if (decision.kind === "exists") return toSavedList(caller, assertListExists(list, context));
    const fields = {
      owner: { customerGid: caller.customerGid, context },
      name: input.name,
      deletedAt: null,
      // A deleted list keeps its index and removed items (every item in it removed); a new one starts empty.
      ...(list ? {} : { index: [], removed: {} }),
    };
    // A new list is created before the directory names it: at the entry cap its create is
    // refused, and the directory, were it written in the same request (aliases are not atomic),
    // would name a list that does not exist, counted against the plan and never deletable.
    if (!list) await writeListRecord(session, context, fields, null);
    return toSavedList(caller, await writeListRecord(session, context, fields, decision.directory));
  });
}

export async function renameList(caller: Caller, input: RenameListRequest): Promise<SavedList> {
  return withListSession(caller, [input.context], { directory: false }, async (session) => {
    const { list } = await readListWithDirectory(session, input.context);
    assertListExists(list, input.context);
    return toSavedList(caller, await renameListRecord(session, input.context, input.name));
  });
}

/**
 * Removes every active item through the item write path (state table, cache, pending marks), a
 * chunk at a time, then marks the list deleted, clears its name, index and share link, and takes
 * it out of the directory. The index drops a chunk only once its removals succeeded, so a failure
 * on the way (a platform error, or throttling on a long list) leaves the list, minus the items
 * removed so far, with an index that still names the rest: a retry removes them.
 */
export async function deleteList(caller: Caller, input: DeleteListRequest): Promise<DeleteListResult> {
  const { context } = input;
  return withListSession(caller, [context], { directory: true }, async (session) => {
    const { list, directory } = await readListWithDirectory(session, context);
    const index =
      assertListExists(list, context).index ?? (await indexFromSearch(caller, listHandle(caller.customerGid, context)));
    let removedItems = 0;
    for (let remaining = index; remaining.length > 0;) {
      const { items } = await readItemRecords(caller.admin, remaining.slice(0, DELETE_CHUNK));
      const active = [...items].filter((entry): entry is [string, SaveItemRecord] => entry[1]?.status === "active");
      const outcomes = await applyItemChangesInSession(
        session,
        active.map(([, record]) => ({
          action: "remove",
          item: { context, entityType: record.entityType, entityGid: record.entityGid },
        })),
        { known: new Map(active), keepIndex: true },
      );
      removedItems += outcomes.filter((outcome) => outcome.ok).length;
      const failed = outcomes.find((outcome) => !outcome.ok);
      if (failed && !failed.ok) throw failed.error;
      remaining = remaining.slice(DELETE_CHUNK);
      // The index drops what is now removed, so itemCount stays exact if a later round fails.
      if (remaining.length > 0 && active.length > 0) {
        await writeListRecord(session, context, { index: remaining }, null);
      }
    }
    const deleted = { deletedAt: clock.now(), name: null, index: [], share: null };
    await writeListRecord(session, context, deleted, directoryWithout(directory, context));
    return { context, deleted: true, removedItems };
  });
}
