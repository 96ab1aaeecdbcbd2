/**
 * What of a stored snapshot is shown to someone other than the shopper who stored it (a share
 * link's page and the shared-list answer; issue #31 A12). A snapshot is whatever the saving client
 * sent, and the shared page runs on the merchant's domain, so its links and images are kept only
 * where the shop or the platform serves them: links to the shop's own pages (its products at
 * /products/<handle> among them), images from the platform's CDN or the shop's own /cdn/ paths.
 * Anything else is dropped, and the page falls back to the storefront's own product data.
 */

/** A stand-in origin: a path that keeps it is one a browser keeps on the shop's own site. */
const SAME_SITE = "https://same-site.invalid";

/** The platform's CDN for product and file images (the Liquid URL filters' other host being the shop's own /cdn/). */
const PLATFORM_CDN = "https://cdn.shopify.com";

const SHOP_CDN_PATH = /^\/cdn\//;

/**
 * The URL as a browser would resolve it on the shop's https page (tabs and newlines gone,
 * backslashes turned into slashes, dot segments resolved), and whether it stays on the shop: a
 * same-site path, or the shop's own myshopify.com origin (what Liquid's URL filters write, often
 * protocol-relative), which is written as its path. "/\evil.example" and "/<TAB>/evil.example"
 * begin with one slash but leave the site, and are not the shop's.
 */
function resolve(value: unknown, shop: string): { ownPath: string } | { url: URL } | undefined {
  const text = typeof value === "string" ? value.trim() : "";
  if (!text || !URL.canParse(text, SAME_SITE)) return undefined;
  const url = new URL(text, SAME_SITE);
  if (url.origin === SAME_SITE || url.origin === `https://${shop}`)
    return { ownPath: `${url.pathname}${url.search}${url.hash}` };
  return { url };
}

/** A link a viewer may follow: a path on the shop's site, or nothing. */
export function sharedLink(value: unknown, shop: string): string | undefined {
  const resolved = resolve(value, shop);
  return resolved && "ownPath" in resolved ? resolved.ownPath : undefined;
}

/** An image a viewer's browser may load: the platform's CDN over https, the shop's /cdn/ paths, or nothing. */
export function sharedImage(value: unknown, shop: string): string | undefined {
  const resolved = resolve(value, shop);
  if (!resolved) return undefined;
  if ("ownPath" in resolved) return SHOP_CDN_PATH.test(resolved.ownPath) ? resolved.ownPath : undefined;
  // origin compares scheme, exact host and port: cdn.shopify.com.evil.example, a user part and http are not it.
  const { url } = resolved;
  return url.origin === PLATFORM_CDN ? `${PLATFORM_CDN}${url.pathname}${url.search}` : undefined;
}

/** The snapshot with its url and image kept only as sharedLink and sharedImage allow; every other field as stored. */
export function sharedSnapshot(snapshot: Record<string, unknown>, shop: string): Record<string, unknown> {
  const { url, image, ...rest } = snapshot;
  const link = sharedLink(url, shop);
  const src = sharedImage(image, shop);
  return { ...rest, ...(link === undefined ? {} : { url: link }), ...(src === undefined ? {} : { image: src }) };
}
