import { decodeJwt, type JWTPayload } from "jose";
import { getEnv } from "~/config/env.server";
import { ServiceError } from "~/lib/errors";
import { errorFields, writeLog } from "~/lib/json-log";
import { adminIssuedShopOf, STAFF_USER_ID_PATTERN } from "~/services/direct-access/customer-account-session.server";
import { authenticate } from "~/shopify.server";
import { errorResponse } from "../envelope.server";
import { readShopPlan } from "~/services/installs/shop-state.server";
import type { Plan } from "~/services/plans";
import { PAGE_LOAD_WINDOW_MS, refreshShopPlan } from "~/services/billing/plan-refresh.server";

/**
 * The front door of every embedded admin page: the library's admin authentication, then a plan
 * refresh from the platform (shared by the loaders of one page load) so the merchant always sees
 * what they pay for. A platform failure does not block the admin: the plan on record is shown and
 * the failure logged. A Response (the library's re-authentication bounce) goes through untouched.
 * A session token that is not an admin session token is refused with 401 before the library sees
 * it (isAdminSessionToken). `fresh` reads the plan even if a page load just did: the billing
 * return comes right after a subscription changed.
 */
export async function requireAdminShop(request: Request, { fresh = false }: { fresh?: boolean } = {}) {
  refuseOtherSessionTokens(request);
  const context = await authenticate.admin(request);
  const shop = context.session.shop;
  let plan: Plan;
  try {
    plan = await refreshShopPlan(shop, context.admin, { reuseWithinMs: fresh ? 0 : PAGE_LOAD_WINDOW_MS });
  } catch (error) {
    if (error instanceof Response) throw error;
    writeLog("error", "plan refresh failed; showing the plan on record", { shop, error: errorFields(error) });
    plan = await readShopPlan(shop);
  }
  return { ...context, shop, plan };
}

/**
 * The library opens the admin for any token signed with the app's secret whose dest parses as a
 * URL, whatever its issuer or subject: a customer-account extension's token with an https dest
 * opened the plans page, and one with the bare domain those tokens carry made the library throw
 * (500). The platform signs the tokens of its extensions with the same secret, so the claims say
 * which kind a token is. The token is read as the library reads it (the Authorization header,
 * else the id_token parameter); its signature and lifetime are still the library's to check.
 */
function refuseOtherSessionTokens(request: Request): void {
  const token =
    request.headers.get("authorization")?.replace("Bearer ", "") || new URL(request.url).searchParams.get("id_token");
  if (!token) return;
  let claims: JWTPayload;
  try {
    claims = decodeJwt(token);
  } catch {
    // Not a JWT at all: the library refuses it as it refuses any token it cannot verify.
    return;
  }
  if (!isAdminSessionToken(claims, getEnv().SHOPIFY_API_KEY)) {
    throw errorResponse(
      new ServiceError("INVALID_TOKEN", "Only an admin session token from App Bridge opens the app's admin pages"),
    );
  }
}

/**
 * An admin session token's claims, as the platform's "Session tokens" page (shopify.dev, apps,
 * authentication) describes them: issued by the shop's admin (adminIssuedShopOf), aud the app's
 * client id, sub the staff user. A customer-account token (bare dest, a customer GID or no sub, no
 * iss) fails each.
 */
export function isAdminSessionToken(claims: JWTPayload, apiKey: string): boolean {
  const { aud, sub } = claims;
  return (
    adminIssuedShopOf(claims) !== undefined &&
    (aud === apiKey || (Array.isArray(aud) && aud.length === 1 && aud[0] === apiKey)) &&
    typeof sub === "string" &&
    STAFF_USER_ID_PATTERN.test(sub)
  );
}
