import { ServiceError } from "~/lib/errors";
import { runAdminGraphql, type AdminGraphqlClient } from "~/platform/admin-graphql.server";
import {
  fieldValue,
  parseStoredJson,
  SAVE_ITEM_FIELDS,
  SAVE_ITEM_TYPE,
  SAVE_LIST_DIRECTORY_TYPE,
  SAVE_LIST_TYPE,
} from "~/services/records/fields";
import { SAVE_ITEM_FRAGMENT } from "~/services/records/metaobject-store.server";

// Every metaobject type of the app carries the customer's GID in an admin-filterable customer_id field (see
// shopify.app.toml), which is how every record of one customer is found without a scan.
const customerQuery = (customerGid: string) => `fields.customer_id:"${customerGid}"`;

/** Customer GIDs come from the platform's numeric ids; anything else must never reach a search query. */
export function customerGidFromId(id: unknown): string {
  const text = String(id ?? "");
  if (!/^\d+$/.test(text)) throw new ServiceError("VALIDATION_ERROR", `Not a customer id: ${text || "(missing)"}`);
  return `gid://shopify/Customer/${text}`;
}

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

// Page sizes keep each request well under the platform's single-query cost limit of 1,000.
const EXPORT_PAGE_SIZE = 50;
const DELETE_PAGE_SIZE = 100;

/** Every page of a metaobjects connection, in id order, each read by `readPage` from its cursor. */
async function* pages<Node>(
  readPage: (after: string | null) => Promise<{
    nodes: Node[];
    pageInfo: { hasNextPage: boolean; endCursor?: string | null };
  }>,
): AsyncGenerator<Node[]> {
  let after: string | null = null;
  for (;;) {
    const page = await readPage(after);
    yield page.nodes;
    if (!page.pageInfo.hasNextPage || !page.pageInfo.endCursor) return;
    after = page.pageInfo.endCursor;
  }
}

export interface SavedItemExport {
  id: string;
  context: string | null;
  entityType: string | null;
  entityGid: string | null;
  status: string | null;
  source: string | null;
  savedAt: string | null;
  updatedAt: string;
  snapshot: unknown;
}

export interface SavedListExport {
  id: string;
  context: string | null;
  updatedAt: string;
}

/** customers/data_request: everything the app stores about one customer, active and removed saves alike. */
export async function collectCustomerRecords(
  admin: AdminGraphqlClient,
  customerGid: string,
): Promise<{ lists: SavedListExport[]; items: SavedItemExport[] }> {
  const query = customerQuery(customerGid);
  const lists: SavedListExport[] = [];
  for await (const nodes of pages((after) =>
    runAdminGraphql(admin, CUSTOMER_LISTS, { type: SAVE_LIST_TYPE, query, first: EXPORT_PAGE_SIZE, after }).then(
      (data) => data.metaobjects,
    ),
  )) {
    lists.push(
      ...nodes.map((node) => ({ id: node.id, context: node.context?.value ?? null, updatedAt: node.updatedAt })),
    );
  }
  const items: SavedItemExport[] = [];
  for await (const nodes of pages((after) =>
    runAdminGraphql(admin, CUSTOMER_ITEMS, { type: SAVE_ITEM_TYPE, query, first: EXPORT_PAGE_SIZE, after }).then(
      (data) => data.metaobjects,
    ),
  )) {
    items.push(
      ...nodes.map((node) => {
        // A data request reports what is stored, as stored: every field by its key.
        const stored = (key: string) => fieldValue(node.fields, key);
        const snapshot = stored(SAVE_ITEM_FIELDS.snapshot);
        return {
          id: node.id,
          context: stored(SAVE_ITEM_FIELDS.context),
          entityType: stored(SAVE_ITEM_FIELDS.entityType),
          entityGid: stored(SAVE_ITEM_FIELDS.entityGid),
          status: stored(SAVE_ITEM_FIELDS.status),
          source: stored(SAVE_ITEM_FIELDS.source),
          savedAt: stored(SAVE_ITEM_FIELDS.savedAt),
          updatedAt: node.updatedAt,
          snapshot: parseStoredJson(snapshot) ?? snapshot,
        };
      }),
    );
  }
  return { lists, items };
}

/**
 * customers/redact: deletes every save_item, then every save_list, of one customer, page by page
 * and by id. Nothing else is touched: the query selects on the customer's GID only. Running it
 * again is harmless and finishes whatever an interrupted run left behind.
 */
export async function deleteCustomerRecords(
  admin: AdminGraphqlClient,
  customerGid: string,
): Promise<{ items: number; lists: number }> {
  const deleted = { items: 0, lists: 0 };
  // Items first: a run interrupted between the phases leaves lists, which hold no saved entity.
  for (const [type, document, counter] of [
    [SAVE_ITEM_TYPE, CUSTOMER_ITEM_IDS, "items"],
    [SAVE_LIST_TYPE, CUSTOMER_LIST_IDS, "lists"],
    // The directory holds only keys of the customer's lists (every customer who saved has one): deleted, not counted.
    [SAVE_LIST_DIRECTORY_TYPE, CUSTOMER_LIST_IDS, undefined],
  ] as const) {
    for await (const nodes of pages((after) =>
      runAdminGraphql(admin, document, {
        type,
        query: customerQuery(customerGid),
        first: DELETE_PAGE_SIZE,
        after,
      }).then((data) => data.metaobjects),
    )) {
      if (nodes.length === 0) continue;
      const ids = nodes.map((node) => node.id);
      const data = await runAdminGraphql(admin, DELETE_RECORDS, { ids });
      const errors = data.metaobjectBulkDelete?.userErrors ?? [];
      if (!data.metaobjectBulkDelete || errors.length > 0) {
        throw new ServiceError(
          "PLATFORM_UPSTREAM_ERROR",
          `Deleting ${ids.length} ${type} records failed: ${errors.map((e) => e.message).join("; ") || "no payload"}`,
        );
      }
      if (counter) deleted[counter] += ids.length;
    }
  }
  return deleted;
}
