// The adapter (the one the Remix package uses) sets the library's fetch when first evaluated;
// importing it before replacing the fetch keeps a later import from putting the plain one back.
import "@shopify/shopify-api/adapters/web-api";
import { LogSeverity, shopifyApi } from "@shopify/shopify-api";
import { setAbstractFetchFunc, type AbstractFetchFunc } from "@shopify/shopify-api/runtime";
import { getEnv } from "~/config/env.server";
import { ADMIN_API_VERSION } from "./api-versions";
import { platformFetch } from "./platform-fetch.server";

// Every call the platform libraries make (token exchange, refresh, webhooks, billing) is bounded in
// time like ours, and reaches the emulator in the sandbox.
setAbstractFetchFunc(platformFetch as AbstractFetchFunc);

const env = getEnv();
const appUrl = new URL(env.SHOPIFY_APP_URL);

/**
 * The platform library's API object, for what the Remix package does not expose: refreshing and
 * migrating offline tokens under our own single-flight lock (the package would refresh once per
 * concurrent request, and a refresh token works only once).
 */
export const platformApi = shopifyApi({
  apiKey: env.SHOPIFY_API_KEY,
  apiSecretKey: env.SHOPIFY_API_SECRET,
  apiVersion: ADMIN_API_VERSION,
  hostName: appUrl.host,
  hostScheme: appUrl.protocol === "http:" ? "http" : "https",
  isEmbeddedApp: true,
  logger: { level: LogSeverity.Warning },
  future: { unstable_managedPricingSupport: true },
});
