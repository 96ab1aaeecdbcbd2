import { ServiceError } from "~/lib/errors";
import type { Caller } from "~/services/caller";
import { requireOfflineAdmin } from "~/platform/offline-admin.server";
import type { DirectChannel } from "~/services/channels";
import { verifyDirectAccessToken } from "~/services/direct-access/direct-token.server";

/** The Headless front door: a service token minted by /api/headless/auth/exchange. */
export function requireHeadlessCaller(request: Request): Promise<Caller> {
  return requireDirectCaller(request, "headless");
}

/** The Customer account front door: a service token minted by /api/customer-account/auth/exchange. */
export function requireCustomerAccountCaller(request: Request): Promise<Caller> {
  return requireDirectCaller(request, "customer-account");
}

/**
 * Shop, channel and customer come only from the verified token; nothing in the body or query can
 * name another customer or shop. The offline session is the install check the token cannot carry:
 * the shop may have uninstalled since the token was minted (the dispatcher also checks the Shop record).
 */
async function requireDirectCaller(request: Request, channel: DirectChannel): Promise<Caller> {
  const header = request.headers.get("Authorization")?.trim();
  if (!header)
    throw new ServiceError("AUTH_REQUIRED", "Send Authorization: Bearer <access token> from the exchange route");
  const token = /^Bearer +(\S+)$/i.exec(header)?.[1];
  if (!token) throw new ServiceError("INVALID_TOKEN", "The Authorization header must be Bearer <access token>");
  const claims = await verifyDirectAccessToken(token, channel);
  return { shop: claims.shop, customerGid: claims.sub, channel, admin: await requireOfflineAdmin(claims.shop) };
}
