import { runAdminGraphql, type AdminGraphqlClient } from "~/platform/admin-graphql.server";

/** What the page shows next to a most-saved product or variant: the catalogue's current state. */
export interface CatalogueEntry {
  gid: string;
  title: string;
  /** Decimal string; for a product its lowest variant price. */
  price: string;
  currencyCode: string;
  available: boolean;
}

const NODES = `#graphql
  query SavedItemsInsightsCatalogue($ids: [ID!]!) {
    shop { currencyCode }
    nodes(ids: $ids) {
      id
      ... on Product {
        title
        status
        tracksInventory
        totalInventory
        priceRangeV2 { minVariantPrice { amount currencyCode } }
      }
      ... on ProductVariant { displayName price availableForSale }
    }
  }`;

/**
 * Current title, price and availability of the given products and variants, in ONE request
 * (needs read_products). An id the catalogue no longer has (a deleted product) is left out.
 */
export async function readCatalogueEntries(
  admin: AdminGraphqlClient,
  gids: readonly string[],
): Promise<Record<string, CatalogueEntry>> {
  if (gids.length === 0) return {};
  const data = await runAdminGraphql(admin, NODES, { ids: [...new Set(gids)] });
  const entries: Record<string, CatalogueEntry> = {};
  for (const node of data.nodes) {
    if (node && "displayName" in node) {
      entries[node.id] = {
        gid: node.id,
        title: node.displayName,
        price: node.price,
        // A variant's Money has no currency of its own: it is the shop's.
        currencyCode: data.shop.currencyCode,
        available: node.availableForSale,
      };
    } else if (node && "priceRangeV2" in node) {
      entries[node.id] = {
        gid: node.id,
        title: node.title,
        price: node.priceRangeV2.minVariantPrice.amount,
        currencyCode: node.priceRangeV2.minVariantPrice.currencyCode,
        // Untracked inventory reports 0 yet sells, so stock only decides for tracked products.
        available: node.status === "ACTIVE" && (!node.tracksInventory || (node.totalInventory ?? 0) > 0),
      };
    }
  }
  return entries;
}
