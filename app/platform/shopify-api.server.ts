// The adapter (the one the Remix package uses) sets the library's fetch when first evaluated;
// importing it before replacing the fetch keeps a later import from putting the plain one back.
import "@shopify/shopify-api/adapters/web-api";
import { LogSeverity, shopifyApi, type ConfigParams, type DomainTransformation } from "@shopify/shopify-api";
import { setAbstractFetchFunc, type AbstractFetchFunc } from "@shopify/shopify-api/runtime";
import { getEnv } from "~/config/env.server";
import { ACCESS_SCOPES } from "./access-scopes";
import { ADMIN_API_VERSION } from "./api-versions";
import { platformFetch } from "./platform-fetch.server";

// Every call the platform libraries make (token exchange, refresh, webhooks, billing) is bounded in
// time like ours, and reaches the emulator in the sandbox.
setAbstractFetchFunc(platformFetch as AbstractFetchFunc);

const env = getEnv();
const appUrl = new URL(env.SHOPIFY_APP_URL);

/**
 * What both instances of the platform library (the Remix package's in app/shopify.server.ts and
 * platformApi below) must agree on: an instance that lacks a shop domain the other accepts would
 * install a shop it can never renew the token of.
 */
export const platformLibraryConfig = {
  apiKey: env.SHOPIFY_API_KEY,
  apiSecretKey: env.SHOPIFY_API_SECRET,
  apiVersion: ADMIN_API_VERSION,
  isEmbeddedApp: true,
  scopes: ACCESS_SCOPES.split(","),
  // The library logs every proxy authentication at Info; at storefront traffic volumes that is noise.
  logger: { level: LogSeverity.Warning },
  // The library dropped customShopDomains (shopify-api 13) and ignores it; an identity transformation
  // is how it now learns one more accepted shop domain.
  domainTransformations: env.SHOP_CUSTOM_DOMAIN ? [acceptShopsOn(env.SHOP_CUSTOM_DOMAIN)] : [],
} satisfies Partial<ConfigParams>;

/** `<name>.<domain>` accepted as a shop and left as it is. */
function acceptShopsOn(domain: string): DomainTransformation {
  return {
    match: new RegExp(`^([a-zA-Z0-9][a-zA-Z0-9-_]*)\\.${domain.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`),
    transform: `$1.${domain}`,
  };
}

/**
 * The platform library's API object, for what the Remix package does not expose: refreshing and
 * migrating offline tokens under our own single-flight lock (the package would refresh once per
 * concurrent request, and a refresh token works only once).
 */
export const platformApi = shopifyApi({
  ...platformLibraryConfig,
  hostName: appUrl.host,
  hostScheme: appUrl.protocol === "http:" ? "http" : "https",
  // What the Remix package sets on its own instance, whatever its configuration says.
  future: { unstable_managedPricingSupport: true },
});
