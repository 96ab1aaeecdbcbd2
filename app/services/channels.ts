/**
 * Who can call the service: the channels of the spec (§1), and the shop domain every caller names.
 * Plans entitle channels, tokens carry one, the route table serves each at its own path.
 */
export const CHANNELS = ["online-store", "customer-account", "headless"] as const;
export type Channel = (typeof CHANNELS)[number];

/** The channels that call with the app's own short-lived token rather than the platform's signature. */
export const DIRECT_CHANNELS = ["headless", "customer-account"] as const satisfies readonly Channel[];
export type DirectChannel = (typeof DIRECT_CHANNELS)[number];

/** A shop as the platform names it to apps: its permanent `<name>.myshopify.com` domain. */
export const SHOP_DOMAIN_PATTERN = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/;
