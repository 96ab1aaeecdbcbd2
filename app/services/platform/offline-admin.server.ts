import { SessionNotFoundError } from "@shopify/shopify-app-remix/server";
import { ServiceError } from "~/lib/errors";
import { unauthenticated } from "~/shopify.server";
import type { AdminGraphqlClient } from "./admin-graphql.server";

/**
 * The shop's offline Admin client for work that arrives without a merchant (webhooks, direct
 * channels), or undefined when the shop has no offline session (uninstalled). This client throws
 * the library's raw errors, which runAdminGraphql maps (a revoked token becomes
 * SHOP_NOT_INSTALLED); the webhook context's own client would turn them into Responses instead.
 */
export async function loadOfflineAdmin(shop: string): Promise<AdminGraphqlClient | undefined> {
  try {
    return (await unauthenticated.admin(shop)).admin;
  } catch (error) {
    if (error instanceof SessionNotFoundError) return undefined;
    throw error;
  }
}

/** The same client where a missing session must refuse the request: the app is not installed. */
export async function requireOfflineAdmin(shop: string): Promise<AdminGraphqlClient> {
  const admin = await loadOfflineAdmin(shop);
  if (!admin) throw new ServiceError("SHOP_NOT_INSTALLED", "The app is not installed on this shop");
  return admin;
}
