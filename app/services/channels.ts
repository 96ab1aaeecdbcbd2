/**
 * Who can call the service: the channels of the spec (§1), and the shop domain every caller names.
 * Plans entitle channels, tokens carry one, the route table serves each at its own path.
 */
export const CHANNELS = ["online-store", "customer-account", "headless"] as const;
export type Channel = (typeof CHANNELS)[number];

/**
 * Point of sale: store staff read the saved items of the customer chosen in POS (issue #22). Not
 * a shopper channel: it serves only the reads (POS_OPERATIONS), at its own path, but plans include
 * it like the others (decision 0013).
 */
export const POINT_OF_SALE = "point-of-sale";
/** Every channel a plan can include and a caller can come through. */
export const PLAN_CHANNELS = [...CHANNELS, POINT_OF_SALE] as const;
export type PlanChannel = (typeof PLAN_CHANNELS)[number];

/** The channels that call with the app's own short-lived token rather than the platform's signature. */
export const DIRECT_CHANNELS = ["headless", "customer-account"] as const satisfies readonly Channel[];
export type DirectChannel = (typeof DIRECT_CHANNELS)[number];

/** A shop as the platform names it to apps: its permanent `<name>.myshopify.com` domain. */
export const SHOP_DOMAIN_PATTERN = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/;
