import { writeLog } from "~/lib/json-log";
import {
  runAdminGraphql,
  runComposedAdminGraphql,
  type AdminGraphqlClient,
  type AdminGraphqlOptions,
} from "~/platform/admin-graphql.server";
import { noteCapReached, refusedAtCap } from "~/platform/metaobject-cap.server";
import type {
  SaveItemNodeFragment,
  SavedItemsItemUpdatedFragment,
  SavedItemsItemUpsertedFragment,
  SavedItemsDeletedFragment,
  SavedItemsDirectoryListsFragment,
  SavedItemsListIndexFragment,
  SavedItemsListWrittenFragment,
  SavedItemsSearchPageFragment,
} from "~/types/admin.generated";
import {
  ENTITY_TYPES,
  parseRemovedItems,
  storedStrings,
  type EntityType,
  type ItemState,
  type RemovedItems,
} from "./stored-values";
import {
  DIRECTORY_FIELDS,
  fieldValue,
  parseStoredJson,
  SAVE_ITEM_FIELDS,
  SAVE_ITEM_TYPE,
  SAVE_LIST_DIRECTORY_TYPE,
  SAVE_LIST_FIELDS,
  SAVE_LIST_TYPE,
  storedJson,
  toFields,
} from "./fields";

/** A save_item as stored on the platform (its fields are the keys of shopify.app.toml). */
export interface SaveItemRecord {
  id: string;
  /** When the platform last wrote it; only activation and removal write an item. */
  updatedAtMs: number;
  context: string;
  entityType: EntityType;
  entityGid: string;
  status: ItemState;
  source: string | null;
  savedAt: string | null;
  /** The stored JSON text; parse with parseStoredJson. */
  snapshot: string | null;
}

/** An item write: an upsert by handle (creates or reactivates) or a deactivation by id. */
export type ItemWrite =
  { kind: "activate"; handle: string; fields: Record<string, string> } | { kind: "deactivate"; id: string };

/**
 * The list record with its index (the handles of its active items, newest first) and its removed
 * items still stored; a field left undefined is not written (delete-list writes its index itself).
 */
export interface ListWrite {
  handle: string;
  customerGid: string;
  context: string;
  index?: readonly string[];
  removed?: RemovedItems;
}

/** The customer's directory with the lists the bound counts (a write that makes a list adds it). */
export interface DirectoryWrite {
  handle: string;
  customerGid: string;
  lists: readonly string[];
}

export type WriteOutcome =
  | { ok: true; record: SaveItemRecord }
  /** `atCap`: refused because the definition holds as many entries as the platform allows. */
  | { ok: false; code: "REFUSED"; message: string; atCap: boolean }
  /** The request carrying this write failed as a whole; whether the platform applied it is unknown. */
  | { ok: false; code: "UNSENT_OR_UNKNOWN"; error: unknown };

/**
 * What the platform holds of a list: whether its record exists, its index (null: it has none) and
 * its removed items still stored (null: written before lists kept them, or never written). A list
 * with removed items is one the customer's directory counts: whatever gives a list its removed
 * items adds it to the directory in the same request (decision 0017).
 */
export interface ListRecord {
  exists: boolean;
  index: string[] | null;
  removed: RemovedItems | null;
}

/**
 * What every reader of save_items selects. `fields { key value }` is one list of objects, which
 * the platform prices like a single object: a node costs 2 points where five aliased
 * `field(key:)` selections cost 6, so a page of 100 requests 202 points instead of 602.
 */
export const SAVE_ITEM_FRAGMENT = `#graphql
  fragment SaveItemNode on Metaobject {
    id
    updatedAt
    fields { key value }
  }`;

/** The save_list fields that hold the list's index and its removed items, read by their keys. */
const LIST_INDEX_FRAGMENT = `#graphql
  fragment SavedItemsListIndex on Metaobject {
    id
    index: field(key: "active_items") { value }
    removed: field(key: "removed_items") { value }
  }`;

/** The directory's field of every list the customer has stored (the bound on lists counts it). */
const DIRECTORY_LISTS_FRAGMENT = `#graphql
  fragment SavedItemsDirectoryLists on Metaobject {
    lists: field(key: "lists") { value }
  }`;

/** A save_item node as the service reads it; unknown values fall back to safe defaults. */
export function toSaveItemRecord(node: SaveItemNodeFragment): SaveItemRecord {
  const field = (key: string) => fieldValue(node.fields, key);
  const entityType = field(SAVE_ITEM_FIELDS.entityType);
  return {
    id: node.id,
    updatedAtMs: Date.parse(node.updatedAt),
    context: field(SAVE_ITEM_FIELDS.context) ?? "",
    entityType: (ENTITY_TYPES as readonly string[]).includes(entityType ?? "") ? (entityType as EntityType) : "product",
    entityGid: field(SAVE_ITEM_FIELDS.entityGid) ?? "",
    status: field(SAVE_ITEM_FIELDS.status) === "active" ? "active" : "removed",
    source: field(SAVE_ITEM_FIELDS.source),
    savedAt: field(SAVE_ITEM_FIELDS.savedAt),
    snapshot: field(SAVE_ITEM_FIELDS.snapshot),
  };
}

function toListRecord(node: SavedItemsListIndexFragment | null | undefined): ListRecord {
  if (!node) return { exists: false, index: [], removed: null };
  const parsed = parseStoredJson(node.index?.value ?? null);
  const index = Array.isArray(parsed) && parsed.every((entry) => typeof entry === "string") ? parsed : null;
  return { exists: true, index, removed: parseRemovedItems(parseStoredJson(node.removed?.value ?? null)) };
}

/**
 * Reads many save_items and lists (with their index) in ONE request, by handle, with one aliased
 * root field per handle: handle lookups are strongly consistent, unlike search. Given a directory's
 * handle, its lists too (empty when it has none).
 */
export async function readItemRecords(
  admin: AdminGraphqlClient,
  itemHandles: readonly string[],
  listHandles: readonly string[] = [],
  directoryHandle?: string,
  options: AdminGraphqlOptions = {},
): Promise<{ items: Map<string, SaveItemRecord | null>; lists: Map<string, ListRecord>; directory: string[] }> {
  const variableDefinitions: string[] = [];
  const selections: string[] = [];
  const variables: Record<string, unknown> = {};
  itemHandles.forEach((handle, index) => {
    variableDefinitions.push(`$i${index}: MetaobjectHandleInput!`);
    selections.push(`i${index}: metaobjectByHandle(handle: $i${index}) { ...SaveItemNode }`);
    variables[`i${index}`] = { type: SAVE_ITEM_TYPE, handle };
  });
  listHandles.forEach((handle, index) => {
    variableDefinitions.push(`$l${index}: MetaobjectHandleInput!`);
    selections.push(`l${index}: metaobjectByHandle(handle: $l${index}) { ...SavedItemsListIndex }`);
    variables[`l${index}`] = { type: SAVE_LIST_TYPE, handle };
  });
  if (directoryHandle !== undefined) {
    variableDefinitions.push("$d: MetaobjectHandleInput!");
    selections.push("d: metaobjectByHandle(handle: $d) { ...SavedItemsDirectoryLists }");
    variables.d = { type: SAVE_LIST_DIRECTORY_TYPE, handle: directoryHandle };
  }
  const query = `
    query SavedItemsReadState(${variableDefinitions.join(", ")}) {
      ${selections.join("\n      ")}
    }
    ${itemHandles.length > 0 ? SAVE_ITEM_FRAGMENT : ""}
    ${listHandles.length > 0 ? LIST_INDEX_FRAGMENT : ""}
    ${directoryHandle !== undefined ? DIRECTORY_LISTS_FRAGMENT : ""}`;
  const data = await runComposedAdminGraphql<{
    [item: `i${number}`]: SaveItemNodeFragment | null;
    [list: `l${number}`]: SavedItemsListIndexFragment | null;
    d?: SavedItemsDirectoryListsFragment | null;
  }>(admin, query, variables, options);
  const items = new Map<string, SaveItemRecord | null>();
  itemHandles.forEach((handle, index) => {
    const node = data[`i${index}`];
    items.set(handle, node ? toSaveItemRecord(node) : null);
  });
  const lists = new Map<string, ListRecord>();
  listHandles.forEach((handle, index) => lists.set(handle, toListRecord(data[`l${index}`])));
  return { items, lists, directory: storedStrings(parseStoredJson(data.d?.lists?.value ?? null)) };
}

/** What every search page of save_items selects. */
const SEARCH_PAGE_FRAGMENT = `#graphql
  fragment SavedItemsSearchPage on MetaobjectConnection {
    edges { cursor node { ...SaveItemNode } }
    pageInfo { hasNextPage }
  }`;

/** A list's record and the first page of its active items from search, as readLists answers them. */
export interface ListRead {
  list: ListRecord;
  items: (SaveItemRecord & { cursor: string })[];
  hasNextPage: boolean;
}

/**
 * Lists' records and indexes (by handle: current) each with the first page of its active items
 * from search, all in ONE request. The index says which items are active; search, which may lag
 * behind writes, supplies their fields, and whatever the index names that search did not return is
 * read by handle afterwards. Each list requests 5 + 2 × first points (205 at 100) of the 1,000 the
 * platform allows one query: callers read at most two lists at once.
 */
export async function readLists(
  admin: AdminGraphqlClient,
  listHandles: readonly string[],
  first: number,
): Promise<ListRead[]> {
  const variableDefinitions = ["$type: String!", "$first: Int!"];
  const selections: string[] = [];
  const variables: Record<string, unknown> = { type: SAVE_ITEM_TYPE, first };
  listHandles.forEach((handle, index) => {
    variableDefinitions.push(`$l${index}: MetaobjectHandleInput!`, `$q${index}: String!`);
    selections.push(
      `l${index}: metaobjectByHandle(handle: $l${index}) { ...SavedItemsListIndex }`,
      `s${index}: metaobjects(type: $type, first: $first, query: $q${index}, sortKey: "updated_at", reverse: true) { ...SavedItemsSearchPage }`,
    );
    variables[`l${index}`] = { type: SAVE_LIST_TYPE, handle };
    variables[`q${index}`] = activeItemsQuery(handle);
  });
  const query = `
    query SavedItemsReadList(${variableDefinitions.join(", ")}) {
      ${selections.join("\n      ")}
    }
    ${LIST_INDEX_FRAGMENT}
    ${SEARCH_PAGE_FRAGMENT}
    ${SAVE_ITEM_FRAGMENT}`;
  const data = await runComposedAdminGraphql<{
    [list: `l${number}`]: SavedItemsListIndexFragment | null;
    [search: `s${number}`]: SavedItemsSearchPageFragment;
  }>(admin, query, variables);
  return listHandles.map((_, index) => ({
    list: toListRecord(data[`l${index}`]),
    // A connection field is never null in the schema.
    ...fromSearchPage(data[`s${index}`]!),
  }));
}

/**
 * The platform refuses a single query above 1,000 requested points and prices every mutation
 * field at 10: one document carries at most this many writes (list upserts included), with
 * room to spare for what their payloads select.
 */
export const MAX_WRITES_PER_MUTATION = 90;

/**
 * Applies a list's record and index (first, so the index never misses an item that is active) and
 * item writes, each write reporting its own outcome (a user error on one item never blocks the
 * others) with the item as the platform now holds it. Up to MAX_WRITES_PER_MUTATION writes go in
 * one request; a larger batch is split, never refused for its cost. When a request fails as a
 * whole, its writes and those of the requests not yet sent report UNSENT_OR_UNKNOWN with the
 * failure, while the writes of the requests before it keep their true outcomes. `beforeEachRequest`
 * runs before every request is sent (the lock holder confirms its locks there).
 */
export async function applyWrites(
  admin: AdminGraphqlClient,
  lists: readonly ListWrite[],
  writes: readonly ItemWrite[],
  beforeEachRequest: () => Promise<void>,
  directory?: DirectoryWrite,
): Promise<{ items: WriteOutcome[]; lists: boolean[]; directory: boolean }> {
  const all: (
    | { kind: "directory"; directory: DirectoryWrite }
    | { kind: "list"; list: ListWrite }
    | { kind: "item"; write: ItemWrite; index: number }
  )[] = [
    // The directory first: a list it counts whose write then fails only over-counts, never under.
    ...(directory ? [{ kind: "directory" as const, directory }] : []),
    ...lists.map((list) => ({ kind: "list" as const, list })),
    ...writes.map((write, index) => ({ kind: "item" as const, write, index })),
  ];
  const items: WriteOutcome[] = [];
  // Whether each list record, and the directory, was written (false too when unsent or unknown).
  const written = { lists: lists.map(() => false), directory: false };
  for (let start = 0; start < all.length; start += MAX_WRITES_PER_MUTATION) {
    const chunk = all.slice(start, start + MAX_WRITES_PER_MUTATION);
    let data: WritePayloads;
    try {
      data = await runMutation(
        admin,
        chunk.map((entry) => (entry.kind === "item" ? entry.write : entry)),
        beforeEachRequest,
      );
    } catch (error) {
      for (const entry of all.slice(start)) {
        if (entry.kind === "item") items[entry.index] = { ok: false, code: "UNSENT_OR_UNKNOWN", error };
      }
      return { items, ...written };
    }
    chunk.forEach((entry, position) => {
      const result = data[`w${position}`];
      if (entry.kind !== "item") {
        // The items are written all the same: the next write of the list writes its index again,
        // and until then a read of the list finds them by search too.
        if (!result?.metaobject) {
          const type = entry.kind === "list" ? SAVE_LIST_TYPE : SAVE_LIST_DIRECTORY_TYPE;
          const handle = entry.kind === "list" ? entry.list.handle : entry.directory.handle;
          if (refusedAtCap(result?.userErrors) && admin.shop) noteCapReached(admin.shop, type);
          else writeLog("warn", `${handle} was not written: ${result?.userErrors.map((e) => e.message).join("; ")}`);
        } else if (entry.kind === "list") written.lists[lists.indexOf(entry.list)] = true;
        else written.directory = true;
        return;
      }
      if (result?.metaobject && "fields" in result.metaobject) {
        items[entry.index] = { ok: true, record: toSaveItemRecord(result.metaobject) };
        return;
      }
      items[entry.index] = {
        ok: false,
        code: "REFUSED",
        message: (result?.userErrors ?? []).map((e) => e.message).join("; "),
        atCap: refusedAtCap(result?.userErrors),
      };
    });
  }
  return { items, ...written };
}

async function runMutation(
  admin: AdminGraphqlClient,
  entries: readonly (
    { kind: "directory"; directory: DirectoryWrite } | { kind: "list"; list: ListWrite } | ItemWrite
  )[],
  beforeEachRequest: () => Promise<void>,
): Promise<WritePayloads> {
  const variableDefinitions: string[] = [];
  const selections: string[] = [];
  const variables: Record<string, unknown> = {};
  const fragments = new Set<string>();
  entries.forEach((entry, index) => {
    if (entry.kind === "directory" || entry.kind === "list") {
      variableDefinitions.push(`$h${index}: MetaobjectHandleInput!`, `$w${index}: MetaobjectUpsertInput!`);
      selections.push(
        `w${index}: metaobjectUpsert(handle: $h${index}, metaobject: $w${index}) { ...SavedItemsListWritten }`,
      );
      fragments.add(LIST_WRITTEN_FRAGMENT);
      if (entry.kind === "directory") {
        const { directory } = entry;
        variables[`h${index}`] = { type: SAVE_LIST_DIRECTORY_TYPE, handle: directory.handle };
        variables[`w${index}`] = {
          fields: toFields({
            [DIRECTORY_FIELDS.customerId]: directory.customerGid,
            [DIRECTORY_FIELDS.lists]: storedJson(directory.lists),
          }),
        };
        return;
      }
      const { list } = entry;
      variables[`h${index}`] = { type: SAVE_LIST_TYPE, handle: list.handle };
      variables[`w${index}`] = {
        fields: toFields({
          [SAVE_LIST_FIELDS.customerId]: list.customerGid,
          [SAVE_LIST_FIELDS.context]: list.context,
          ...(list.index ? { [SAVE_LIST_FIELDS.activeItems]: storedJson(list.index) } : {}),
          ...(list.removed ? { [SAVE_LIST_FIELDS.removedItems]: storedJson(list.removed) } : {}),
          // A save to a list delete-list deleted brings it back (unnamed: the delete cleared the name).
          ...(list.index ? { [SAVE_LIST_FIELDS.deletedAt]: "" } : {}),
        }),
      };
    } else if (entry.kind === "activate") {
      variableDefinitions.push(`$h${index}: MetaobjectHandleInput!`, `$w${index}: MetaobjectUpsertInput!`);
      selections.push(
        `w${index}: metaobjectUpsert(handle: $h${index}, metaobject: $w${index}) { ...SavedItemsItemUpserted }`,
      );
      fragments.add(ITEM_UPSERTED_FRAGMENT).add(SAVE_ITEM_FRAGMENT);
      variables[`h${index}`] = { type: SAVE_ITEM_TYPE, handle: entry.handle };
      variables[`w${index}`] = { fields: toFields(entry.fields) };
    } else {
      variableDefinitions.push(`$id${index}: ID!`, `$w${index}: MetaobjectUpdateInput!`);
      selections.push(
        `w${index}: metaobjectUpdate(id: $id${index}, metaobject: $w${index}) { ...SavedItemsItemUpdated }`,
      );
      fragments.add(ITEM_UPDATED_FRAGMENT).add(SAVE_ITEM_FRAGMENT);
      variables[`id${index}`] = entry.id;
      variables[`w${index}`] = { fields: toFields({ [SAVE_ITEM_FIELDS.status]: "removed" }) };
    }
  });
  const query = `
    mutation SavedItemsApplyWrites(${variableDefinitions.join(", ")}) {
      ${selections.join("\n      ")}
    }
    ${[...fragments].join("\n")}`;
  return runComposedAdminGraphql<WritePayloads>(admin, query, variables, { beforeEachAttempt: beforeEachRequest });
}

/** The answer of a batch of writes: each write's payload, by its position in the batch. */
type WritePayloads = {
  [write: `w${number}`]:
    SavedItemsListWrittenFragment | SavedItemsItemUpsertedFragment | SavedItemsItemUpdatedFragment | null;
};

// One payload fragment per kind of write: a list's upsert needs only its id back, an item's the
// item as the platform now holds it.
const LIST_WRITTEN_FRAGMENT = `#graphql
  fragment SavedItemsListWritten on MetaobjectUpsertPayload {
    metaobject { id }
    userErrors { field message code }
  }`;
const ITEM_UPSERTED_FRAGMENT = `#graphql
  fragment SavedItemsItemUpserted on MetaobjectUpsertPayload {
    metaobject { ...SaveItemNode }
    userErrors { field message code }
  }`;
const ITEM_UPDATED_FRAGMENT = `#graphql
  fragment SavedItemsItemUpdated on MetaobjectUpdatePayload {
    metaobject { ...SaveItemNode }
    userErrors { field message code }
  }`;

const LIST_ACTIVE_ITEMS = `#graphql
  query SavedItemsListActive($type: String!, $first: Int!, $after: String, $query: String!) {
    metaobjects(type: $type, first: $first, after: $after, query: $query, sortKey: "updated_at", reverse: true) {
      ...SavedItemsSearchPage
    }
  }
  ${SEARCH_PAGE_FRAGMENT}
  ${SAVE_ITEM_FRAGMENT}` as const;

const activeItemsQuery = (listKey: string) => `fields.list_key:"${listKey}" AND fields.status:"active"`;

const fromSearchPage = (page: SavedItemsSearchPageFragment) => ({
  items: page.edges.map((edge) => ({ ...toSaveItemRecord(edge.node), cursor: edge.cursor })),
  hasNextPage: page.pageInfo.hasNextPage,
});

/**
 * One page of a list's active items, newest save first. Only activation and removal write an
 * item, so updated_at order is save order. Search is eventually consistent on the platform: a
 * write may show here a moment after it happened, and an item may match on a status it no longer
 * has (its fields are current).
 */
export async function listActiveItems(
  admin: AdminGraphqlClient,
  listKey: string,
  first: number,
  after: string | undefined,
): Promise<{ items: (SaveItemRecord & { cursor: string })[]; hasNextPage: boolean }> {
  const data = await runAdminGraphql(admin, LIST_ACTIVE_ITEMS, {
    type: SAVE_ITEM_TYPE,
    first,
    after: after ?? null,
    query: activeItemsQuery(listKey),
  });
  return fromSearchPage(data.metaobjects);
}

/**
 * Deletes save_items by id, in one request (metaobjectDelete is synchronous, where
 * metaobjectBulkDelete runs as a background job: a save right after must find the item gone, not
 * being deleted). Says which ids are gone: deleted now, or already not there.
 */
export async function deleteItemsById(
  admin: AdminGraphqlClient,
  ids: readonly string[],
  options: AdminGraphqlOptions,
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const query = `
    mutation SavedItemsDeleteItems(${ids.map((_, index) => `$d${index}: ID!`).join(", ")}) {
      ${ids.map((_, index) => `d${index}: metaobjectDelete(id: $d${index}) { ...SavedItemsDeleted }`).join("\n      ")}
    }
    ${DELETED_FRAGMENT}`;
  const data = await runComposedAdminGraphql<{ [deleted: `d${number}`]: SavedItemsDeletedFragment | null }>(
    admin,
    query,
    Object.fromEntries(ids.map((id, index) => [`d${index}`, id])),
    options,
  );
  return new Set(
    ids.filter((_, index) => {
      const result = data[`d${index}`];
      return (
        Boolean(result?.deletedId) || Boolean(result?.userErrors.some((error) => error.code === "RECORD_NOT_FOUND"))
      );
    }),
  );
}

const DELETED_FRAGMENT = `#graphql
  fragment SavedItemsDeleted on MetaobjectDeletePayload {
    deletedId
    userErrors { field message code }
  }`;
