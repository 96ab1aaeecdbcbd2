import { ApiVersion } from "@shopify/shopify-api";

/**
 * The platform API versions every document is written and validated against. The Storefront API
 * uses the Admin API's version so one schema snapshot covers the service.
 */
export const ADMIN_API_VERSION = ApiVersion.October26;
export const STOREFRONT_API_VERSION = ApiVersion.October26;
