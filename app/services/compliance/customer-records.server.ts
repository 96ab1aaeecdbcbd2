import { ServiceError } from "~/lib/errors";
import type { AdminGraphqlClient } from "~/platform/admin-graphql.server";
import { parseStoredJson, SAVE_ITEM_TYPE, SAVE_LIST_DIRECTORY_TYPE, SAVE_LIST_TYPE } from "~/services/records/fields";
import {
  bulkDeleteRecords,
  customerItemsPage,
  customerListsPage,
  customerRecordIdsPage,
  type StoredItemFields,
} from "~/services/records/customer-records.server";

/** Customer GIDs come from the platform's numeric ids; anything else must never reach a search query. */
export function customerGidFromId(id: unknown): string {
  const text = String(id ?? "");
  if (!/^\d+$/.test(text)) throw new ServiceError("VALIDATION_ERROR", `Not a customer id: ${text || "(missing)"}`);
  return `gid://shopify/Customer/${text}`;
}

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

/** A save_item as stored, its snapshot parsed where it is JSON. */
export type SavedItemExport = Omit<StoredItemFields, "snapshot"> & { snapshot: unknown };

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
  const lists: SavedListExport[] = [];
  for await (const nodes of pages((after) => customerListsPage(admin, customerGid, EXPORT_PAGE_SIZE, after))) {
    lists.push(
      ...nodes.map((node) => ({ id: node.id, context: node.context?.value ?? null, updatedAt: node.updatedAt })),
    );
  }
  const items: SavedItemExport[] = [];
  for await (const nodes of pages((after) => customerItemsPage(admin, customerGid, EXPORT_PAGE_SIZE, after))) {
    items.push(
      // A data request reports what is stored, as stored: every field by its key.
      ...nodes.map(({ snapshot, ...item }) => ({ ...item, snapshot: parseStoredJson(snapshot) ?? snapshot })),
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
  for (const [type, counter] of [
    [SAVE_ITEM_TYPE, "items"],
    [SAVE_LIST_TYPE, "lists"],
    // The directory holds only keys of the customer's lists (every customer who saved has one): deleted, not counted.
    [SAVE_LIST_DIRECTORY_TYPE, undefined],
  ] as const) {
    for await (const nodes of pages((after) =>
      customerRecordIdsPage(admin, type, customerGid, DELETE_PAGE_SIZE, after),
    )) {
      if (nodes.length === 0) continue;
      const ids = nodes.map((node) => node.id);
      const payload = await bulkDeleteRecords(admin, ids);
      const errors = payload?.userErrors ?? [];
      if (!payload || errors.length > 0) {
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
