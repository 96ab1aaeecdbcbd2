import { decodeJwt, jwtVerify, type JWTPayload } from "jose";
import { getEnv } from "~/config/env.server";
import { SHOP_DOMAIN_PATTERN } from "~/services/channels";
import { CUSTOMER_GID_PATTERN } from "~/services/direct-access/direct-token.server";
import { ServiceError } from "~/lib/errors";
import { issueDirectAccess, requireEntitledShop } from "./issue-direct-access.server";
import type { DirectAccessGrant } from "./schemas";

/**
 * Customer account path: the extension's session token is the only identity; dest names the
 * shop and sub the customer. Nothing from the body is read.
 */
export async function exchangeCustomerAccountSessionToken(request: Request): Promise<DirectAccessGrant> {
  const sessionToken = await verifyExtensionSessionToken(request, "shopify.sessionToken.get()");
  const shop = shopFromDest(sessionToken.dest);
  const customerGid = customerFromSub(sessionToken.sub);
  await requireEntitledShop(shop, "customer-account");
  return issueDirectAccess({ shop, customerGid, channel: "customer-account" });
}

/**
 * How old a session token may be, and how long it may live. The platform's tokens live a minute or
 * a few; the library accepts a token without exp, and one whose exp is years after its iat, and so
 * would a leaked one forever. Here both exp and iat are required, iat no further back than this,
 * and exp no further after iat.
 */
export const MAX_SESSION_TOKEN_SECONDS = 10 * 60;

/**
 * Verified as the library verifies it (HS256 with the app secret, 10 s skew, nbf and exp when
 * present), plus the audience check the library skips, and exp and iat required and bounded
 * (MAX_SESSION_TOKEN_SECONDS). Not through authenticate.public.customerAccount: that throws bare
 * 401/410 Responses an extension cannot read, and refuses any client whose User-Agent looks
 * automated, which says nothing about a request that carries a signed token. The platform signs
 * the tokens of customer-account and point-of-sale extensions alike; `source` tells the caller
 * where a fresh one comes from.
 */
export async function verifyExtensionSessionToken(request: Request, source: string): Promise<JWTPayload> {
  const token = sessionTokenOf(request);
  if (!token) throw new ServiceError("AUTH_REQUIRED", `Send Authorization: Bearer <session token from ${source}>`);
  const { SHOPIFY_API_KEY, SHOPIFY_API_SECRET } = getEnv();
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(SHOPIFY_API_SECRET), {
      algorithms: ["HS256"],
      clockTolerance: 10,
      audience: SHOPIFY_API_KEY,
      requiredClaims: ["exp", "iat"],
      maxTokenAge: MAX_SESSION_TOKEN_SECONDS,
    });
    if (payload.exp! - payload.iat! > MAX_SESSION_TOKEN_SECONDS) throw new Error("exp is too long after iat");
    return payload;
  } catch (error) {
    throw new ServiceError(
      "INVALID_TOKEN",
      `The session token is malformed, expired or not signed for this app; send a fresh one from ${source}`,
      { cause: error },
    );
  }
}

function sessionTokenOf(request: Request): string | undefined {
  return (
    request.headers
      .get("Authorization")
      ?.trim()
      .replace(/^Bearer\s+/i, "") || undefined
  );
}

/**
 * The shop a request's session token names, read without verifying it, or "unknown": only for
 * keying rate limits and logs before the token is checked, never for deciding anything.
 */
export function claimedShopOf(request: Request): string {
  const token = sessionTokenOf(request);
  try {
    return (token && normalisedDest(decodeJwt(token).dest)) || "unknown";
  } catch {
    return "unknown";
  }
}

/** A staff user's numeric id: the sub of the admin's and point of sale's session tokens. */
export const STAFF_USER_ID_PATTERN = /^[1-9]\d{0,19}$/;

/**
 * The shop of a token the shop's admin issued (the admin's and point of sale's session tokens), or
 * undefined: dest is https://<shop> and iss https://<shop>/admin, the same shop, as the platform's
 * "Session tokens" page (shopify.dev, apps, authentication) asks apps to verify. A
 * customer-account token (a bare dest, no iss) is not one.
 */
export function adminIssuedShopOf(claims: JWTPayload): string | undefined {
  const { iss, dest } = claims;
  if (typeof dest !== "string" || dest.length > MAX_DEST_LENGTH || !dest.startsWith("https://")) return undefined;
  const shop = dest.slice("https://".length);
  return SHOP_DOMAIN_PATTERN.test(shop) && iss === `https://${shop}/admin` ? shop : undefined;
}

/** A shop domain is at most 255 characters; with a scheme and a slash, a little more. */
const MAX_DEST_LENGTH = 300;

export function shopFromDest(dest: unknown): string {
  const shop = normalisedDest(dest);
  if (!shop) throw new ServiceError("INVALID_TOKEN", "The session token does not name a shop");
  return shop;
}

/**
 * dest is a bare domain in the docs but may carry a scheme (and a trailing slash): normalise it.
 * Read before the token is verified, so its length is bounded first: the trailing-slash pattern
 * backtracks quadratically over a long run of slashes (16,000 took 457 ms).
 */
function normalisedDest(dest: unknown): string | undefined {
  const shop =
    typeof dest === "string" && dest.length <= MAX_DEST_LENGTH
      ? dest
          .trim()
          .toLowerCase()
          .replace(/^https?:\/\//, "")
          .replace(/\/+$/, "")
      : "";
  return SHOP_DOMAIN_PATTERN.test(shop) ? shop : undefined;
}

/**
 * sub is present only for a logged-in customer (and only with protected customer data access).
 * Anything but a customer GID, such as the staff user id of an Admin session token signed with
 * the same secret, is refused rather than read as a customer.
 */
function customerFromSub(sub: unknown): string {
  if (sub === undefined || sub === null || sub === "") {
    throw new ServiceError("CUSTOMER_REQUIRED", "The customer must be logged in to use saved items");
  }
  if (typeof sub !== "string" || !CUSTOMER_GID_PATTERN.test(sub)) {
    throw new ServiceError("INVALID_TOKEN", "The session token's subject is not a customer");
  }
  return sub;
}
