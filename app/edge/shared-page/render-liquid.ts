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

/** A stand-in origin: a path that keeps it is one a browser keeps on the shop's own site. */
const SAME_SITE = "https://same-site.invalid";

/**
 * Same-site paths and https URLs only, as a browser resolves them: "/\\evil.example" and
 * "/<TAB>/evil.example" start with one slash but leave the site, so a path counts only when
 * resolving it keeps the origin. What is kept is the URL as parsed (tabs and newlines gone,
 * backslashes turned into slashes), the one the browser would open.
 */
function safeUrl(value: unknown): string | undefined {
  const url = text(value);
  if (!url || !URL.canParse(url, SAME_SITE)) return undefined;
  const parsed = new URL(url, SAME_SITE);
  if (url.startsWith("/"))
    return parsed.origin === SAME_SITE ? `${parsed.pathname}${parsed.search}${parsed.hash}` : undefined;
  return /^https:\/\//i.test(url) && parsed.protocol === "https:" ? parsed.href : undefined;
}

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
  const image = safeUrl(snapshot.image);
  const imageHtml = image
    ? `<img src="${escapeForLiquid(image)}" alt="" loading="lazy" width="160">`
    : liquidHandle
      ? `{%- if all_products['${liquidHandle}'].featured_image -%}<img src="{{ all_products['${liquidHandle}'].featured_image | image_url: width: 320 }}" alt="" loading="lazy" width="160">{%- endif -%}`
      : "";
  const url = safeUrl(snapshot.url) ?? (liquidHandle ? `/products/${liquidHandle}` : undefined);
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
