import { runAdminGraphql, type AdminGraphqlClient } from "~/platform/admin-graphql.server";
import { fieldValue, SAVE_ITEM_FIELDS, SAVE_ITEM_TYPE, SAVE_LIST_DIRECTORY_TYPE, SAVE_LIST_TYPE } from "./fields";
import { SAVE_ITEM_FRAGMENT } from "./metaobject-store.server";

/**
 * Every record of one customer, by type, for the compliance webhooks (data requests and redaction).
 */

// Every metaobject type of the app carries the customer's GID in an admin-filterable customer_id field (see
// shopify.app.toml), which is how every record of one customer is found without a scan.
const customerQuery = (customerGid: string) => `fields.customer_id:"${customerGid}"`;

const RECORD_IDS_FRAGMENT = `#graphql
  fragment SavedItemsRecordIds on MetaobjectConnection {
    nodes { id }
    pageInfo { hasNextPage endCursor }
  }`;

const CUSTOMER_ITEMS = `#graphql
  query SavedItemsComplianceCustomerItems($type: String!, $query: String!, $first: Int!, $after: String) {
    metaobjects(type: $type, query: $query, first: $first, after: $after) {
      nodes { ...SaveItemNode }
      pageInfo { hasNextPage endCursor }
    }
  }
  ${SAVE_ITEM_FRAGMENT}` as const;

const CUSTOMER_LISTS = `#graphql
  query SavedItemsComplianceCustomerLists($type: String!, $query: String!, $first: Int!, $after: String) {
    metaobjects(type: $type, query: $query, first: $first, after: $after) {
      nodes {
        id
        updatedAt
        context: field(key: "context") { value }
      }
      pageInfo { hasNextPage endCursor }
    }
  }`;

// One document per type (same shape), so logs and the platform's request records tell the phases apart.
const CUSTOMER_ITEM_IDS = `#graphql
  query SavedItemsComplianceCustomerItemIds($type: String!, $query: String!, $first: Int!, $after: String) {
    metaobjects(type: $type, query: $query, first: $first, after: $after) { ...SavedItemsRecordIds }
  }
  ${RECORD_IDS_FRAGMENT}` as const;
const CUSTOMER_LIST_IDS = `#graphql
  query SavedItemsComplianceCustomerListIds($type: String!, $query: String!, $first: Int!, $after: String) {
    metaobjects(type: $type, query: $query, first: $first, after: $after) { ...SavedItemsRecordIds }
  }
  ${RECORD_IDS_FRAGMENT}` as const;

const DELETE_RECORDS = `#graphql
  mutation SavedItemsComplianceDeleteRecords($ids: [ID!]!) {
    metaobjectBulkDelete(where: { ids: $ids }) {
      job { id }
      userErrors { field message code }
    }
  }`;

/** One page of the customer's lists, in id order, with their context. */
export async function customerListsPage(
  admin: AdminGraphqlClient,
  customerGid: string,
  first: number,
  after: string | null,
) {
  const variables = { type: SAVE_LIST_TYPE, query: customerQuery(customerGid), first, after };
  return (await runAdminGraphql(admin, CUSTOMER_LISTS, variables)).metaobjects;
}

/** A save_item as stored: every field by its key, unchecked (what a data request reports). */
export interface StoredItemFields {
  id: string;
  updatedAt: string;
  context: string | null;
  entityType: string | null;
  entityGid: string | null;
  status: string | null;
  source: string | null;
  savedAt: string | null;
  /** The stored JSON text. */
  snapshot: string | null;
}

/** One page of the customer's save_items, in id order, with every field. */
export async function customerItemsPage(
  admin: AdminGraphqlClient,
  customerGid: string,
  first: number,
  after: string | null,
) {
  const variables = { type: SAVE_ITEM_TYPE, query: customerQuery(customerGid), first, after };
  const page = (await runAdminGraphql(admin, CUSTOMER_ITEMS, variables)).metaobjects;
  return {
    pageInfo: page.pageInfo,
    nodes: page.nodes.map((node): StoredItemFields => {
      const stored = (key: string) => fieldValue(node.fields, key);
      return {
        id: node.id,
        context: stored(SAVE_ITEM_FIELDS.context),
        entityType: stored(SAVE_ITEM_FIELDS.entityType),
        entityGid: stored(SAVE_ITEM_FIELDS.entityGid),
        status: stored(SAVE_ITEM_FIELDS.status),
        source: stored(SAVE_ITEM_FIELDS.source),
        savedAt: stored(SAVE_ITEM_FIELDS.savedAt),
        updatedAt: node.updatedAt,
        snapshot: stored(SAVE_ITEM_FIELDS.snapshot),
      };
    }),
  };
}

/** One page of the ids of the customer's records of one type, in id order. */
export async function customerRecordIdsPage(
  admin: AdminGraphqlClient,
  type: typeof SAVE_ITEM_TYPE | typeof SAVE_LIST_TYPE | typeof SAVE_LIST_DIRECTORY_TYPE,
  customerGid: string,
  first: number,
  after: string | null,
) {
  const variables = { type, query: customerQuery(customerGid), first, after };
  const document = type === SAVE_ITEM_TYPE ? CUSTOMER_ITEM_IDS : CUSTOMER_LIST_IDS;
  return (await runAdminGraphql(admin, document, variables)).metaobjects;
}

/** Deletes records by id in one metaobjectBulkDelete (a background job); answers its payload. */
export async function bulkDeleteRecords(admin: AdminGraphqlClient, ids: readonly string[]) {
  return (await runAdminGraphql(admin, DELETE_RECORDS, { ids: [...ids] })).metaobjectBulkDelete;
}
