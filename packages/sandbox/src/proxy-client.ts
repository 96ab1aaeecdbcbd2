import { signedProxyUrl } from "./proxy-signature";
import { SANDBOX_DEFAULTS } from "./config";

export interface SandboxProxyCall {
  /** Default: the seeded demo shop. */
  shop?: string;
  /** Default: the seeded customer 1001. */
  customer?: string;
  query?: Record<string, string>;
  /** Given: a JSON POST; absent: a GET. */
  body?: unknown;
}

/**
 * One app-proxy request to a running sandbox (or one of its instances), signed as the platform signs
 * it with the sandbox's secret, the way a theme's request arrives.
 */
export async function callSandboxProxy(
  base: string,
  path: string,
  call: SandboxProxyCall = {},
): Promise<{ status: number; body: any }> {
  const url = signedProxyUrl(base, path, SANDBOX_DEFAULTS.SHOPIFY_API_SECRET, {
    shop: call.shop ?? "demo.myshopify.com",
    customerId: call.customer ?? "1001",
    query: call.query,
  });
  const response = await fetch(url, {
    method: call.body === undefined ? "GET" : "POST",
    headers: call.body === undefined ? {} : { "Content-Type": "application/json" },
    body: call.body === undefined ? undefined : JSON.stringify(call.body),
  });
  return { status: response.status, body: await response.json() };
}
