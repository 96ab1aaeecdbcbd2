// A shop's catalogue, as far as the app reads it: products and variants by id through nodes(ids:),
// with their current price and availability.
import type { ShopState } from "./state";

export interface ProductSeed {
  /** gid://shopify/Product/N */
  id: string;
  title: string;
  status?: "ACTIVE" | "DRAFT" | "ARCHIVED";
  totalInventory: number;
  variants: {
    /** gid://shopify/ProductVariant/N */
    id: string;
    title: string;
    /** Decimal string, as the Money scalar. */
    price: string;
    availableForSale: boolean;
    /** Its inventory item (gid://shopify/InventoryItem/N), for inventoryItem(id:); none when absent. */
    inventoryItemId?: string;
    /** inventoryQuantity: the available quantity summed over locations. */
    inventoryQuantity?: number;
  }[];
}

const catalogues = new WeakMap<ShopState, Map<string, ProductSeed>>();

function catalogueOf(shop: ShopState): Map<string, ProductSeed> {
  let catalogue = catalogues.get(shop);
  if (!catalogue) catalogues.set(shop, (catalogue = new Map()));
  return catalogue;
}

export function addProducts(shop: ShopState, products: readonly ProductSeed[]): void {
  const catalogue = catalogueOf(shop);
  for (const product of products) catalogue.set(product.id, product);
}

/** The merchant deletes products: nodes(ids:) answers null for them and their metafields cannot be written. */
export function removeProducts(shop: ShopState, ids: readonly string[]): void {
  const catalogue = catalogueOf(shop);
  for (const id of ids) catalogue.delete(id);
}

/** Whether the shop has this product (not deleted, not made up). */
export function catalogueHasProduct(shop: ShopState, id: string): boolean {
  return catalogueOf(shop).has(id);
}

const CURRENCY = "USD";

function productView(product: ProductSeed) {
  const prices = product.variants.map((variant) => Number(variant.price));
  const money = (amount: number) => ({ amount: amount.toFixed(2), currencyCode: CURRENCY });
  return {
    __typename: "Product",
    id: product.id,
    title: product.title,
    status: product.status ?? "ACTIVE",
    tracksInventory: true,
    totalInventory: product.totalInventory,
    priceRangeV2: {
      minVariantPrice: money(prices.length ? Math.min(...prices) : 0),
      maxVariantPrice: money(prices.length ? Math.max(...prices) : 0),
    },
  };
}

/** The Product or ProductVariant with this id, as a node; undefined when the catalogue has none. */
export function catalogueNode(shop: ShopState, id: string): Record<string, unknown> | undefined {
  const catalogue = catalogueOf(shop);
  const product = catalogue.get(id);
  if (product) return productView(product);
  for (const candidate of catalogue.values()) {
    const variant = candidate.variants.find((each) => each.id === id);
    if (variant) return variantView(candidate, variant);
  }
  return undefined;
}

function variantView(product: ProductSeed, variant: ProductSeed["variants"][number]) {
  return {
    __typename: "ProductVariant",
    id: variant.id,
    title: variant.title,
    displayName: `${product.title} - ${variant.title}`,
    price: variant.price,
    availableForSale: variant.availableForSale,
    inventoryQuantity: variant.inventoryQuantity ?? null,
    product: productView(product),
  };
}

/** inventoryItem(id:): the variant's inventory item, as the inventory_levels/update webhook names it. */
export function catalogueInventoryItem(
  shop: ShopState,
  id: string,
): { __typename: "InventoryItem"; id: string; tracked: boolean; variant: ReturnType<typeof variantView> } | undefined {
  for (const product of catalogueOf(shop).values()) {
    const variant = product.variants.find((each) => each.inventoryItemId === id);
    if (variant) return { __typename: "InventoryItem", id, tracked: true, variant: variantView(product, variant) };
  }
  return undefined;
}
