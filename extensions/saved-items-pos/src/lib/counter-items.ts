import type { ListItem } from "../../../shared/wire";
// The customer-account extension's reading of a snapshot: both extensions show the same fields.
import { fallbackTitle, itemView } from "../../../saved-items-account/src/lib/snapshot";

/**
 * The parts of POS's ProductVariant and Product (@shopify/ui-extensions/point-of-sale) a row reads,
 * spelled here so this module stays free of the POS typings' globals and can be unit-tested.
 */
export interface CatalogueVariant {
  id: number;
  title: string;
  displayName: string;
  image?: string;
  inventoryIsTracked: boolean;
  inventoryAtLocation?: number;
  inventoryAtAllLocations?: number;
  inventoryPolicy: "DENY" | "CONTINUE";
  product?: { title: string; featuredImage?: string };
}

export interface CatalogueProduct {
  id: number;
  title: string;
  featuredImage?: string;
  hasInStockVariants?: boolean;
  totalAvailableInventory?: number;
  variants: CatalogueVariant[];
}

/** What POS's product search found of the saved variants and products, by numeric id. */
export interface Catalogue {
  variants: ReadonlyMap<number, CatalogueVariant>;
  products: ReadonlyMap<number, CatalogueProduct>;
}

export type Stock = "in-stock" | "out-of-stock" | "unknown";

export interface CounterRow {
  key: string;
  title: string;
  /** The variant's own title; null for a product's only (default) variant or a product of several. */
  variantTitle: string | null;
  /** Only https URLs: anything else is not loaded. */
  imageUrl: string | null;
  stock: Stock;
  /** What "Add to cart" adds; null when the item is no single variant POS sells. */
  addVariantId: number | null;
  /** How many variants a saved product has when staff must choose one (more than one). */
  variantCount: number | null;
  /** Not found in POS's catalogue (deleted, or not on the POS channel). */
  missing: boolean;
}

/** The variant and product ids to look up in POS, from the items it can sell. */
export function catalogueIds(items: readonly ListItem[]): { variantIds: number[]; productIds: number[] } {
  const variantIds: number[] = [];
  const productIds: number[] = [];
  for (const item of items) {
    const id = numericId(item.entityGid);
    if (id === null) continue;
    if (item.entityType === "variant") variantIds.push(id);
    else if (item.entityType === "product") productIds.push(id);
  }
  return { variantIds, productIds };
}

/**
 * A row per saved product or variant, in list order (other entity types are not sold at the
 * counter). Stock is what POS knows at this location when it knows it, else over all locations:
 * untracked inventory is always in stock. Only a sellable single variant can be added.
 */
export function counterRows(items: readonly ListItem[], catalogue: Catalogue): CounterRow[] {
  return items.flatMap((item): CounterRow[] => {
    const id = numericId(item.entityGid);
    if (id === null || (item.entityType !== "variant" && item.entityType !== "product")) return [];
    const saved = itemView(item);
    const missing: CounterRow = {
      key: item.id,
      title: saved.title ?? fallbackTitle(item),
      variantTitle: null,
      imageUrl: saved.imageUrl,
      stock: "unknown",
      addVariantId: null,
      variantCount: null,
      missing: true,
    };
    if (item.entityType === "variant") {
      const variant = catalogue.variants.get(id);
      if (!variant) return [missing];
      return [
        {
          ...variantRow(item.id, variant),
          title: variant.product?.title ?? saved.title ?? variant.displayName,
          imageUrl: httpsOnly(variant.image ?? variant.product?.featuredImage) ?? saved.imageUrl,
        },
      ];
    }
    const product = catalogue.products.get(id);
    if (!product) return [missing];
    const imageUrl = httpsOnly(product.featuredImage) ?? saved.imageUrl;
    const [only, ...others] = product.variants;
    if (only && others.length === 0) {
      return [{ ...variantRow(item.id, only), title: product.title, variantTitle: null, imageUrl }];
    }
    const available = product.hasInStockVariants ?? (product.totalAvailableInventory ?? 0) > 0;
    return [
      {
        key: item.id,
        title: product.title,
        variantTitle: null,
        imageUrl,
        stock: available ? "in-stock" : "out-of-stock",
        addVariantId: null,
        variantCount: product.variants.length,
        missing: false,
      },
    ];
  });
}

function variantRow(key: string, variant: CatalogueVariant): Omit<CounterRow, "title" | "imageUrl"> {
  const stock = stockOf(variant);
  const sellable = stock === "in-stock" || variant.inventoryPolicy === "CONTINUE";
  return {
    key,
    variantTitle: variant.title && variant.title !== "Default Title" ? variant.title : null,
    stock,
    addVariantId: sellable ? variant.id : null,
    variantCount: null,
    missing: false,
  };
}

function stockOf(variant: CatalogueVariant): Stock {
  if (!variant.inventoryIsTracked) return "in-stock";
  const quantity = variant.inventoryAtLocation ?? variant.inventoryAtAllLocations;
  if (quantity === undefined) return "unknown";
  return quantity > 0 ? "in-stock" : "out-of-stock";
}

function numericId(gid: string): number | null {
  const match = /^gid:\/\/shopify\/(?:Product|ProductVariant)\/(\d{1,15})$/.exec(gid);
  return match ? Number(match[1]) : null;
}

function httpsOnly(url: string | undefined): string | null {
  return url && /^https:\/\//i.test(url) ? url : null;
}
