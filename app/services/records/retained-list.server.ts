import { runAdminGraphql, type AdminGraphqlClient, type AdminGraphqlOptions } from "~/platform/admin-graphql.server";
import type { SavedItemsRetainedListFragment } from "~/types/admin.generated";
import {
  DIRECTORY_FIELDS,
  parseStoredJson,
  SAVE_LIST_DIRECTORY_TYPE,
  SAVE_LIST_TYPE,
  storedJson,
  toFields,
} from "./fields";
import { listFields, toStoredList, type StoredList } from "./list-values";
import { storedStrings, type RemovedItems } from "./stored-values";

// Retention (docs/decisions/0017-bounded-storage.md): lists read a page at a time, each then read,
// written or dropped by handle under its locks.

/** A list as retention sees it, with when it was last written. */
export type RetainedListRecord = StoredList & { updatedAtMs: number };

const toRetainedListRecord = (node: SavedItemsRetainedListFragment): RetainedListRecord => ({
  ...toStoredList(node),
  updatedAtMs: Date.parse(node.updatedAt),
});

const RETAINED_LIST_FRAGMENT = `#graphql
  fragment SavedItemsRetainedList on Metaobject {
    id
    updatedAt
    fields { key value }
  }`;

const READ_LIST_PAGE = `#graphql
  query SavedItemsRetentionPage($type: String!, $first: Int!, $after: String) {
    metaobjects(type: $type, first: $first, after: $after, sortKey: "id") {
      edges { cursor node { ...SavedItemsRetainedList } }
      pageInfo { hasNextPage }
    }
  }
  ${RETAINED_LIST_FRAGMENT}` as const;

const RETENTION_READ_LIST = `#graphql
  query SavedItemsRetentionList($list: MetaobjectHandleInput!, $directory: MetaobjectHandleInput!) {
    list: metaobjectByHandle(handle: $list) { ...SavedItemsRetainedList }
    directory: metaobjectByHandle(handle: $directory) { lists: field(key: "lists") { value } }
  }
  ${RETAINED_LIST_FRAGMENT}` as const;

const WRITE_REMOVED = `#graphql
  mutation SavedItemsRetentionWriteList($list: MetaobjectHandleInput!, $fields: MetaobjectUpsertInput!) {
    metaobjectUpsert(handle: $list, metaobject: $fields) {
      metaobject { id }
      userErrors { field message code }
    }
  }` as const;

const DROP_LIST = `#graphql
  mutation SavedItemsRetentionDropList(
    $id: ID!
    $directory: MetaobjectHandleInput!
    $directoryFields: MetaobjectUpsertInput!
  ) {
    metaobjectDelete(id: $id) {
      deletedId
      userErrors { field message code }
    }
    directory: metaobjectUpsert(handle: $directory, metaobject: $directoryFields) {
      metaobject { id }
      userErrors { field message code }
    }
  }` as const;

/** One page of the shop's lists, in id order. */
export async function readRetentionPage(
  admin: AdminGraphqlClient,
  first: number,
  after: string | null,
  options: AdminGraphqlOptions,
) {
  const data = await runAdminGraphql(admin, READ_LIST_PAGE, { type: SAVE_LIST_TYPE, first, after }, options);
  return {
    lists: data.metaobjects.edges.map((edge) => toRetainedListRecord(edge.node)),
    endCursor: data.metaobjects.edges.at(-1)?.cursor ?? null,
    hasNextPage: data.metaobjects.pageInfo.hasNextPage,
  };
}

/** A list (null: none) and the lists its customer's directory counts, by handle: current. */
export async function readRetainedList(
  admin: AdminGraphqlClient,
  listHandle: string,
  directoryHandle: string,
  options: AdminGraphqlOptions,
): Promise<{ list: RetainedListRecord | null; directoryLists: string[] }> {
  const read = await runAdminGraphql(
    admin,
    RETENTION_READ_LIST,
    {
      list: { type: SAVE_LIST_TYPE, handle: listHandle },
      directory: { type: SAVE_LIST_DIRECTORY_TYPE, handle: directoryHandle },
    },
    options,
  );
  return {
    list: read.list ? toRetainedListRecord(read.list) : null,
    directoryLists: storedStrings(parseStoredJson(read.directory?.lists?.value ?? null)),
  };
}

/** Writes a list's removed items; says whether the platform wrote them. */
export async function writeRemovedItems(
  admin: AdminGraphqlClient,
  listHandle: string,
  removed: RemovedItems,
  options: AdminGraphqlOptions,
): Promise<boolean> {
  const result = await runAdminGraphql(
    admin,
    WRITE_REMOVED,
    {
      list: { type: SAVE_LIST_TYPE, handle: listHandle },
      fields: { fields: toFields(listFields({ removed })) },
    },
    options,
  );
  return Boolean(result.metaobjectUpsert?.metaobject);
}

/** Deletes a list and writes its customer's directory without it, in one request; says whether the list is deleted. */
export async function dropRetainedList(
  admin: AdminGraphqlClient,
  drop: { id: string; directoryHandle: string; customerGid: string; lists: readonly string[] },
  options: AdminGraphqlOptions,
): Promise<boolean> {
  const result = await runAdminGraphql(
    admin,
    DROP_LIST,
    {
      id: drop.id,
      directory: { type: SAVE_LIST_DIRECTORY_TYPE, handle: drop.directoryHandle },
      directoryFields: {
        fields: [
          { key: DIRECTORY_FIELDS.customerId, value: drop.customerGid },
          { key: DIRECTORY_FIELDS.lists, value: storedJson(drop.lists) },
        ],
      },
    },
    options,
  );
  return Boolean(result.metaobjectDelete?.deletedId);
}
