import type { RequestHandler } from "msw";
import type { ImportedMetaobject } from "./metaobject-store";
import type { ProductSeed } from "./products";

// Names that are also checked at run time (the HTTP control endpoints) are listed as values.
export const API_NAMES = [
  "admin",
  "admin-oauth",
  "customer-account",
  "customer-account-discovery",
  "storefront",
  // The App Events API (app-events.ts): its token endpoint and its events.
  "app-events-auth",
  "app-events",
] as const;
export type ApiName = (typeof API_NAMES)[number];

export const PLANS = ["free", "starter", "pro", "scale"] as const;
export type Plan = (typeof PLANS)[number];

/** The shop's Shopify plan, which sets its Admin API rate limit. */
export type ApiTier = "standard" | "advanced" | "plus" | "enterprise";

export interface EmulatorOptions {
  appTomlPath?: string;
  /** Numeric app id used in stored `app--<id>--<name>` metaobject types. */
  apiClientId?: string;
  /**
   * The app's API key and secret: the OAuth token endpoint checks them, and token exchange checks
   * session tokens against the secret. Without them every token request is refused.
   */
  clientId?: string;
  clientSecret?: string;
  /** How long an expiring offline access token lasts, unless the shop says otherwise. Default 3600. */
  adminTokenLifetimeSeconds?: number;
  now?: () => Date;
  /** How a latency or a delay fault is waited out; tests pass one that waits on their own clock. */
  sleep?: (ms: number) => Promise<void>;
  /** How many recent requests `requests` keeps (and schema violations); counts stay exact. Default 10,000. */
  requestLogLimit?: number;
  /** The initial setSearchLag, restored by reset(). Default 0. */
  searchLagMs?: number;
  /** The app's Shopify App Pricing meters (setAppPricing); none by default, so every event is a custom one. */
  appPricing?: AppPricing;
  /**
   * How many entries each metaobject definition may hold per shop; a create past it is refused
   * with MAX_OBJECTS_EXCEEDED. Default 1,000,000, the platform's (limits.ts); tests set it low.
   */
  metaobjectEntryCap?: number;
}

/**
 * A usage meter of the app's pricing configuration on Shopify App Pricing (the Partner Dashboard's
 * Pricing section): billing events whose event_handle is the meter's handle add their
 * attributes.value to it, at the unit price of the shop's plan. A plan absent from the prices has
 * no such meter. No spending cap: "Setup usage charges" says usage caps aren't supported.
 */
export interface AppPricingMeter {
  handle: string;
  unitPriceCents: Partial<Record<Exclude<Plan, "free">, number>>;
}

export interface AppPricing {
  meters: AppPricingMeter[];
  /**
   * The welcome link, a path of the app: where the plan selection page sends the merchant, in the
   * embedded admin, once they approve a plan (plan-selection.ts); the app's home when absent.
   */
  welcomeLink?: string;
}

/** The billing error states of "Setup usage charges", which the Dev Dashboard shows for a refused billing event. */
export type BillingErrorCode =
  | "NO_SUBSCRIPTION"
  | "SUBSCRIPTION_NOT_METERED"
  | "PERIOD_CLOSED"
  | "INVALID_TIMESTAMP"
  | "INVALID_VALUE"
  | "MISSING_VALUE_KEY";

/** An event the App Events API received (answered 202), as the Dev Dashboard's logs show it. */
export interface AppEventRecord {
  shop: string;
  eventHandle: string;
  timestamp: string;
  idempotencyKey: string;
  attributes: Record<string, string | number | boolean>;
  receivedAt: string;
  /** billing: the handle names a meter of the pricing configuration; custom: it names none. */
  kind: "billing" | "custom";
  resultStatus: "RESULT_STATUS_SUCCESS" | "RESULT_STATUS_FAILURE";
  resultCode?: BillingErrorCode;
  resultDetails?: string;
  /** What the event added to the merchant's bill, in US cents. */
  chargedCents: number;
}

/** What a shop is charged in its subscription's current billing cycle: its billing events that passed. */
export interface BillingCharges {
  cycleStart: string | null;
  cycleEnd: string | null;
  chargedCents: number;
  events: AppEventRecord[];
}

export interface CustomerSeed {
  /** gid://shopify/Customer/N */
  id: string;
  customerAccountAccessToken?: string;
  storefrontCustomerAccessToken?: string;
}

export interface ShopSeed {
  /** The myshopify domain, e.g. "test-shop.myshopify.com". */
  domain: string;
  /** False: the app is not installed and holds no admin token. Default true. */
  installed?: boolean;
  /** The initial offline access token; generated when absent. */
  adminAccessToken?: string;
  /** The initial refresh token of an expiring access token; generated when absent. */
  refreshToken?: string;
  /** False seeds a legacy non-expiring token with no refresh token. Default true. */
  expiringAdminToken?: boolean;
  adminTokenLifetimeSeconds?: number;
  storefrontAccessToken?: string;
  plan?: Plan;
  /** Defaults to standard. */
  tier?: ApiTier;
  customers?: CustomerSeed[];
  /** This shop's entry cap per metaobject definition, instead of the emulator's metaobjectEntryCap. */
  metaobjectEntryCap?: number;
  /** Optional scopes (`[access_scopes] optional_scopes`) the merchant granted already. Default none. */
  grantedOptionalScopes?: string[];
}

/** An installation's offline Admin API credentials, as the token endpoint hands them out. */
export interface AdminCredentials {
  accessToken: string;
  /** ISO 8601; null for a non-expiring token. */
  expiresAt: string | null;
  refreshToken: string | null;
  refreshTokenExpiresAt: string | null;
  scope: string;
}

export interface SeededShop {
  domain: string;
  /** Null when the shop was seeded as not installed. */
  adminCredentials: AdminCredentials | null;
}

/** One shop's Admin API consumption since the last reset. */
export interface ShopUsage {
  shop: string;
  /** Requests to any API, counted like countRequests (cleared by clearRequests). */
  requests: number;
  /** Summed over the Admin requests that ran (not those refused as throttled or over the cap). */
  requestedPoints: number;
  actualPoints: number;
  /** Admin requests answered THROTTLED, by the bucket or by an injected fault. */
  throttledRequests: number;
  /** Successful grant_type=refresh_token requests. */
  refreshes: number;
  /** Successful token exchanges (session token or migration of a non-expiring token). */
  tokenExchanges: number;
}

export interface RecordedRequest {
  api: ApiName;
  shop: string;
  operationName?: string;
  query?: string;
  variables?: unknown;
  /** 0 for an injected network failure, which has no HTTP status. */
  status: number;
  /** An Admin request that ran: the points it asked for and those it cost, to tell apart what each document spent. */
  points?: { requested: number; actual: number };
}

export interface SchemaViolation {
  api: string;
  query: string;
  errors: string[];
}

export const FAULT_KINDS = [
  "http500",
  "http503",
  "http429",
  "throttled",
  "network",
  // HTTP 200 with `data: null` and a top-level `errors` array, as the platform answers an internal error.
  "graphqlErrors",
  // Never answers; the request is released (as a network error) when its client aborts it or on reset.
  "hang",
  // Answers normally after `delayMs`, even if the client gave up meanwhile.
  "delay",
  // Does the work (a mutation is applied), then never answers, as when the caller dies or the answer is lost.
  "hangAfterWork",
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultSpec {
  kind: FaultKind;
  api?: ApiName;
  /** The shop a request is recorded under. */
  shop?: string;
  operationName?: string;
  /** Defaults to 1. */
  times?: number;
  /** Matching requests answered normally before the fault applies (default 0): "the second write hangs". */
  skip?: number;
  /** Required for "delay". */
  delayMs?: number;
}

/** A metafield as stored, namespace in its stored form (`app--<apiClientId>` for `$app`). */
export interface EmulatedMetafield {
  id: string;
  ownerId: string;
  namespace: string;
  key: string;
  type: string;
  value: string;
}

export interface EmulatedMetaobject {
  id: string;
  /** The stored form, `app--<apiClientId>--<name>`. */
  type: string;
  handle: string;
  displayName: string;
  fields: Record<string, string>;
  createdAt: string;
  updatedAt: string;
}

/** A metafield a seed stores, as metafieldsSet takes it (`$app` namespace unless another is given). */
export interface SeededMetafield {
  ownerId: string;
  namespace?: string;
  key: string;
  value: string;
}

export interface PlatformEmulator {
  handlers: RequestHandler[];
  /** Answers a request for a platform URL as the msw handlers would; undefined when no route serves it. */
  handle(request: Request): Promise<Response | undefined>;
  addShop(shop: ShopSeed): SeededShop;
  setPlan(domain: string, plan: Plan): void;
  /** Replaces the app's pricing configuration (its meters), as an edit in the Partner Dashboard would. */
  setAppPricing(pricing: AppPricing): void;
  /** The events the App Events API received, of one shop or all, oldest first, with what billing made of each. */
  appEvents(domain?: string): AppEventRecord[];
  /** What the shop is charged in its current billing cycle. */
  billingCharges(domain: string): BillingCharges;
  /** Every admin and refresh token of the shop stops working, as on uninstall. */
  revokeAdminToken(domain: string): void;
  /** The shop's admin access tokens expire now; its refresh token still works. */
  expireAdminToken(domain: string): void;
  /**
   * The merchant grants (or revokes) optional scopes, as on App Bridge's `scopes.request` modal: the
   * Admin API checks them from the next request and tokens issued afterwards carry them. Throws for
   * a scope that is not in `[access_scopes] optional_scopes`.
   */
  grantOptionalScopes(domain: string, scopes: readonly string[]): void;
  revokeOptionalScopes(domain: string, scopes: readonly string[]): void;
  /** The scopes the shop has granted the app (required and granted optional ones), sorted. */
  grantedScopes(domain: string): string[];
  /** The credentials issued last (seeded, refreshed or exchanged); undefined once revoked. */
  adminCredentials(domain: string): AdminCredentials | undefined;
  reset(): void;
  metaobjects(domain: string, type?: string): EmulatedMetaobject[];
  /** The Flow triggers the app fired for the shop (flowTriggerReceive that passed), oldest first. */
  flowTriggersFired(domain: string): { handle: string; payload: Record<string, unknown> }[];
  /** Stores many metaobjects at once, as a seed (no per-write checks; handles must be unique). */
  importMetaobjects(domain: string, type: string, entries: readonly ImportedMetaobject[]): void;
  /** The shop's metafields (metafieldsSet), of one owner or all. */
  metafields(domain: string, ownerId?: string): EmulatedMetafield[];
  /**
   * Stores metafields as the app's metafieldsSet would, for a seed: the same checks (owner in the
   * catalogue, the definition's type, the value), and throws what metafieldsSet would refuse.
   */
  setMetafields(domain: string, metafields: readonly SeededMetafield[]): void;
  /** Products and variants that nodes(ids:) answers with, and metafieldsSet accepts as owners. */
  addProducts(domain: string, products: readonly ProductSeed[]): void;
  /** The merchant deletes these products. */
  removeProducts(domain: string, ids: readonly string[]): void;
  /** How long a bulk operation runs on the emulator's clock (default 0: done by the first poll). */
  setBulkOperationDuration(ms: number): void;
  /** The most recent requests (see requestLogLimit), oldest first. */
  readonly requests: RecordedRequest[];
  countRequests(filter?: { api?: ApiName; shop?: string }): number;
  clearRequests(): void;
  readonly schemaViolations: SchemaViolation[];
  setLatency(ms: number): void;
  /**
   * From now on each metaobject write reaches `metaobjects(query: …)` only `ms` after it happened,
   * as the platform's search is eventually consistent; lookups by id or handle stay consistent.
   */
  setSearchLag(ms: number): void;
  /** Turns the cost bucket off (benchmarks) or back on; injected THROTTLED faults still apply. */
  setThrottling(enabled: boolean): void;
  injectFault(fault: FaultSpec): void;
  usage(domain: string): ShopUsage;
  /** Every shop that was added or has usage. */
  allUsage(): ShopUsage[];
}

/**
 * What the emulator's process (main.ts --setup) calls before it listens, so whoever starts it (the
 * sandbox) fills it with shops and data of its own format without the emulator knowing that format.
 */
export type EmulatorSetup = (emulator: PlatformEmulator, argument: string | undefined) => void | Promise<void>;
