import type { AppLoadContext } from "@remix-run/node";
import { getEnv } from "~/config/env.server";
import { ServiceError } from "~/lib/errors";
import { offlineAdminClient } from "~/platform/admin-graphql.server";
import { requireOfflineSession } from "~/platform/offline-sessions.server";
import { SHOP_DOMAIN_PATTERN } from "~/services/channels";
import { ANONYMOUS_VIEWER, type Caller } from "~/services/caller";
import { requestUrl } from "../request-input.server";
import { verifyProxyRequest } from "./proxy-signature.server";

/**
 * The Online Store front door: the platform's signature over the query (and its freshness), then
 * the logged-in customer, then the install. The customer is read only after the signature holds.
 */
export async function requireProxyCaller(request: Request, context: AppLoadContext | undefined): Promise<Caller> {
  return proxyCaller(requestUrl(request, context), undefined);
}

/** requireProxyCaller on the request's URL as sent, for an answer made without a Fetch Request (the server's fast path). */
export async function requireProxyCallerAt(url: URL): Promise<Caller> {
  return proxyCaller(url, undefined);
}

/**
 * The front door of storefront pages anyone may open (the shared-list page): as requireProxyCaller,
 * but a logged-out shopper is the shop's one anonymous viewer, whose rate and budget share all
 * logged-out shoppers of the shop have in common.
 */
export async function requireProxyViewer(request: Request, context: AppLoadContext | undefined): Promise<Caller> {
  return proxyCaller(requestUrl(request, context), ANONYMOUS_VIEWER);
}

async function proxyCaller(url: URL, loggedOut: string | undefined): Promise<Caller> {
  // The platform stamps signatures with the real time, so freshness is judged by it, not by `clock`.
  const { shop, loggedInCustomerId } = verifyProxyRequest(url, getEnv().SHOPIFY_API_SECRET, new Date());
  if (!loggedInCustomerId && loggedOut === undefined) throw new ServiceError("AUTH_REQUIRED", "Log in to save items");
  if (loggedInCustomerId && !/^\d{1,20}$/.test(loggedInCustomerId))
    throw new ServiceError("AUTH_REQUIRED", "The logged-in customer id is not valid");
  // Only reachable with a valid signature: a shop value that is no shop domain has no install.
  if (!SHOP_DOMAIN_PATTERN.test(shop))
    throw new ServiceError("SHOP_NOT_INSTALLED", "The app is not installed on this shop");
  await requireOfflineSession(shop);
  return {
    shop,
    customerGid: loggedInCustomerId ? `gid://shopify/Customer/${loggedInCustomerId}` : loggedOut!,
    channel: "online-store",
    admin: offlineAdminClient(shop),
  };
}
