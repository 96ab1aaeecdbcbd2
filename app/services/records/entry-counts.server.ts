import { runAdminGraphql, type AdminGraphqlClient } from "~/platform/admin-graphql.server";
import { INSIGHTS_TYPE, SAVE_ITEM_TYPE, SAVE_LIST_DIRECTORY_TYPE, SAVE_LIST_TYPE } from "./fields";

// One aliased root field per definition: one request per view of the page, which is all an admin
// page needs (no cache: the count is the platform's and current).
const STORAGE_USAGE = `#graphql
  query SavedItemsStorageUsage($items: String!, $lists: String!, $directories: String!, $insights: String!) {
    items: metaobjectDefinitionByType(type: $items) { metaobjectsCount }
    lists: metaobjectDefinitionByType(type: $lists) { metaobjectsCount }
    directories: metaobjectDefinitionByType(type: $directories) { metaobjectsCount }
    insights: metaobjectDefinitionByType(type: $insights) { metaobjectsCount }
  }` as const;

/** The entries each of the app's definitions holds, by type, in one request. */
export async function countRecordEntries(
  admin: AdminGraphqlClient,
): Promise<
  Record<typeof SAVE_ITEM_TYPE | typeof SAVE_LIST_TYPE | typeof SAVE_LIST_DIRECTORY_TYPE | typeof INSIGHTS_TYPE, number>
> {
  const data = await runAdminGraphql(admin, STORAGE_USAGE, {
    items: SAVE_ITEM_TYPE,
    lists: SAVE_LIST_TYPE,
    directories: SAVE_LIST_DIRECTORY_TYPE,
    insights: INSIGHTS_TYPE,
  });
  // A definition the platform does not have yet (before the app's configuration is deployed) holds nothing.
  const count = (definition: { metaobjectsCount: number } | null | undefined) => definition?.metaobjectsCount ?? 0;
  return {
    [SAVE_ITEM_TYPE]: count(data.items),
    [SAVE_LIST_TYPE]: count(data.lists),
    [SAVE_LIST_DIRECTORY_TYPE]: count(data.directories),
    [INSIGHTS_TYPE]: count(data.insights),
  };
}
