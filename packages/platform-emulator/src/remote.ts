import { emulatorUrlFor } from "./http-server";
import type { ProductSeed } from "./products";
import type {
  AdminCredentials,
  AppEventRecord,
  AppPricing,
  BillingCharges,
  ApiName,
  EmulatedMetafield,
  EmulatedMetaobject,
  FaultSpec,
  Plan,
  RecordedRequest,
  SchemaViolation,
  SeededShop,
  ShopSeed,
  ShopUsage,
} from "./types";

/** The control side of an emulator served by startEmulatorServer, in this or another process. */
export interface RemoteEmulator {
  readonly url: string;
  /** Where the app sends a request meant for `platformUrl`. */
  platformUrl(platformUrl: string): string;
  health(): Promise<boolean>;
  addShop(seed: ShopSeed): Promise<SeededShop>;
  addShops(seeds: ShopSeed[]): Promise<SeededShop[]>;
  reset(): Promise<void>;
  usage(shop: string): Promise<ShopUsage>;
  allUsage(): Promise<ShopUsage[]>;
  injectFault(fault: FaultSpec): Promise<void>;
  setLatency(ms: number): Promise<void>;
  setSearchLag(ms: number): Promise<void>;
  setThrottling(enabled: boolean): Promise<void>;
  setPlan(shop: string, plan: Plan): Promise<void>;
  setAppPricing(pricing: AppPricing): Promise<void>;
  appEvents(shop?: string): Promise<AppEventRecord[]>;
  billingCharges(shop: string): Promise<BillingCharges>;
  metaobjects(shop: string, type?: string): Promise<EmulatedMetaobject[]>;
  metafields(shop: string, ownerId?: string): Promise<EmulatedMetafield[]>;
  flowTriggersFired(shop: string): Promise<{ handle: string; payload: Record<string, unknown> }[]>;
  /** Products and variants the shop's catalogue has (nodes(ids:), metafield owners). */
  addProducts(shop: string, products: ProductSeed[]): Promise<void>;
  /** The merchant grants or revokes optional scopes; answers the scopes the shop has granted afterwards. */
  setOptionalScopes(shop: string, change: { grant?: string[]; revoke?: string[] }): Promise<string[]>;
  adminCredentials(shop: string): Promise<AdminCredentials | undefined>;
  revokeAdminToken(shop: string): Promise<void>;
  expireAdminToken(shop: string): Promise<void>;
  countRequests(filter?: { api?: ApiName; shop?: string }): Promise<number>;
  /** The most recent matching requests the emulator still holds, oldest first (default the last 100). */
  requests(filter?: { api?: ApiName; shop?: string; limit?: number }): Promise<RecordedRequest[]>;
  clearRequests(): Promise<void>;
  schemaViolations(): Promise<SchemaViolation[]>;
}

export function createRemoteEmulator(url: string): RemoteEmulator {
  const base = url.replace(/\/+$/, "");

  async function call<T>(method: "GET" | "POST" | "DELETE", path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${base}/__emulator/${path}`, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = (await response.json()) as T & { error?: string };
    if (!response.ok) throw new Error(`emulator ${method} ${path}: ${response.status} ${answer.error ?? ""}`);
    return answer;
  }
  const query = (params: Record<string, string | number | undefined>) =>
    new URLSearchParams(
      Object.entries(params).flatMap(([key, value]) => (value === undefined ? [] : [[key, String(value)]])),
    ).toString();

  const addShops = async (seeds: ShopSeed[]) =>
    (await call<{ shops: SeededShop[] }>("POST", "shops", { shops: seeds })).shops;
  const post = (path: string, body: unknown) => call<unknown>("POST", path, body).then(() => undefined);

  return {
    url: base,
    platformUrl: (platformUrl) => emulatorUrlFor(base, platformUrl),
    health: async () => (await call<{ ok: boolean }>("GET", "health")).ok,
    addShop: async (seed) => (await addShops([seed]))[0]!,
    addShops,
    reset: () => post("reset", {}),
    usage: async (shop) => (await call<{ shops: ShopUsage[] }>("GET", `usage?${query({ shop })}`)).shops[0]!,
    allUsage: async () => (await call<{ shops: ShopUsage[] }>("GET", "usage")).shops,
    injectFault: (fault) => post("faults", { faults: [fault] }),
    setLatency: (ms) => post("latency", { ms }),
    setSearchLag: (ms) => post("search-lag", { ms }),
    setThrottling: (enabled) => post("throttling", { enabled }),
    setPlan: (shop, plan) => post("plan", { shop, plan }),
    setAppPricing: (pricing) => post("app-pricing", pricing),
    appEvents: async (shop) =>
      (await call<{ events: AppEventRecord[] }>("GET", `app-events?${query({ shop })}`)).events,
    billingCharges: (shop) => call<BillingCharges>("GET", `billing-charges?${query({ shop })}`),
    flowTriggersFired: async (shop) =>
      (
        await call<{ fired: { handle: string; payload: Record<string, unknown> }[] }>(
          "GET",
          `flow-triggers?${query({ shop })}`,
        )
      ).fired,
    metaobjects: async (shop, type) =>
      (await call<{ metaobjects: EmulatedMetaobject[] }>("GET", `metaobjects?${query({ shop, type })}`)).metaobjects,
    metafields: async (shop, owner) =>
      (await call<{ metafields: EmulatedMetafield[] }>("GET", `metafields?${query({ shop, owner })}`)).metafields,
    addProducts: (shop, products) => post("products", { shop, products }),
    setOptionalScopes: async (shop, change) =>
      (await call<{ granted: string[] }>("POST", "optional-scopes", { shop, ...change })).granted,
    adminCredentials: async (shop) =>
      (await call<{ adminCredentials: AdminCredentials | null }>("GET", `admin-token?${query({ shop })}`))
        .adminCredentials ?? undefined,
    revokeAdminToken: (shop) => post("admin-token", { shop, action: "revoke" }),
    expireAdminToken: (shop) => post("admin-token", { shop, action: "expire" }),
    countRequests: async (filter = {}) =>
      (await call<{ count: number }>("GET", `requests?${query({ ...filter, limit: 0 })}`)).count,
    requests: async (filter = {}) =>
      (await call<{ requests: RecordedRequest[] }>("GET", `requests?${query(filter)}`)).requests,
    clearRequests: () => call<unknown>("DELETE", "requests").then(() => undefined),
    schemaViolations: async () =>
      (await call<{ violations: SchemaViolation[] }>("GET", "schema-violations")).violations,
  };
}
