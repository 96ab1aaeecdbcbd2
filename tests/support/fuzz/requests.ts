import { signProxyParameters } from "~/edge/front-doors/proxy-signature.server";
import { TEST_ENV } from "../test-env";
import { APP_URL, DEMO_SHOP } from "../app";

/** A request as a client could send it, down to the raw bytes of its query and body. */
export interface RawCall {
  method: string;
  /** The query exactly as it goes on the wire (no leading "?"); malformed escapes stay malformed. */
  rawQuery?: string;
  body?: string | Uint8Array<ArrayBuffer>;
  /** null sends none. */
  contentType?: string | null;
  headers?: Record<string, string>;
}

/**
 * A proxied request signed as the platform signs it, with the caller's raw query kept byte for
 * byte: the signature covers the decoded values, as the platform's does, but the query is never
 * re-encoded (URLSearchParams would repair "%zz" into "%25zz").
 */
export function rawProxyRequest(path: string, call: RawCall, customerId = "1001"): Request {
  const platform = new URLSearchParams({
    shop: DEMO_SHOP,
    logged_in_customer_id: customerId,
    path_prefix: "/apps/saved-items",
    timestamp: String(Math.floor(Date.now() / 1000)),
  });
  const query = [call.rawQuery, platform.toString()].filter(Boolean).join("&");
  const unsigned = `${APP_URL}${path}?${query}`;
  const signature = signProxyParameters(new URL(unsigned).searchParams, TEST_ENV.SHOPIFY_API_SECRET);
  return rawRequest(`${unsigned}&signature=${signature}`, call);
}

/** A direct-channel request with the caller's raw query and body. */
export function rawDirectRequest(path: string, call: RawCall): Request {
  return rawRequest(`${APP_URL}${path}${call.rawQuery ? `?${call.rawQuery}` : ""}`, call);
}

function rawRequest(url: string, call: RawCall): Request {
  const headers = new Headers(call.headers);
  if (call.body !== undefined && call.contentType !== null)
    headers.set("Content-Type", call.contentType ?? "application/json");
  return new Request(url, { method: call.method, headers, body: call.body });
}
