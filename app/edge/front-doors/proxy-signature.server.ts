import { createHmac, timingSafeEqual } from "node:crypto";
import { ServiceError } from "~/lib/errors";

/** The platform's own freshness bound for app proxy signatures (and its library's). */
export const PROXY_SIGNATURE_MAX_AGE_SECONDS = 90;

/**
 * The parameters the platform sets on every proxied request and that say who is asking. Each must
 * come exactly once: a repeated value is joined with "," before signing, so a shopper-supplied
 * duplicate would otherwise be signed along with the platform's and read ambiguously.
 */
const IDENTITY_PARAMETERS = ["shop", "path_prefix", "timestamp", "signature"] as const;
/**
 * Never repeated, for the same reason, but it may be absent: nobody logged in then, as with an
 * empty value. The signature covers the parameters present, so its absence is signed too.
 */
const CUSTOMER_PARAMETER = "logged_in_customer_id";

/**
 * Left out of the signed message as the platform's library leaves them out (generateLocalHmac drops
 * both before signing an app proxy query), so a request the library verifies verifies here too.
 */
const UNSIGNED_PARAMETERS = new Set(["signature", "hmac"]);
/** The library refuses a repeated `hmac` as it refuses a repeated `signature`. */
const AT_MOST_ONCE = [CUSTOMER_PARAMETER, "hmac"] as const;

/**
 * The platform's app proxy signature: every query parameter but `signature` and `hmac`, repeated
 * values joined with ",", sorted by key (as the platform's library compares them), `key=value`
 * concatenated with no separator, HMAC-SHA256 with the app secret, hex.
 */
export function signProxyParameters(params: URLSearchParams, secret: string): string {
  const grouped = new Map<string, string[]>();
  for (const [key, value] of params) {
    if (UNSIGNED_PARAMETERS.has(key)) continue;
    grouped.set(key, [...(grouped.get(key) ?? []), value]);
  }
  const message = [...grouped.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, values]) => `${key}=${values.join(",")}`)
    .join("");
  return createHmac("sha256", secret).update(message).digest("hex");
}

/**
 * Who a proxied request says it is, once its signature and freshness hold: the shop and the
 * logged-in customer's numeric id ("" when nobody is logged in). Anything else is
 * INVALID_PROXY_SIGNATURE, decided before any value is trusted.
 */
export function verifyProxyRequest(url: URL, secret: string, now: Date): { shop: string; loggedInCustomerId: string } {
  const params = url.searchParams;
  for (const name of IDENTITY_PARAMETERS) {
    if (params.getAll(name).length !== 1) throw invalid(`${name} must be given exactly once`);
  }
  for (const name of AT_MOST_ONCE) {
    if (params.getAll(name).length > 1) throw invalid(`${name} must be given at most once`);
  }
  const signature = params.get("signature")!;
  const timestamp = params.get("timestamp")!;
  if (!/^[0-9a-f]{64}$/.test(signature) || !/^\d{1,12}$/.test(timestamp))
    throw invalid("malformed signature or timestamp");
  if (Math.abs(now.getTime() / 1000 - Number(timestamp)) > PROXY_SIGNATURE_MAX_AGE_SECONDS)
    throw invalid("stale timestamp");
  const expected = Buffer.from(signProxyParameters(params, secret), "hex");
  if (!timingSafeEqual(expected, Buffer.from(signature, "hex"))) throw invalid("signature mismatch");
  return { shop: params.get("shop")!, loggedInCustomerId: params.get(CUSTOMER_PARAMETER) ?? "" };
}

function invalid(reason: string): ServiceError {
  return new ServiceError("INVALID_PROXY_SIGNATURE", "The app proxy signature is missing, invalid or stale", {
    cause: new Error(reason),
  });
}
