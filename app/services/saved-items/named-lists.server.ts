import { randomBytes } from "node:crypto";
import { clock } from "~/lib/clock";
import { ServiceError } from "~/lib/errors";
import { platformRefusal } from "~/platform/admin-graphql.server";
import { refusedAtCap, storageFullError } from "~/platform/metaobject-cap.server";
import { requireInstalledShopPlan } from "~/services/installs/shop-state.server";
import { retentionWindowMs } from "~/config/env.server";
import { applyItemChangesLocked, indexFromSearch, isoSeconds } from "./apply-item-changes.server";
import { directoryLockKey, listLockKey, withWriteLocks } from "./list-locks.server";
import type { Caller } from "~/services/caller";
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
import {
  fieldValue,
  parseStoredJson,
  SAVE_LIST_DIRECTORY_TYPE,
  SAVE_LIST_FIELDS,
  SAVE_LIST_TYPE,
} from "~/services/records/fields";
import { readItemRecords, type SaveItemRecord } from "~/services/records/metaobject-store.server";
import {
  readNamedListRecords,
  readNamedListsByHandle,
  searchCustomerLists,
  writeNamedListRecords,
  type NamedListNode,
} from "~/services/records/save-list.server";
import { storedStrings } from "~/services/records/stored-values";
import {
  assertListExists,
  decideCreateList,
  directoryWithout,
  listsSearchMissed,
  searchResultsShown,
  type ListDirectory,
} from "./named-lists";
import { sharedItemsChanged, sharedLinksChanged } from "./shared-page-cache.server";

/**
 * The list operations (docs/decisions/0011-named-lists.md). A list's name and deleted mark live on
 * its save_list; the customer's save_list_directory holds the lists create-list made, which the
 * plan's limit counts. Every write holds the list's lock (the one item writes hold) and, when it
 * changes the directory, the directory's; what it decides from is read by handle under them.
 */

/** How many items delete-list reads and removes per round: the batch's bound, a known-safe cost. */
const DELETE_CHUNK = 50;

interface StoredList {
  node: NamedListNode;
  deleted: boolean;
  name: string | null;
  /** The handles of its active items; null for a list written before lists kept an index. */
  index: string[] | null;
}

function toStoredList(node: NamedListNode | null | undefined): StoredList | null {
  if (!node) return null;
  const index = parseStoredJson(fieldValue(node.fields, SAVE_LIST_FIELDS.activeItems));
  return {
    node,
    deleted: fieldValue(node.fields, SAVE_LIST_FIELDS.deletedAt) !== null,
    name: fieldValue(node.fields, SAVE_LIST_FIELDS.name),
    index: Array.isArray(index) ? storedStrings(index) : null,
  };
}

async function toSavedList(caller: Caller, list: StoredList): Promise<SavedList> {
  const { node } = list;
  const context = fieldValue(node.fields, SAVE_LIST_FIELDS.context) ?? "";
  const index = list.index ?? (await indexFromSearch(caller, listHandle(caller.customerGid, context)));
  return {
    context,
    name: list.name,
    itemCount: index.length,
    createdAt: node.createdAt,
    updatedAt: node.updatedAt,
  };
}

/** A list and the customer's directory, by handle: current, as the locks held make them. */
async function readNamedList(
  caller: Caller,
  context: string,
): Promise<{ list: StoredList | null; directory: ListDirectory }> {
  const { list, directory } = await readNamedListRecords(
    caller.admin,
    listHandle(caller.customerGid, context),
    listDirectoryHandle(caller.customerGid),
  );
  return { list: toStoredList(list), directory };
}

/** Writes the list's fields and, when given, the directory's named lists (and its stored lists, when given), in one request. */
async function writeNamedList(
  caller: Caller,
  context: string,
  fields: Record<string, string>,
  directory: (Pick<ListDirectory, "named"> & Partial<ListDirectory>) | null,
): Promise<StoredList> {
  const data = await writeNamedListRecords(caller.admin, {
    listHandle: listHandle(caller.customerGid, context),
    directoryHandle: listDirectoryHandle(caller.customerGid),
    customerGid: caller.customerGid,
    fields,
    directory,
  });
  const list = toStoredList(data.list?.metaobject);
  if (refusedAtCap(data.list?.userErrors)) throw storageFullError(caller.shop, SAVE_LIST_TYPE);
  if (refusedAtCap(data.directory?.userErrors)) throw storageFullError(caller.shop, SAVE_LIST_DIRECTORY_TYPE);
  if (!list || (directory !== null && !data.directory?.metaobject)) {
    throw platformRefusal("The platform refused to write the list; retry shortly", [
      ...(data.list?.userErrors ?? []),
      ...(data.directory?.userErrors ?? []),
    ]);
  }
  return list;
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
  const found = new Set(page.edges.map((edge) => fieldValue(edge.node.fields, SAVE_LIST_FIELDS.context) ?? ""));
  const missing = listsSearchMissed(page.directoryLists ?? [], found, page.pageInfo.hasNextPage);
  const missed = (
    missing.length === 0
      ? []
      : await readNamedListsByHandle(
          caller.admin,
          missing.map((context) => listHandle(caller.customerGid, context)),
        )
  )
    .map((node) => toStoredList(node)!)
    .filter((list) => !list.deleted)
    .sort((a, b) => metaobjectNumber(b.node.id) - metaobjectNumber(a.node.id));
  const shown = searchResultsShown(missed.length, page.edges.length, input.limit);
  const edges = page.edges.slice(0, shown);
  // Search may match on values a list no longer has; its fields are current, so they decide.
  const current = edges
    .map((edge) => toStoredList(edge.node)!)
    .filter(
      (list) => !list.deleted && fieldValue(list.node.fields, SAVE_LIST_FIELDS.customerId) === caller.customerGid,
    );
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
  return withWriteLocks([listLockKey(caller, context), directoryLockKey(caller)], async (held) => {
    const { list, directory } = await readNamedList(caller, context);
    const decision = decideCreateList(list, directory, { context, name: input.name }, plan, retentionWindowMs());
    if (decision.kind === "refuse") throw decision.error;
    if (decision.kind === "exists") return toSavedList(caller, list!);
    const fields = {
      [SAVE_LIST_FIELDS.customerId]: caller.customerGid,
      [SAVE_LIST_FIELDS.context]: context,
      [SAVE_LIST_FIELDS.name]: input.name,
      [SAVE_LIST_FIELDS.deletedAt]: "",
      // A deleted list keeps its index and removed items (every item in it removed); a new one starts empty.
      ...(list ? {} : { [SAVE_LIST_FIELDS.activeItems]: "[]", [SAVE_LIST_FIELDS.removedItems]: "{}" }),
    };
    await held.assertHeld();
    // A new list is created before the directory names it: at the entry cap its create is
    // refused, and the directory, were it written in the same request (aliases are not atomic),
    // would name a list that does not exist, counted against the plan and never deletable.
    if (!list) await writeNamedList(caller, context, fields, null);
    const written = await writeNamedList(caller, context, fields, decision.directory);
    return toSavedList(caller, written);
  });
}

export async function renameList(caller: Caller, input: RenameListRequest): Promise<SavedList> {
  return withWriteLocks([listLockKey(caller, input.context)], async (held) => {
    const { list } = await readNamedList(caller, input.context);
    assertListExists(list, input.context);
    await held.assertHeld();
    const renamed = await writeNamedList(caller, input.context, { [SAVE_LIST_FIELDS.name]: input.name }, null);
    // The shared page shows the list's name: a page cached before the rename is read again.
    await sharedItemsChanged(caller.shop, [listHandle(caller.customerGid, input.context)]);
    return toSavedList(caller, renamed);
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
  return withWriteLocks([listLockKey(caller, context), directoryLockKey(caller)], async (held) => {
    const { list, directory } = await readNamedList(caller, context);
    const index =
      assertListExists(list, context).index ?? (await indexFromSearch(caller, listHandle(caller.customerGid, context)));
    let removedItems = 0;
    for (let remaining = index; remaining.length > 0;) {
      const { items } = await readItemRecords(caller.admin, remaining.slice(0, DELETE_CHUNK));
      const active = [...items].filter((entry): entry is [string, SaveItemRecord] => entry[1]?.status === "active");
      const outcomes = await applyItemChangesLocked(
        caller,
        active.map(([, record]) => ({
          action: "remove",
          item: { context, entityType: record.entityType, entityGid: record.entityGid },
        })),
        held,
        { known: new Map(active), keepIndex: true },
      );
      removedItems += outcomes.filter((outcome) => outcome.ok).length;
      const failed = outcomes.find((outcome) => !outcome.ok);
      if (failed && !failed.ok) throw failed.error;
      remaining = remaining.slice(DELETE_CHUNK);
      // The index drops what is now removed, so itemCount stays exact if a later round fails.
      if (remaining.length > 0 && active.length > 0) {
        await held.assertHeld();
        await writeNamedList(caller, context, { [SAVE_LIST_FIELDS.activeItems]: JSON.stringify(remaining) }, null);
      }
    }
    await held.assertHeld();
    await writeNamedList(
      caller,
      context,
      {
        [SAVE_LIST_FIELDS.deletedAt]: isoSeconds(clock.now()),
        [SAVE_LIST_FIELDS.name]: "",
        [SAVE_LIST_FIELDS.activeItems]: "[]",
        [SAVE_LIST_FIELDS.shareTokenHash]: "",
        [SAVE_LIST_FIELDS.shareName]: "",
      },
      directoryWithout(directory, context),
    );
    await sharedLinksChanged(caller.shop);
    return { context, deleted: true, removedItems };
  });
}
