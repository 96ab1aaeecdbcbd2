import { ApiVersion } from "@shopify/shopify-api";

/**
 * The platform API versions every document is written and validated against. The Storefront API
 * uses the Admin API's version so one schema snapshot covers the service.
 */
export const ADMIN_API_VERSION = ApiVersion.October26;
export const STOREFRONT_API_VERSION = ApiVersion.October26;

/**
 * The App Events API's version in its URL (https://api.shopify.com/app/<version>/events). The
 * reference shopify.dev lists as latest is unstable; move this to a stable version once one is
 * listed as latest ("App Events API reference").
 */
export const APP_EVENTS_API_VERSION = "unstable";
