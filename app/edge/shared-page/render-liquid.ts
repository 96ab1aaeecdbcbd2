import type { SharedItem, SharedListResult } from "~/services/saved-items/sharing-schemas";

/**
 * The shared-list page as Liquid: the platform renders it inside the shop's theme. Everything
 * from a snapshot is text a client chose, so it is HTML-escaped and its braces are too, since
 * "{{" or "{%" in a title would otherwise be run as Liquid by the platform.
 */
export function escapeForLiquid(text: string): string {
  return text.replace(/[&<>"'{}]/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** A product handle as the platform makes them; anything else is not put into a Liquid expression. */
const HANDLE = /^[a-z0-9][a-z0-9-]{0,254}$/;

const text = (value: unknown) => (typeof value === "string" && value.trim() ? value.trim() : undefined);

const numericId = (gid: string) => /\/(\d+)$/.exec(gid)?.[1];

/** The shop's own money format: the platform's money filter takes cents. */
const moneyLiquid = (amount: string) => {
  const cents = Math.round(Number(amount) * 100);
  return Number.isSafeInteger(cents) && cents >= 0 ? `{{ ${cents} | money }}` : undefined;
};

/**
 * One item as a card: the catalogue's card (current, decision 0020) first, then the snapshot,
 * then the storefront's own product data by handle. No id is ever shown; an item whose product is
 * gone says so and links nowhere.
 */
function itemHtml(item: SharedItem): string {
  const snapshot =
    typeof item.snapshot === "object" && item.snapshot !== null ? (item.snapshot as Record<string, unknown>) : {};
  const card = item.product;
  const gone = card?.availability === "unavailable";
  // The card's path names the product's handle: the storefront's own image where the card has none.
  const handle = text(snapshot.handle) ?? /^\/products\/([^/?#]+)/.exec(card?.url ?? "")?.[1];
  const liquidHandle = !gone && handle && HANDLE.test(handle) ? handle : undefined;
  const title = card?.title ?? text(snapshot.title);
  const titleHtml = title
    ? escapeForLiquid(title)
    : liquidHandle
      ? `{{ all_products['${liquidHandle}'].title | escape }}`
      : gone
        ? "No longer available"
        : `Saved ${item.entityType}`;
  // The shared-list answer keeps only links to the shop's pages and images from the platform's CDN (shared-snapshot.ts).
  const image = card?.image ?? (gone ? undefined : text(snapshot.image));
  const imageHtml = image
    ? `<img src="${escapeForLiquid(image)}" alt="" loading="lazy" width="320" height="320" data-card-image>`
    : liquidHandle
      ? `{%- if all_products['${liquidHandle}'].featured_image -%}<img src="{{ all_products['${liquidHandle}'].featured_image | image_url: width: 640 }}" alt="" loading="lazy" width="320" height="320" data-card-image>{%- endif -%}`
      : "";
  const url = gone
    ? undefined
    : (card?.url ?? text(snapshot.url) ?? (liquidHandle ? `/products/${liquidHandle}` : undefined));
  const price = card?.price
    ? moneyLiquid(card.price.amount)
    : text(snapshot.price) && escapeForLiquid(text(snapshot.price)!);
  const linked = (html: string, attributes = "") =>
    url ? `<a href="${escapeForLiquid(url)}"${attributes}>${html}</a>` : html;
  const variant = card?.availability === "available" && card.variantGid ? numericId(card.variantGid) : undefined;
  const status = gone
    ? `<p class="saved-items-shared__status">No longer available</p>`
    : card?.availability === "sold-out"
      ? `<p class="saved-items-shared__status">Sold out</p>`
      : "";
  // The image's link repeats the title's, so it is left out of the tab order and the reading of links.
  return `<li class="saved-items-shared__card" data-saved-item-card>
<div class="saved-items-shared__media">${imageHtml ? linked(imageHtml, ' tabindex="-1" aria-hidden="true"') : ""}</div>
<h2 class="saved-items-shared__title" data-card-title>${linked(titleHtml)}</h2>
${price ? `<p class="saved-items-shared__price">${price}</p>` : ""}${
    card?.priceDropped ? `<p class="saved-items-shared__drop">Price dropped since it was saved</p>` : ""
  }${status}${
    variant
      ? `<form method="post" action="/cart/add" class="saved-items-shared__add"><input type="hidden" name="id" value="${variant}"><input type="hidden" name="quantity" value="1"><button type="submit" class="button">Add to cart</button></form>`
      : ""
  }
</li>`;
}

/** Spacing and a grid in the theme's own type and colours: the page renders inside its layout. */
const STYLE = `<style>
.saved-items-shared{padding-block:2rem}
.saved-items-shared__items{list-style:none;margin:1.5rem 0 0;padding:0;display:grid;gap:1.5rem;grid-template-columns:repeat(auto-fill,minmax(12rem,1fr))}
.saved-items-shared__card{display:flex;flex-direction:column;gap:.4rem}
.saved-items-shared__media img{display:block;width:100%;height:auto;aspect-ratio:1;object-fit:cover}
.saved-items-shared__title{font-size:1rem;margin:0}
.saved-items-shared__title a{color:inherit}
.saved-items-shared__price,.saved-items-shared__drop,.saved-items-shared__status{margin:0}
.saved-items-shared__drop{font-size:.875em}
.saved-items-shared__status{opacity:.7}
.saved-items-shared__add{margin-top:auto}
</style>`;

export function sharedListLiquid(list: SharedListResult): string {
  // displayName is the sharer's name ("Saved by Ana"); a named list's own name heads the page.
  const owner = list.displayName && `Saved by ${escapeForLiquid(list.displayName)}`;
  const heading = list.listName ? escapeForLiquid(list.listName) : owner || "A shared list";
  const byline = list.listName && owner ? `<p>${owner}</p>\n` : "";
  const items =
    list.items.length > 0
      ? `<ul class="saved-items-shared__items">${list.items.map(itemHtml).join("\n")}</ul>`
      : `<p>This list is empty.</p>`;
  return `${STYLE}
<section class="saved-items-shared page-width">
<h1>${heading}</h1>
${byline}${items}
</section>
`;
}

export function sharedListNotFoundLiquid(): string {
  return `<section class="saved-items-shared page-width">
<h1>This list is not shared</h1>
<p>The link is unknown or was revoked by its owner.</p>
</section>
`;
}

export function sharedListUnavailableLiquid(): string {
  return `<section class="saved-items-shared page-width">
<h1>This list cannot be shown right now</h1>
<p>Please try again in a moment.</p>
</section>
`;
}
