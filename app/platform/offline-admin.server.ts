import { offlineAdminClient, type AdminGraphqlClient } from "./admin-graphql.server";
import { loadOfflineSession, requireOfflineSession } from "./offline-sessions.server";

/**
 * The shop's offline Admin client for work that arrives without a merchant (webhooks, direct
 * channels), or undefined when the app has no access to the shop (uninstalled).
 */
export async function loadOfflineAdmin(shop: string): Promise<AdminGraphqlClient | undefined> {
  return (await loadOfflineSession(shop)) ? offlineAdminClient(shop) : undefined;
}

/** The same client where a missing session must refuse the request: SHOP_NOT_INSTALLED. */
export async function requireOfflineAdmin(shop: string): Promise<AdminGraphqlClient> {
  await requireOfflineSession(shop);
  return offlineAdminClient(shop);
}
