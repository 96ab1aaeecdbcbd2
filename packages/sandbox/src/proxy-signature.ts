import { signProxyParameters } from "../../../app/edge/front-doors/proxy-signature.server";

export interface ProxyUrlOptions {
  shop: string;
  /** Numeric customer id; omit (or "") for a logged-out shopper, sent as an empty parameter. */
  customerId?: string;
  pathPrefix?: string;
  timestamp?: number;
  query?: Record<string, string | string[]>;
}

/**
 * The URL the platform would forward to the app for a storefront request to /apps/{subpath}/...,
 * signed as the platform signs (tests/proxy/identity.test.ts pins the signing to the platform
 * library's own). Used by the tests and by the sandbox's signing command and storefront.
 */
export function signedProxyUrl(base: string, path: string, secret: string, options: ProxyUrlOptions): URL {
  const url = new URL(path, base);
  for (const [key, value] of Object.entries(options.query ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(key, item);
  }
  url.searchParams.set("shop", options.shop);
  url.searchParams.set("logged_in_customer_id", options.customerId ?? "");
  url.searchParams.set("path_prefix", options.pathPrefix ?? "/apps/saved-items");
  url.searchParams.set("timestamp", String(options.timestamp ?? Math.floor(Date.now() / 1000)));
  url.searchParams.set("signature", signProxyParameters(url.searchParams, secret));
  return url;
}
