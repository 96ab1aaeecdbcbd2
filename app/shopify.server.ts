import { errorFields, writeLog } from "~/lib/json-log";
import "@shopify/shopify-app-remix/adapters/node";
import { AppDistribution, shopifyApp } from "@shopify/shopify-app-remix/server";
import type { Session } from "@shopify/shopify-api";
import { refreshShopPlan } from "~/services/billing/plan-refresh.server";
import { resumeShopRedactions } from "~/services/compliance/pending-redactions.server";
import { recordShopInstalled } from "~/services/installs/shop-records.server";
import { getEnv } from "~/config/env.server";
import type { AdminGraphqlClient } from "~/platform/admin-graphql.server";
import { platformLibraryConfig } from "~/platform/shopify-api.server";
import { sessionStorage as offlineAwareSessionStorage } from "~/platform/offline-sessions.server";

const env = getEnv();

/**
 * Runs after the library obtains a new offline token (install and reinstall). It makes the shop
 * serviceable again (its customers' saved items stayed on the platform), then, best effort, reads
 * its plan and runs a pass of any customer redaction that waited for access. Exported
 * so tests can run the hook exactly as the library calls it.
 */
export async function afterAuth({ session, admin }: { session: Session; admin: AdminGraphqlClient }): Promise<void> {
  await recordShopInstalled(session.shop);
  try {
    await refreshShopPlan(session.shop, admin);
    await resumeShopRedactions(session.shop, admin, "unclaimed");
  } catch (error) {
    // The admin page load that triggered the install refreshes the plan again; never block an install.
    writeLog("error", `[install] post-install work failed for ${session.shop}`, {
      error: error instanceof Response ? { status: error.status } : errorFields(error),
    });
  }
}

const shopify = shopifyApp({
  ...platformLibraryConfig,
  appUrl: env.SHOPIFY_APP_URL,
  authPathPrefix: "/auth",
  sessionStorage: offlineAwareSessionStorage,
  distribution: AppDistribution.AppStore,
  hooks: { afterAuth },
  future: {
    unstable_newEmbeddedAuthStrategy: true,
    // Public apps must use expiring offline tokens (the platform refuses non-expiring ones from
    // 2027-01-01); renewal runs in platform/offline-sessions.server.ts, once per shop.
    expiringOfflineAccessTokens: true,
  },
});

export default shopify;
export const addDocumentResponseHeaders = shopify.addDocumentResponseHeaders;
export const authenticate = shopify.authenticate;
export const unauthenticated = shopify.unauthenticated;
export const login = shopify.login;
export const registerWebhooks = shopify.registerWebhooks;
export const sessionStorage = shopify.sessionStorage;
