// A shop's catalogue, as far as the app reads it: products and variants by id through nodes(ids:),
// with their current price, availability, handle, storefront URL and featured image.
import type { ShopState } from "./state";

export interface ProductSeed {
  /** gid://shopify/Product/N */
  id: string;
  title: string;
  /** The storefront handle; derived from the title when absent, as the platform does. */
  handle?: string;
  /** The featured image's URL (featuredMedia); none when absent. */
  imageUrl?: string;
  status?: "ACTIVE" | "DRAFT" | "ARCHIVED";
  totalInventory: number;
  variants: {
    /** gid://shopify/ProductVariant/N */
    id: string;
    title: string;
    /** Decimal string, as the Money scalar. */
    price: string;
    availableForSale: boolean;
    /** Its inventory item (gid://shopify/InventoryItem/N), for inventoryItem(id:); numbered as the variant when absent. */
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

const handleOf = (product: ProductSeed) =>
  product.handle ??
  product.title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

/** The featured media as the Media interface answers it: a MediaImage whose preview is the image. */
function mediaView(product: ProductSeed) {
  if (product.imageUrl === undefined) return null;
  const id = product.id.replace("/Product/", "/MediaImage/");
  const image = { id: id.replace("/MediaImage/", "/ImageSource/"), url: product.imageUrl, altText: product.title };
  return {
    __typename: "MediaImage",
    id,
    alt: product.title,
    mediaContentType: "IMAGE",
    status: "READY",
    preview: { image, status: "READY" },
  };
}

function productView(shop: ShopState, product: ProductSeed) {
  const prices = product.variants.map((variant) => Number(variant.price));
  const money = (amount: number) => ({ amount: amount.toFixed(2), currencyCode: CURRENCY });
  const status = product.status ?? "ACTIVE";
  return {
    __typename: "Product",
    id: product.id,
    title: product.title,
    handle: handleOf(product),
    // Null unless published to the online store (https://shopify.dev/docs/api/admin-graphql/latest/objects/Product#field-onlineStoreUrl).
    onlineStoreUrl: status === "ACTIVE" ? `https://${shop.domain}/products/${handleOf(product)}` : null,
    featuredMedia: mediaView(product),
    status,
    tracksInventory: true,
    totalInventory: product.totalInventory,
    priceRangeV2: {
      minVariantPrice: money(prices.length ? Math.min(...prices) : 0),
      maxVariantPrice: money(prices.length ? Math.max(...prices) : 0),
    },
    // Resolved only when selected: a variant's view holds its product's.
    variants: ({ first }: { first?: number }): Record<string, unknown> => {
      const page = product.variants.slice(0, first).map((variant) => variantView(shop, product, variant));
      return {
        nodes: page,
        edges: page.map((node) => ({ cursor: node.id, node })),
        pageInfo: {
          hasNextPage: page.length < product.variants.length,
          hasPreviousPage: false,
          startCursor: page[0]?.id ?? null,
          endCursor: page.at(-1)?.id ?? null,
        },
      };
    },
  };
}

/** The Product or ProductVariant with this id, as a node; undefined when the catalogue has none. */
export function catalogueNode(shop: ShopState, id: string): Record<string, unknown> | undefined {
  const catalogue = catalogueOf(shop);
  const product = catalogue.get(id);
  if (product) return productView(shop, product);
  for (const candidate of catalogue.values()) {
    const variant = candidate.variants.find((each) => each.id === id);
    if (variant) return variantView(shop, candidate, variant);
  }
  return undefined;
}

/** Its inventory item: as seeded, else numbered as the variant. */
const inventoryItemIdOf = (variant: ProductSeed["variants"][number]) =>
  variant.inventoryItemId ?? variant.id.replace("/ProductVariant/", "/InventoryItem/");

function variantView(shop: ShopState, product: ProductSeed, variant: ProductSeed["variants"][number]) {
  return {
    __typename: "ProductVariant",
    id: variant.id,
    title: variant.title,
    displayName: `${product.title} - ${variant.title}`,
    price: variant.price,
    availableForSale: variant.availableForSale,
    inventoryQuantity: variant.inventoryQuantity ?? null,
    inventoryItem: { id: inventoryItemIdOf(variant), tracked: true },
    product: productView(shop, product),
  };
}

/** inventoryItem(id:): the variant's inventory item, as the inventory_levels/update webhook names it. */
export function catalogueInventoryItem(
  shop: ShopState,
  id: string,
): { __typename: "InventoryItem"; id: string; tracked: boolean; variant: ReturnType<typeof variantView> } | undefined {
  for (const product of catalogueOf(shop).values()) {
    const variant = product.variants.find((each) => inventoryItemIdOf(each) === id);
    if (variant)
      return { __typename: "InventoryItem", id, tracked: true, variant: variantView(shop, product, variant) };
  }
  return undefined;
}
