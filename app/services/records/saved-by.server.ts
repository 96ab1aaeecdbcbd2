import { runAdminGraphql, type AdminGraphqlClient, type AdminGraphqlOptions } from "~/platform/admin-graphql.server";

/** The product metafield the theme block reads (declared in shopify.app.toml with storefront access). */
export const SAVED_BY_METAFIELD = { namespace: "$app", key: "saved_by", type: "number_integer" } as const;

const SET_SAVED_BY = `#graphql
  mutation SavedItemsSetSavedBy($metafields: [MetafieldsSetInput!]!) {
    metafieldsSet(metafields: $metafields) {
      metafields { id }
      userErrors { field message code }
    }
  }`;

const EXISTING_PRODUCTS = `#graphql
  query SavedItemsExistingProducts($ids: [ID!]!) {
    nodes(ids: $ids) {
      id
    }
  }`;

const DELETE_SAVED_BY = `#graphql
  mutation SavedItemsDeleteSavedBy($metafields: [MetafieldIdentifierInput!]!) {
    metafieldsDelete(metafields: $metafields) {
      deletedMetafields { ownerId }
      userErrors { field message }
    }
  }`;

/**
 * The products of `productGids` the shop still has, by one nodes(ids:) read (read_products): a
 * shopper can save a made-up GID, and a merchant can delete a saved product.
 */
export async function existingProducts(
  admin: AdminGraphqlClient,
  productGids: readonly string[],
  options: AdminGraphqlOptions,
): Promise<Set<string>> {
  if (productGids.length === 0) return new Set();
  const data = await runAdminGraphql(admin, EXISTING_PRODUCTS, { ids: [...productGids] }, options);
  return new Set(data.nodes.flatMap((node) => (node ? [node.id] : [])));
}

/** Writes products' counts in one metafieldsSet, which is atomic: answers its user errors (none: all written). */
export async function setSavedByCounts(
  admin: AdminGraphqlClient,
  counts: readonly { productGid: string; value: number }[],
  options: AdminGraphqlOptions,
) {
  const { namespace, key, type } = SAVED_BY_METAFIELD;
  const metafields = counts.map(({ productGid, value }) => ({
    ownerId: productGid,
    namespace,
    key,
    type,
    value: String(value),
  }));
  const data = await runAdminGraphql(admin, SET_SAVED_BY, { metafields }, options);
  return data.metafieldsSet?.userErrors ?? [];
}

/** Deletes products' counts in one metafieldsDelete; answers its user errors. */
export async function deleteSavedByCounts(
  admin: AdminGraphqlClient,
  productGids: readonly string[],
  options: AdminGraphqlOptions,
) {
  const { namespace, key } = SAVED_BY_METAFIELD;
  const metafields = productGids.map((ownerId) => ({ ownerId, namespace, key }));
  const data = await runAdminGraphql(admin, DELETE_SAVED_BY, { metafields }, options);
  return data.metafieldsDelete?.userErrors ?? [];
}
