import { createHash } from "node:crypto";
import { clock } from "~/lib/clock";
import { CoordinatorUnavailableError } from "~/infrastructure/coordination/coordinator.server";
import { getCoordinator } from "~/infrastructure/coordination/shared-coordinator.server";
import { countCacheLookup } from "~/lib/metrics.server";
import { registerProcessCache } from "~/lib/process-caches.server";
import { runAdminGraphql, type AdminGraphqlClient } from "~/platform/admin-graphql.server";
import type { Caller } from "~/services/caller";
import {
  catalogueCard,
  itemCard,
  type CardProductNode,
  type CardVariantNode,
  type CatalogueCard,
} from "./product-cards";
import type { ListItem } from "./schemas";

/**
 * Product cards (decision 0020): what the catalogue says of the products and variants saved
 * items name, read in ONE nodes(ids:) request for every card a page lacks and kept per shop in
 * this process. A card is served only while the versions every instance reads from the
 * coordinator are what they were before it was read: products/update bumps its product's and its
 * variants', inventory_levels/update its inventory item's. A card whose webhook never came is
 * dropped after CARD_TTL_MS: that is the longest a card can be stale.
 */
export const CARD_TTL_MS = 5 * 60_000;
/** Cards beyond this many (all shops) are dropped oldest first; one is a few hundred bytes, so a few MB at most. */
export const MAX_CARDS = 10_000;
/** The version keys per shop: ids share them by hash, so the coordinator keeps a bounded number. */
const VERSION_BUCKETS = 1024;

const CARDS = `#graphql
  query SavedItemsProductCards($ids: [ID!]!) {
    nodes(ids: $ids) {
      id
      ... on Product {
        ...SavedItemsCardProduct
      }
      ... on ProductVariant {
        title
        price
        availableForSale
        inventoryItem { id }
        product { ...SavedItemsCardProduct }
      }
    }
  }
  fragment SavedItemsCardProduct on Product {
    id
    title
    handle
    status
    onlineStoreUrl
    featuredMedia { preview { image { url } } }
    priceRangeV2 { minVariantPrice { amount currencyCode } }
    # A product card's "available" and its Add to cart variant look at its first 10 variants.
    variants(first: 10) { nodes { id availableForSale inventoryItem { id } } }
  }`;

interface CachedCard {
  card: CatalogueCard;
  keys: string[];
  versions: number[];
  expiresAt: number;
}

const cards = new Map<string, CachedCard>();
registerProcessCache(() => cards.clear());

const cacheKey = (shop: string, gid: string) => `${shop}\n${gid}`;
const versionKey = (shop: string, gid: string) =>
  `product-cards:${shop}:${Number.parseInt(createHash("sha256").update(gid).digest("hex").slice(0, 4), 16) % VERSION_BUCKETS}`;

async function readVersions(keys: readonly string[]): Promise<number[] | undefined> {
  if (keys.length === 0) return [];
  try {
    return await getCoordinator().readVersions(keys);
  } catch (error) {
    if (error instanceof CoordinatorUnavailableError) return undefined;
    throw error;
  }
}

/**
 * The catalogue cards of these product and variant GIDs: from the cache where every version it
 * was read under still holds, the rest in one platform request. A coordinator that cannot say
 * counts as a change.
 */
export async function productCards(
  shop: string,
  admin: AdminGraphqlClient,
  gids: readonly string[],
): Promise<Map<string, CatalogueCard>> {
  const wanted = [...new Set(gids)];
  const found = new Map<string, CatalogueCard>();
  if (wanted.length === 0) return found;
  const now = clock.now().getTime();
  const cached = wanted.flatMap((gid) => {
    const entry = cards.get(cacheKey(shop, gid));
    return entry && entry.expiresAt > now ? [{ gid, entry }] : [];
  });
  const current = await readVersions(cached.flatMap(({ entry }) => entry.keys));
  let at = 0;
  for (const { gid, entry } of cached) {
    const versions = current?.slice(at, (at += entry.keys.length));
    if (versions && versions.every((version, index) => version === entry.versions[index])) found.set(gid, entry.card);
  }
  const missing = wanted.filter((gid) => !found.has(gid));
  countCacheLookup("product-cards", missing.length === 0 ? "hit" : "miss");
  if (missing.length > 0) await readCards(shop, admin, missing, now, found);
  return found;
}

/**
 * One request for the missing cards. The versions of the ids asked for are read before it, so a
 * webhook after this read is seen; an inventory item's is known only from the answer and read
 * after it, so an inventory change in between is seen by CARD_TTL_MS at the latest.
 */
async function readCards(
  shop: string,
  admin: AdminGraphqlClient,
  gids: string[],
  now: number,
  found: Map<string, CatalogueCard>,
): Promise<void> {
  const before = await readVersions(gids.map((gid) => versionKey(shop, gid)));
  const data = await runAdminGraphql(admin, CARDS, { ids: gids });
  const nodes = data.nodes as (CardProductNode | CardVariantNode | null)[];
  const inventoryKeys = nodes.map((node) => inventoryItems(node).map((id) => versionKey(shop, id)));
  const after = await readVersions(inventoryKeys.flat());
  let at = 0;
  gids.forEach((gid, index) => {
    const card = catalogueCard(nodes[index] ?? null);
    found.set(gid, card);
    const extra = inventoryKeys[index]!;
    const extraVersions = after?.slice(at, (at += extra.length));
    if (before === undefined || extraVersions === undefined) return;
    remember(cacheKey(shop, gid), {
      card,
      keys: [versionKey(shop, gid), ...extra],
      versions: [before[index]!, ...extraVersions],
      expiresAt: now + CARD_TTL_MS,
    });
  });
}

function inventoryItems(node: CardProductNode | CardVariantNode | null): string[] {
  if (node === null) return [];
  if ("product" in node) return [node.inventoryItem.id];
  return node.variants.nodes.map((variant) => variant.inventoryItem.id);
}

function remember(key: string, entry: CachedCard): void {
  cards.delete(key);
  if (cards.size >= MAX_CARDS) cards.delete(cards.keys().next().value!);
  cards.set(key, entry);
}

/** Items that name a product or a variant, with its current card: one platform request for the page at most. */
export async function withCards<Item extends Pick<ListItem, "entityType" | "entityGid" | "snapshot">>(
  caller: Pick<Caller, "shop" | "admin">,
  items: Item[],
): Promise<(Item & Pick<ListItem, "product">)[]> {
  const carded = items.filter((item) => item.entityType === "product" || item.entityType === "variant");
  const cards = await productCards(
    caller.shop,
    caller.admin,
    carded.map((item) => item.entityGid),
  );
  return items.map((item) => {
    const card = cards.get(item.entityGid);
    return card ? { ...item, product: itemCard(card, item.snapshot) } : item;
  });
}

/** After products/update: the product's card and its variants' are read again on their next view. */
export async function productCardsChanged(shop: string, gids: readonly string[]): Promise<void> {
  const keys = new Set(gids.map((gid) => versionKey(shop, gid)));
  await Promise.all([...keys].map((key) => getCoordinator().bumpVersion(key)));
}
