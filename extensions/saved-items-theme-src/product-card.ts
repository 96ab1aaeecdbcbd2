import type { BlockConfig } from "./block-config";
import { isSafeUrl } from "./dom";
import type { ShopperItem } from "./shopper-item";

/**
 * An item's row as a product card, for every block that lists saved items (the Saved items block,
 * the cart block): the catalogue's card from the list read first (decision 0020), the snapshot
 * where there is none (a guest save, one made on this page, an item that is not a product). Fills
 * the row's first three children, image, link and price, and answers the title it showed. A block
 * with the "variant" text (the Saved items block, whose list may hold a product and a variant of it)
 * tags a variant's link as one, so that neither it nor its buttons read as the product's.
 */
export function fillCard(row: HTMLElement, item: ShopperItem, config: BlockConfig): string {
  const [image, link, price] = row.children as unknown as [HTMLImageElement, HTMLAnchorElement, HTMLElement];
  const snapshot = item.snapshot || {};
  const card = item.product;
  const gone = card && card.availability == "unavailable";
  const title = (card && card.title) || snapshot.title || config.text("untitled");
  const src = (card && card.image) || (!gone && snapshot.image);
  if (src && (isSafeUrl(src) || /^data:image\//.test(src))) image.src = src;
  else image.remove();
  link.textContent = title;
  const kind = item.entityType == "variant" && config.text("variant");
  if (kind) {
    const tag = document.createElement("span");
    tag.className = "si-kind";
    tag.textContent = kind;
    link.append(tag);
  }
  // No link to a product that is gone: it would only be a 404.
  const url = card ? card.url : snapshot.url;
  if (!gone && isSafeUrl(url)) link.href = url;
  const amount = card && card.price;
  const notes = [
    amount
      ? new Intl.NumberFormat(document.documentElement.lang || undefined, {
          style: "currency",
          currency: amount.currencyCode,
        }).format(+amount.amount)
      : gone
        ? ""
        : snapshot.price,
    card && card.priceDropped && config.text("dropped"),
    card && card.availability != "available" && config.text(gone ? "gone" : "sold-out"),
  ];
  price.textContent = notes.filter(Boolean).join(" · ");
  return kind ? `${title} (${kind})` : title;
}
