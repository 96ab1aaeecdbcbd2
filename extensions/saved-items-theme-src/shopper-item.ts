import type { ItemIdentity, ListItem, ProductCard } from "../shared/wire";

/** What the blocks store with a save, so lists can show it without another lookup; any field may be empty. */
interface Snapshot {
  title?: string | null;
  url?: string | null;
  image?: string | null;
  price?: string | null;
  handle?: string | null;
  /** How many the shopper had in the cart, for a variant saved for later. */
  quantity?: number;
}

/** An item a shopper saves or removes here; also the shape of a guest save. */
export interface ShopperItem extends ItemIdentity {
  source?: string;
  snapshot?: Snapshot;
  /** The catalogue's card, from a list read; none for a guest save or one made on this page. */
  product?: ProductCard;
}

/** The body of /save, /remove, or one /batch operation. */
export function requestBody({ context, entityType, entityGid, source, snapshot }: ShopperItem, action?: "save") {
  return { action, context, entityType, entityGid, source, snapshot };
}

/** Drops the image (a data: URL, say) when the snapshot would near the service's 4 KB cap. */
export function fitSnapshot(snapshot: Snapshot): Snapshot {
  if (JSON.stringify(snapshot).length > 3000) delete snapshot.image;
  return snapshot;
}

export const PRODUCT_GID = "gid://shopify/Product/";

/** The product handle stored with an item. */
export const handleOf = (snapshot: unknown): string => String((snapshot && (snapshot as Snapshot).handle) || "");

/** The handle a storefront path names: "/products/<handle>", under a locale or a collection too; "" for none. */
export const productHandle = (path: string | null | undefined): string =>
  ((path || "").match(/\/products\/([^/?#]+)/) || [])[1] || "";

/**
 * The handle hearts on cards without a product id match a saved item by: its catalogue card's link
 * (current, and there whatever the saving channel stored), else its snapshot's.
 */
export const savedHandle = ({ snapshot, product }: Pick<ListItem, "snapshot" | "product">): string =>
  productHandle(product && product.url) || handleOf(snapshot);
