import type { RequestHandler } from "msw";

export type ApiName = "admin" | "customer-account" | "customer-account-discovery" | "storefront";

export type Plan = "free" | "starter" | "pro" | "scale";

/** The shop's Shopify plan, which sets its Admin API rate limit. */
export type ApiTier = "standard" | "advanced" | "plus" | "enterprise";

export interface EmulatorOptions {
  appTomlPath?: string;
  /** Numeric app id used in stored `app--<id>--<name>` metaobject types. */
  apiClientId?: string;
  now?: () => Date;
  /** How many recent requests `requests` keeps (and schema violations); counts stay exact. Default 10,000. */
  requestLogLimit?: number;
  /** The initial setSearchLag, restored by reset(). Default 0. */
  searchLagMs?: number;
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
  adminAccessToken: string;
  storefrontAccessToken?: string;
  plan?: Plan;
  /** Defaults to standard. */
  tier?: ApiTier;
  customers?: CustomerSeed[];
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
}

export interface RecordedRequest {
  api: ApiName;
  shop: string;
  operationName?: string;
  query?: string;
  variables?: unknown;
  /** 0 for an injected network failure, which has no HTTP status. */
  status: number;
}

export interface SchemaViolation {
  api: string;
  query: string;
  errors: string[];
}

export type FaultKind =
  | "http500"
  | "http503"
  | "http429"
  | "throttled"
  | "network"
  /** HTTP 200 with `data: null` and a top-level `errors` array, as the platform answers an internal error. */
  | "graphqlErrors"
  /** Never answers; the request is released (as a network error) when its client aborts it or on reset. */
  | "hang"
  /** Answers normally after `delayMs`, even if the client gave up meanwhile. */
  | "delay";

export interface FaultSpec {
  kind: FaultKind;
  api?: ApiName;
  /** The shop a request is recorded under. */
  shop?: string;
  operationName?: string;
  /** Defaults to 1. */
  times?: number;
  /** Required for "delay". */
  delayMs?: number;
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

export interface PlatformEmulator {
  handlers: RequestHandler[];
  /** Answers a request for a platform URL as the msw handlers would; undefined when no route serves it. */
  handle(request: Request): Promise<Response | undefined>;
  addShop(shop: ShopSeed): void;
  setPlan(domain: string, plan: Plan): void;
  revokeAdminToken(domain: string): void;
  reset(): void;
  metaobjects(domain: string, type?: string): EmulatedMetaobject[];
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
