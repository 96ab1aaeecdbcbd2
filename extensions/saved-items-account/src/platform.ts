import type { StandardApi } from "@shopify/ui-extensions/customer-account";
import { configuredAppUrl } from "./lib/app-url";
import { listContextFrom } from "./lib/constants";
import { createSavedItemsClient, type SavedItemsClient } from "./lib/service-client";

/**
 * The platform API of the running target. Both targets get the StandardApi members used here
 * (sessionToken, settings, i18n, toast); the global is typed per target by the CLI's generated
 * shopify.d.ts, which this typed accessor does not depend on.
 */
export function extensionApi(): StandardApi {
  return (globalThis as unknown as { shopify: StandardApi }).shopify;
}

/** The merchant's list name from the extension settings, else the default. */
export function listContext(api: StandardApi): string {
  return listContextFrom(api.settings.value);
}

/** The client for this extension, or null when the bundle was built without the app URL. */
export function createClientFor(api: StandardApi): SavedItemsClient | null {
  const appUrl = configuredAppUrl();
  if (!appUrl) return null;
  return createSavedItemsClient({ appUrl, getSessionToken: () => api.sessionToken.get() });
}
