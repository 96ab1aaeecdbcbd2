import {
  platformRefusal,
  runAdminGraphql,
  runComposedAdminGraphql,
  type AdminGraphqlClient,
} from "~/platform/admin-graphql.server";
import { storedStrings } from "./stored-values";
import type { SavedItemsNamedListFragment, SavedItemsShareReadListQuery } from "~/types/admin.generated";
import {
  DIRECTORY_FIELDS,
  parseStoredJson,
  SAVE_LIST_DIRECTORY_TYPE,
  SAVE_LIST_TYPE,
  storedJson,
  toFields,
} from "./fields";
import { listFields, toStoredList, type ListFieldsWrite, type StoredList } from "./list-values";

/**
 * The save_list documents of share links and named lists, and the customer's directory beside
 * them (the list state's own reads and writes of lists are in metaobject-store.server.ts,
 * retention's in retained-list.server.ts).
 */

// Share links (docs/reach.md).

type ShareListNode = NonNullable<SavedItemsShareReadListQuery["metaobjectByHandle"]>;

/** A list as share links see it, with its handle (what the shared page's cache keys). */
export type ShareList = StoredList & { handle: string };

const toShareList = (node: ShareListNode): ShareList => ({ ...toStoredList(node), handle: node.handle });

const SHARE_READ_LIST = `#graphql
  query SavedItemsShareReadList($handle: MetaobjectHandleInput!) {
    metaobjectByHandle(handle: $handle) { id handle fields { key value } }
  }`;

const UPDATE_SHARE = `#graphql
  mutation SavedItemsShareUpdate($id: ID!, $metaobject: MetaobjectUpdateInput!) {
    metaobjectUpdate(id: $id, metaobject: $metaobject) { metaobject { id } userErrors { field message code } }
  }`;

const FIND_SHARED = `#graphql
  query SavedItemsFindShared($type: String!, $query: String!) {
    metaobjects(type: $type, first: 1, query: $query) { nodes { id handle fields { key value } } }
  }`;

/** A list by its handle, with its fields; null when there is none. */
export async function readShareList(admin: AdminGraphqlClient, handle: string): Promise<ShareList | null> {
  const data = await runAdminGraphql(admin, SHARE_READ_LIST, { handle: { type: SAVE_LIST_TYPE, handle } });
  return data.metaobjectByHandle ? toShareList(data.metaobjectByHandle) : null;
}

/** Writes a list's share link (null: none). */
export async function writeShareFields(
  admin: AdminGraphqlClient,
  id: string,
  share: { hash: string; name: string | null } | null,
): Promise<void> {
  const fields = toFields(listFields({ share }));
  const data = await runAdminGraphql(admin, UPDATE_SHARE, { id, metaobject: { fields } });
  if (!data.metaobjectUpdate?.metaobject) {
    throw platformRefusal("The platform refused to update the list; retry shortly", data.metaobjectUpdate?.userErrors);
  }
}

/** The lists search finds with this share token hash (at most one; search may match on a hash a list no longer has). */
export async function searchSharedLists(admin: AdminGraphqlClient, hash: string): Promise<ShareList[]> {
  const data = await runAdminGraphql(admin, FIND_SHARED, {
    type: SAVE_LIST_TYPE,
    query: `fields.share_token_hash:"${hash}"`,
  });
  return data.metaobjects.nodes.map(toShareList);
}

// Named lists (docs/decisions/0011-named-lists.md) and the customer's directory.

/** A list as the list operations see it, with when it was made and last written. */
export type NamedList = StoredList & { createdAt: string; updatedAt: string };

const toNamedList = (node: SavedItemsNamedListFragment): NamedList => ({
  ...toStoredList(node),
  createdAt: node.createdAt,
  updatedAt: node.updatedAt,
});

const NAMED_LIST_FRAGMENT = `#graphql
  fragment SavedItemsNamedList on Metaobject {
    id
    createdAt
    updatedAt
    fields { key value }
  }`;

const READ_NAMED_LIST = `#graphql
  query SavedItemsReadNamedList($list: MetaobjectHandleInput!, $directory: MetaobjectHandleInput!) {
    list: metaobjectByHandle(handle: $list) { ...SavedItemsNamedList }
    directory: metaobjectByHandle(handle: $directory) {
      namedLists: field(key: "named_lists") { value }
      lists: field(key: "lists") { value }
    }
  }
  ${NAMED_LIST_FRAGMENT}` as const;

const WRITE_NAMED_LIST = `#graphql
  mutation SavedItemsWriteNamedList(
    $list: MetaobjectHandleInput!
    $listFields: MetaobjectUpsertInput!
    $directory: MetaobjectHandleInput!
    $directoryFields: MetaobjectUpsertInput!
    $writeDirectory: Boolean!
  ) {
    list: metaobjectUpsert(handle: $list, metaobject: $listFields) {
      metaobject { ...SavedItemsNamedList }
      userErrors { field message code }
    }
    directory: metaobjectUpsert(handle: $directory, metaobject: $directoryFields) @include(if: $writeDirectory) {
      metaobject { id }
      userErrors { field message code }
    }
  }
  ${NAMED_LIST_FRAGMENT}` as const;

const READ_LISTS = `#graphql
  query SavedItemsReadLists(
    $type: String!
    $query: String!
    $first: Int!
    $after: String
    $directory: MetaobjectHandleInput!
    $withDirectory: Boolean!
  ) {
    metaobjects(type: $type, query: $query, first: $first, after: $after, sortKey: "id", reverse: true) {
      edges { cursor node { ...SavedItemsNamedList } }
      pageInfo { hasNextPage }
    }
    directory: metaobjectByHandle(handle: $directory) @include(if: $withDirectory) {
      lists: field(key: "lists") { value }
    }
  }
  ${NAMED_LIST_FRAGMENT}` as const;

/** The customer's directory: the contexts of its named lists, and every list it has stored (the bound counts them). */
export interface ListDirectoryRecord {
  named: string[];
  lists: string[];
}

/** A list (null: none) and the customer's directory, by handle, in one request. */
export async function readNamedListRecords(
  admin: AdminGraphqlClient,
  listHandle: string,
  directoryHandle: string,
): Promise<{ list: NamedList | null; directory: ListDirectoryRecord }> {
  const data = await runAdminGraphql(admin, READ_NAMED_LIST, {
    list: { type: SAVE_LIST_TYPE, handle: listHandle },
    directory: { type: SAVE_LIST_DIRECTORY_TYPE, handle: directoryHandle },
  });
  return {
    list: data.list ? toNamedList(data.list) : null,
    directory: {
      named: storedStrings(parseStoredJson(data.directory?.namedLists?.value ?? null)),
      lists: storedStrings(parseStoredJson(data.directory?.lists?.value ?? null)),
    },
  };
}

/**
 * Writes a list's fields and, when given, the directory's named lists (and its stored lists, when
 * given), in one request; answers each record's payload as the platform gave it.
 */
export async function writeNamedListRecords(
  admin: AdminGraphqlClient,
  write: {
    listHandle: string;
    directoryHandle: string;
    customerGid: string;
    fields: ListFieldsWrite;
    directory: { named: readonly string[]; lists?: readonly string[] } | null;
  },
) {
  const { directory } = write;
  const data = await runAdminGraphql(admin, WRITE_NAMED_LIST, {
    list: { type: SAVE_LIST_TYPE, handle: write.listHandle },
    listFields: { fields: toFields(listFields(write.fields)) },
    directory: { type: SAVE_LIST_DIRECTORY_TYPE, handle: write.directoryHandle },
    directoryFields: {
      fields: toFields({
        [DIRECTORY_FIELDS.customerId]: write.customerGid,
        [DIRECTORY_FIELDS.namedLists]: storedJson(directory?.named ?? []),
        ...(directory?.lists ? { [DIRECTORY_FIELDS.lists]: storedJson(directory.lists) } : {}),
      }),
    },
    writeDirectory: directory !== null,
  });
  const list = data.list?.metaobject;
  return {
    list: list ? toNamedList(list) : null,
    listErrors: data.list?.userErrors ?? [],
    directoryWritten: Boolean(data.directory?.metaobject),
    directoryErrors: data.directory?.userErrors ?? [],
  };
}

/**
 * One page of a customer's lists from search, newest first (search may lag behind writes), and,
 * when a directory handle is given, in the same request, the lists that directory names (by
 * handle: current).
 */
export async function searchCustomerLists(
  admin: AdminGraphqlClient,
  customerGid: string,
  page: { first: number; after: string | null; directoryHandle?: string },
) {
  const data = await runAdminGraphql(admin, READ_LISTS, {
    type: SAVE_LIST_TYPE,
    query: `fields.customer_id:"${customerGid}"`,
    first: page.first,
    after: page.after,
    directory: { type: SAVE_LIST_DIRECTORY_TYPE, handle: page.directoryHandle ?? "" },
    withDirectory: page.directoryHandle !== undefined,
  });
  return {
    edges: data.metaobjects.edges.map((edge) => ({ cursor: edge.cursor, list: toNamedList(edge.node) })),
    pageInfo: data.metaobjects.pageInfo,
    directoryLists:
      page.directoryHandle === undefined ? null : storedStrings(parseStoredJson(data.directory?.lists?.value ?? null)),
  };
}

/** Lists by handle (current), in one request; a handle without a record is left out. */
export async function readNamedListsByHandle(
  admin: AdminGraphqlClient,
  handles: readonly string[],
): Promise<NamedList[]> {
  const query = `
    query SavedItemsReadNamedLists(${handles.map((_, index) => `$l${index}: MetaobjectHandleInput!`).join(", ")}) {
      ${handles.map((_, index) => `l${index}: metaobjectByHandle(handle: $l${index}) { ...SavedItemsNamedList }`).join("\n      ")}
    }
    ${NAMED_LIST_FRAGMENT}`;
  const data = await runComposedAdminGraphql<{ [list: `l${number}`]: SavedItemsNamedListFragment | null }>(
    admin,
    query,
    Object.fromEntries(handles.map((handle, index) => [`l${index}`, { type: SAVE_LIST_TYPE, handle }])),
  );
  return handles.flatMap((_, index) => {
    const node = data[`l${index}`];
    return node ? [toNamedList(node)] : [];
  });
}
