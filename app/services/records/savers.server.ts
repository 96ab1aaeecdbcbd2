import { runAdminGraphql, type AdminGraphqlClient, type AdminGraphqlOptions } from "~/platform/admin-graphql.server";
import type { SavedItemsFindSaversQuery } from "~/types/admin.generated";
import { fieldValue, SAVE_ITEM_FIELDS, SAVE_ITEM_TYPE } from "./fields";
import { SAVE_ITEM_FRAGMENT, toSaveItemRecord } from "./metaobject-store.server";

/** Items one request reads. */
export const SAVERS_PER_PAGE = 100;

const FIND_SAVERS = `#graphql
  query SavedItemsFindSavers($type: String!, $query: String!, $after: String) {
    metaobjects(type: $type, first: 100, after: $after, query: $query) {
      edges { cursor node { ...SaveItemNode } }
      pageInfo { hasNextPage }
    }
  }
  ${SAVE_ITEM_FRAGMENT}` as const;

/**
 * The customers with an active save of the entity (any list), by the admin-filterable entity_gid:
 * one request per SAVERS_PER_PAGE items, at most maxPages of them. Goes through the platform's
 * search, so a write younger than the search lag may be missing. `options` go with every page's request.
 */
export async function activeSavers(
  admin: AdminGraphqlClient,
  entityGid: string,
  maxPages = Number.POSITIVE_INFINITY,
  options: AdminGraphqlOptions = {},
): Promise<Set<string>> {
  const customers = new Set<string>();
  let after: string | null = null;
  for (let page = 0; page < maxPages; page++) {
    // Annotated: `after` feeds the call and is read back from its answer.
    const data: SavedItemsFindSaversQuery = await runAdminGraphql(
      admin,
      FIND_SAVERS,
      { type: SAVE_ITEM_TYPE, query: `fields.entity_gid:"${entityGid}" AND fields.status:"active"`, after },
      options,
    );
    for (const edge of data.metaobjects.edges) {
      const customerGid = fieldValue(edge.node.fields, SAVE_ITEM_FIELDS.customerId);
      if (customerGid && toSaveItemRecord(edge.node).status === "active") customers.add(customerGid);
    }
    if (!data.metaobjects.pageInfo.hasNextPage) break;
    after = data.metaobjects.edges.at(-1)?.cursor ?? null;
  }
  return customers;
}
