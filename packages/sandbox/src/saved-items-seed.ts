// Many saved items for one shop, generated deterministically, so the sandbox's Insights page shows
// real-looking data and tests can recompute every figure from the same list. Items carry the
// handles the app derives, so the storefront and the app see them as the shopper's own saves.
import { z } from "zod";
import { itemHandle, listHandle } from "../../../app/services/saved-items/handles.server";
import { publishedValue } from "../../../app/services/saved-by/flush-plan";
import type { ImportedMetaobject, PlatformEmulator, ProductSeed } from "@saved-items/platform-emulator";

export const SavedItemsSeedSchema = z.strictObject({
  /** How many save_items (active and removed). */
  count: z.number().int().min(1).max(2_000_000),
  customers: z.number().int().min(1).default(500),
  products: z.number().int().min(1).default(120),
  /** saved_at falls within this many days before now. */
  days: z.number().int().min(1).default(90),
  /** The first customer's numeric id; customers get consecutive ids. */
  firstCustomerId: z.number().int().min(1).default(50_000),
});
export type SavedItemsSeed = z.input<typeof SavedItemsSeedSchema>;

export interface GeneratedItem {
  customerGid: string;
  context: string;
  entityType: "product" | "variant";
  entityGid: string;
  status: "active" | "removed";
  savedAt: string;
}

export interface GeneratedShop {
  items: GeneratedItem[];
  /** The store's entries: one save_list per customer and context, then the save_items. */
  lists: ImportedMetaobject[];
  saveItems: ImportedMetaobject[];
  products: ProductSeed[];
}

const DAY_MS = 24 * 60 * 60 * 1000;
const CONTEXTS = ["wishlist", "wishlist", "wishlist", "gift-ideas"];
const VARIANTS_PER_PRODUCT = 3;

/** mulberry32: small, fast and the same on every machine. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export const productGid = (index: number) => `gid://shopify/Product/${7_000_000 + index}`;
export const variantGid = (product: number, variant: number) =>
  `gid://shopify/ProductVariant/${8_000_000 + product * VARIANTS_PER_PRODUCT + variant}`;

/**
 * The store's entries for these items, as the app writes them: one save_list per customer and
 * context, with its index, and the save_items.
 */
function storeEntries(items: readonly GeneratedItem[]): {
  lists: ImportedMetaobject[];
  saveItems: ImportedMetaobject[];
} {
  const lists = new Map<string, { customerGid: string; context: string; active: GeneratedItem[] }>();
  const saveItems = items.map((item): ImportedMetaobject => {
    const listKey = listHandle(item.customerGid, item.context);
    const list = lists.get(listKey) ?? { customerGid: item.customerGid, context: item.context, active: [] };
    lists.set(listKey, list);
    if (item.status === "active") list.active.push(item);
    return {
      handle: itemHandle(item.customerGid, item),
      createdAt: item.savedAt,
      fields: {
        list_key: listKey,
        customer_id: item.customerGid,
        context: item.context,
        entity_type: item.entityType,
        entity_gid: item.entityGid,
        status: item.status,
        source: "seed",
        saved_at: item.savedAt,
      },
    };
  });

  // Each list with its index, as the app keeps it: its active items' handles, newest save first.
  const listEntries = [...lists].map(([handle, list]): ImportedMetaobject => ({
    handle,
    fields: {
      customer_id: list.customerGid,
      context: list.context,
      active_items: JSON.stringify(
        list.active
          .sort((a, b) => b.savedAt.localeCompare(a.savedAt))
          .map((item) => itemHandle(item.customerGid, item)),
      ),
    },
  }));
  return { lists: listEntries, saveItems };
}

export function generateSavedItems(input: SavedItemsSeed, now: Date): GeneratedShop {
  const options = SavedItemsSeedSchema.parse(input);
  const next = random(options.count * 31 + options.customers);
  const seen = new Set<string>();
  const items: GeneratedItem[] = [];
  // A shopper saves an item once; collisions are skipped, so cap attempts to stay finite.
  for (let attempt = 0; items.length < options.count && attempt < options.count * 20; attempt++) {
    const customerGid = `gid://shopify/Customer/${options.firstCustomerId + Math.floor(next() * options.customers)}`;
    const context = CONTEXTS[Math.floor(next() * CONTEXTS.length)]!;
    // Squaring skews popularity towards the first products, so there is a clear top list.
    const product = Math.floor(next() ** 2 * options.products);
    const isVariant = next() < 0.25;
    const entityGid = isVariant ? variantGid(product, Math.floor(next() * VARIANTS_PER_PRODUCT)) : productGid(product);
    // Recent days are busier, as for a shop that is growing.
    const daysAgo = Math.floor(next() ** 1.5 * options.days);
    const savedAt = new Date(now.getTime() - daysAgo * DAY_MS - Math.floor(next() * DAY_MS)).toISOString();
    const status = next() < 0.1 ? "removed" : "active";
    const key = `${customerGid}|${context}|${entityGid}`;
    if (seen.has(key)) continue;
    seen.add(key);
    items.push({ customerGid, context, entityType: isVariant ? "variant" : "product", entityGid, status, savedAt });
  }

  const products = Array.from({ length: options.products }, (_, index): ProductSeed => {
    const soldOut = index % 7 === 3;
    return {
      id: productGid(index),
      title: `Product ${index + 1}`,
      totalInventory: soldOut ? 0 : 5 + ((index * 13) % 40),
      variants: Array.from({ length: VARIANTS_PER_PRODUCT }, (_, variant) => ({
        id: variantGid(index, variant),
        title: ["Small", "Medium", "Large"][variant]!,
        price: (10 + ((index * 7) % 90) + variant * 5).toFixed(2),
        availableForSale: !soldOut,
        // One inventory item per variant, numbered like it, for inventory_levels/update by hand.
        inventoryItemId: variantGid(index, variant).replace("ProductVariant", "InventoryItem"),
        inventoryQuantity: soldOut ? 0 : 5 + ((index * 13) % 40),
      })),
    };
  });
  return { items, ...storeEntries(items), products };
}

/** The emulator calls a seed needs; an in-process emulator has them. */
interface SeedTarget {
  importMetaobjects(domain: string, type: string, entries: readonly ImportedMetaobject[]): void;
  addProducts(domain: string, products: readonly ProductSeed[]): void;
}

/** Generates the shop's saved items and stores them in the emulator directly, not through the app. */
export function seedSavedItems(emulator: SeedTarget, domain: string, input: SavedItemsSeed, now: Date): GeneratedShop {
  const generated = generateSavedItems(input, now);
  emulator.importMetaobjects(domain, "$app:save_list", generated.lists);
  emulator.importMetaobjects(domain, "$app:save_item", generated.saveItems);
  emulator.addProducts(domain, generated.products);
  return generated;
}

export const SaversSeedSchema = z.array(
  z.strictObject({
    /** A product of the shop's catalogue (the storefront's demo products are in every shop's). */
    product: z.string().regex(/^gid:\/\/shopify\/Product\/\d+$/, "must be gid://shopify/Product/<number>"),
    /** How many shoppers have it in their wishlist. */
    shoppers: z.number().int().min(1).max(1_000),
  }),
);
export type SaversSeed = z.infer<typeof SaversSeedSchema>;

/** Savers are customers of their own, numbered from here, so they never meet the seed's named customers. */
export const FIRST_SAVER_ID = 90_001;

/**
 * Shoppers who saved catalogue products, each in their wishlist, stored straight into the emulator;
 * with write_products granted, each product's "Saved by N" is published as the app's flush would
 * publish that many shoppers (decision 0010: the step, nothing below 5), so the product page shows
 * it from the start. The app's own recount confirms it later.
 */
export function seedSavers(
  emulator: SeedTarget & { setMetafields: PlatformEmulator["setMetafields"] },
  domain: string,
  savers: SaversSeed,
  publish: boolean,
  now: Date,
): void {
  const items = savers.flatMap(({ product, shoppers }) =>
    Array.from({ length: shoppers }, (_, index): GeneratedItem => ({
      customerGid: `gid://shopify/Customer/${FIRST_SAVER_ID + index}`,
      context: "wishlist",
      entityType: "product",
      entityGid: product,
      status: "active",
      savedAt: new Date(now.getTime() - (index + 1) * DAY_MS).toISOString(),
    })),
  );
  const { lists, saveItems } = storeEntries(items);
  emulator.importMetaobjects(domain, "$app:save_list", lists);
  emulator.importMetaobjects(domain, "$app:save_item", saveItems);
  if (!publish) return;
  emulator.setMetafields(
    domain,
    savers.flatMap(({ product, shoppers }) => {
      const value = publishedValue(shoppers);
      return value === null ? [] : [{ ownerId: product, key: "saved_by", value: String(value) }];
    }),
  );
}
