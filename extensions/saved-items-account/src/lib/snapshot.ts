import type { ListItem } from "../../../shared/wire";

export interface ItemView {
  title: string | null;
  /** Only https URLs: anything else in a snapshot is not loaded. */
  imageUrl: string | null;
  price: string | null;
}

/**
 * What a list item shows: its product card (the catalogue's, current; docs/api.md) first, then
 * the snapshot, which is whatever the saving client stored (the theme stores title, url, image,
 * price, handle), so every field is optional and checked.
 */
export function itemView(item: ListItem): ItemView {
  const snapshot =
    typeof item.snapshot === "object" && item.snapshot !== null ? (item.snapshot as Record<string, unknown>) : {};
  const text = (value: unknown) => (typeof value === "string" && value.trim() ? value.trim() : null);
  const card = item.product;
  const image = card?.image ?? text(snapshot.image);
  return {
    title: card?.title ?? text(snapshot.title),
    imageUrl: image && /^https:\/\//i.test(image) ? image : null,
    price: card?.price
      ? new Intl.NumberFormat(undefined, { style: "currency", currency: card.price.currencyCode }).format(
          Number(card.price.amount),
        )
      : text(snapshot.price),
  };
}

/** "Product 123" for an item saved without a title: the GID's type and id. */
export function fallbackTitle(item: ListItem): string {
  const match = /^gid:\/\/shopify\/([A-Za-z]+)\/([^/?]+)/.exec(item.entityGid);
  return match ? `${match[1]} ${match[2]}` : item.entityGid;
}
