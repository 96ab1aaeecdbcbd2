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

function itemHtml(item: SharedItem): string {
  const snapshot =
    typeof item.snapshot === "object" && item.snapshot !== null ? (item.snapshot as Record<string, unknown>) : {};
  const handle = text(snapshot.handle);
  const liquidHandle = handle && HANDLE.test(handle) ? handle : undefined;
  const gidMatch = /^gid:\/\/shopify\/([A-Za-z]+)\/([^/?]+)/.exec(item.entityGid);
  const title = text(snapshot.title);
  // Titles and images from the saved snapshot; where it has none, the storefront's own product data.
  const titleHtml = title
    ? escapeForLiquid(title)
    : liquidHandle
      ? `{{ all_products['${liquidHandle}'].title | escape }}`
      : escapeForLiquid(gidMatch ? `${gidMatch[1]} ${gidMatch[2]}` : item.entityGid);
  // The shared-list answer keeps only links to the shop's pages and images from the platform's CDN (shared-snapshot.ts).
  const image = text(snapshot.image);
  const imageHtml = image
    ? `<img src="${escapeForLiquid(image)}" alt="" loading="lazy" width="160">`
    : liquidHandle
      ? `{%- if all_products['${liquidHandle}'].featured_image -%}<img src="{{ all_products['${liquidHandle}'].featured_image | image_url: width: 320 }}" alt="" loading="lazy" width="160">{%- endif -%}`
      : "";
  const url = text(snapshot.url) ?? (liquidHandle ? `/products/${liquidHandle}` : undefined);
  const price = text(snapshot.price);
  const body = `${imageHtml}<span class="saved-items-shared__title">${titleHtml}</span>${
    price ? `<span class="saved-items-shared__price">${escapeForLiquid(price)}</span>` : ""
  }`;
  return `<li class="saved-items-shared__item">${url ? `<a href="${escapeForLiquid(url)}">${body}</a>` : body}</li>`;
}

export function sharedListLiquid(list: SharedListResult): string {
  const heading = list.displayName ? `Saved by ${escapeForLiquid(list.displayName)}` : "A shared list";
  const items =
    list.items.length > 0
      ? `<ul class="saved-items-shared__items">${list.items.map(itemHtml).join("")}</ul>`
      : `<p>This list is empty.</p>`;
  return `<section class="saved-items-shared page-width">
<h1>${heading}</h1>
${items}
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
