import { createHmac } from "node:crypto";

/**
 * Signs app proxy query parameters exactly as the platform does: drop `signature`, join repeated
 * values with ",", sort by key, concatenate key=value with no separator, HMAC-SHA256 hex with the
 * app secret. Used by the tests and by the sandbox's signing command.
 */
export function proxySignature(params: URLSearchParams, secret: string): string {
  const grouped = new Map<string, string[]>();
  for (const [key, value] of params) {
    if (key === "signature") continue;
    grouped.set(key, [...(grouped.get(key) ?? []), value]);
  }
  const message = [...grouped.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, values]) => `${key}=${values.join(",")}`)
    .join("");
  return createHmac("sha256", secret).update(message).digest("hex");
}

export interface ProxyUrlOptions {
  shop: string;
  /** Numeric customer id; omit (or "") for a logged-out shopper, sent as an empty parameter. */
  customerId?: string;
  pathPrefix?: string;
  timestamp?: number;
  query?: Record<string, string | string[]>;
}

/** The URL the platform would forward to the app for a storefront request to /apps/{subpath}/... */
export function signedProxyUrl(base: string, path: string, secret: string, options: ProxyUrlOptions): URL {
  const url = new URL(path, base);
  for (const [key, value] of Object.entries(options.query ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(key, item);
  }
  url.searchParams.set("shop", options.shop);
  url.searchParams.set("logged_in_customer_id", options.customerId ?? "");
  url.searchParams.set("path_prefix", options.pathPrefix ?? "/apps/saved-items");
  url.searchParams.set("timestamp", String(options.timestamp ?? Math.floor(Date.now() / 1000)));
  url.searchParams.set("signature", proxySignature(url.searchParams, secret));
  return url;
}
