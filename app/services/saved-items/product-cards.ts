import type { ProductCard } from "./schemas";

/**
 * A saved item's product card from what the catalogue answers (decision 0020): pure, so the
 * cached part (the catalogue's) and the per-item part (the price recorded when saved) are decided
 * apart and tested without the platform.
 */

/** The catalogue's part of a card: everything but priceDropped, which depends on the saved item. */
export type CatalogueCard = Omit<ProductCard, "priceDropped">;

/** The card of an item the catalogue no longer has, or no longer shows on the online store. */
export const UNAVAILABLE_CARD: CatalogueCard = {
  availability: "unavailable",
  title: null,
  url: null,
  image: null,
  price: null,
  variantGid: null,
};

interface Money {
  amount: string;
  currencyCode: string;
}

interface CardVariant {
  id: string;
  availableForSale: boolean;
  inventoryItem: { id: string };
}

/** The Product fields the card query selects (product-cards.server.ts). */
export interface CardProductNode {
  id: string;
  title: string;
  handle: string;
  status: string;
  onlineStoreUrl?: string | null;
  featuredMedia?: { preview?: { image?: { url: string } | null } | null } | null;
  priceRangeV2: { minVariantPrice: Money };
  variants: { nodes: CardVariant[] };
}

export interface CardVariantNode extends CardVariant {
  title: string;
  price: string;
  product: CardProductNode;
}

/** The storefront path of a product's published URL; the platform may answer it on the shop's primary domain. */
function storefrontPath(onlineStoreUrl: string | null | undefined): string | undefined {
  if (!onlineStoreUrl || !URL.canParse(onlineStoreUrl)) return undefined;
  return new URL(onlineStoreUrl).pathname;
}

const numericId = (gid: string) => gid.slice(gid.lastIndexOf("/") + 1);

/** The card of a product or variant node; null (deleted) and unpublished both read as unavailable. */
export function catalogueCard(node: CardProductNode | CardVariantNode | null): CatalogueCard {
  if (node === null) return UNAVAILABLE_CARD;
  const product = "product" in node ? node.product : node;
  const path = storefrontPath(product.onlineStoreUrl);
  if (product.status !== "ACTIVE" || path === undefined) return { ...UNAVAILABLE_CARD, title: product.title };
  const image = product.featuredMedia?.preview?.image?.url ?? null;
  if ("product" in node) {
    return {
      availability: node.availableForSale ? "available" : "sold-out",
      title: node.title === "Default Title" ? product.title : `${product.title} - ${node.title}`,
      url: `${path}?variant=${numericId(node.id)}`,
      image,
      price: { amount: node.price, currencyCode: product.priceRangeV2.minVariantPrice.currencyCode },
      variantGid: node.availableForSale ? node.id : null,
    };
  }
  const firstAvailable = product.variants.nodes.find((variant) => variant.availableForSale);
  return {
    availability: firstAvailable ? "available" : "sold-out",
    title: product.title,
    url: path,
    image,
    price: product.priceRangeV2.minVariantPrice,
    variantGid: firstAvailable?.id ?? null,
  };
}

/** A plain amount, optionally with a currency sign or code around it: "16", "$16.00", "16.00 USD". */
const PLAIN_AMOUNT = /^[^\d.,]*?(\d+(?:\.\d{1,2})?)[^\d.,]*$/;

/**
 * The price recorded when the item was saved, when the snapshot holds one that can be read as an
 * amount: its priceAmount (a number or decimal string), else its price text when that is a plain
 * amount. "€49,00" or "1,299.00" are left unread rather than guessed at.
 */
export function savedPrice(snapshot: unknown): number | undefined {
  if (typeof snapshot !== "object" || snapshot === null) return undefined;
  const { priceAmount, price } = snapshot as { priceAmount?: unknown; price?: unknown };
  const amount =
    typeof priceAmount === "number"
      ? priceAmount
      : typeof priceAmount === "string" && /^\d+(\.\d+)?$/.test(priceAmount)
        ? Number(priceAmount)
        : typeof price === "string"
          ? Number(PLAIN_AMOUNT.exec(price.trim())?.[1] ?? Number.NaN)
          : Number.NaN;
  return Number.isFinite(amount) && amount >= 0 ? amount : undefined;
}

/** The item's card: the catalogue's, with whether its price is now below the one recorded at save. */
export function itemCard(card: CatalogueCard, snapshot: unknown): ProductCard {
  const before = savedPrice(snapshot);
  const now = card.price === null ? undefined : Number(card.price.amount);
  return { ...card, priceDropped: before !== undefined && now !== undefined && now < before };
}
