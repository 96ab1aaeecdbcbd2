import type { FlowTriggerRecorder } from "./flow-triggers";
import { createHash } from "node:crypto";
import type { GraphQLError } from "graphql";
import type { MetafieldDefinition, MetaobjectDefinitions } from "./app-config";
import { createLeakyBucket, type LeakyBucket } from "./cost";
import type { RouteEnv } from "./exchange";
import type { ReportViolation } from "./graphql-execution";
import { createMetaobjectStore, type MetaobjectStore } from "./metaobject-store";
import { pushBounded } from "./request-log";
import { createAdminTokens, type AdminTokens } from "./tokens";
import type { ApiName, CustomerSeed, Plan, SchemaViolation, ShopSeed, ShopUsage } from "./types";

export interface Subscription {
  id: number;
  plan: Exclude<Plan, "free">;
  /** Its billing cycles run 30 days each from here (app-events.ts). */
  createdAt: Date;
}

export interface ShopState {
  domain: string;
  /** Stable per domain, so customer-account URLs survive reset() and new emulator instances. */
  numericId: number;
  adminTokens: AdminTokens;
  storefrontAccessToken: string | undefined;
  customers: CustomerSeed[];
  subscription: Subscription | undefined;
  metaobjects: MetaobjectStore;
  bucket: LeakyBucket;
  /** The optional scopes (`[access_scopes] optional_scopes`) the merchant has granted; see grantedScopes. */
  grantedOptionalScopes: Set<string>;
}

export interface EmulatorState extends RouteEnv {
  shops: Map<string, ShopState>;
  definitions: MetaobjectDefinitions;
  /** The app's product metafield definitions, and the client id its `$app` namespace stands for. */
  metafieldDefinitions: MetafieldDefinition[];
  apiClientId: string;
  /** Flow's side of flowTriggerReceive (flow-triggers.ts). */
  flowTriggers: FlowTriggerRecorder;
  /** The scopes every installation is granted, from the app's configuration. */
  scopes: string;
  /** Scopes the app may ask a merchant for; a shop has them only once granted (grantOptionalScopes). */
  optionalScopes: readonly string[];
  clientId: string | undefined;
  clientSecret: string | undefined;
  adminTokenLifetimeSeconds: number;
  now: () => Date;
  schemaViolations: SchemaViolation[];
  /** Bounds the request log and the violations, which would otherwise grow for as long as a sandbox runs. */
  logLimit: number;
  /** How long a metaobject write takes to reach the search index (metaobjects(query:)). */
  searchLagMs: number;
  /** Off only for benchmarks, which measure the app and not the platform's rate limit. */
  throttling: boolean;
  /** How many entries a metaobject definition holds per shop, unless the shop's seed says otherwise. */
  metaobjectEntryCap: number;
  /** By shop domain. */
  usage: Map<string, AdminUsage>;
  /** Ids for every GID the emulator hands out; one sequence, like the platform's global ids. */
  nextId(): number;
}

function shopNumericId(domain: string): number {
  // 11 digits, like real shop ids.
  return 10_000_000_000 + (createHash("sha256").update(domain).digest().readUIntBE(0, 6) % 90_000_000_000);
}

export function subscriptionFor(state: EmulatorState, plan: Plan): Subscription | undefined {
  return plan === "free"
    ? undefined
    : {
        id: state.nextId(),
        plan,
        createdAt: state.now(),
      };
}

/**
 * The scopes the shop has granted the app: the required ones at install, plus the optional ones the
 * merchant approved. Comma-separated and sorted, as the token endpoint's `scope` reads.
 */
export function grantedScopes(state: EmulatorState, granted: ReadonlySet<string>): string[] {
  const required = state.scopes.split(",").filter((scope) => scope !== "");
  return [...new Set([...required, ...granted])].sort();
}

/** Grants (or revokes) optional scopes of the shop; a scope the app did not declare optional is refused. */
export function setOptionalScopes(state: EmulatorState, shop: ShopState, scopes: readonly string[], granted: boolean) {
  const undeclared = scopes.filter((scope) => !state.optionalScopes.includes(scope));
  if (undeclared.length > 0) {
    throw new Error(
      `emulator: ${undeclared.join(", ")} is not in [access_scopes] optional_scopes of shopify.app.toml; a merchant can only grant those`,
    );
  }
  for (const scope of scopes) {
    if (granted) shop.grantedOptionalScopes.add(scope);
    else shop.grantedOptionalScopes.delete(scope);
  }
}

export function createShopState(state: EmulatorState, seed: ShopSeed): ShopState {
  const grantedOptionalScopes = new Set<string>();
  const adminTokens = createAdminTokens({
    now: state.now,
    lifetimeSeconds: seed.adminTokenLifetimeSeconds ?? state.adminTokenLifetimeSeconds,
    // Read at every issue, so a token issued after a grant carries it, as the platform's `scope` does.
    scope: () => grantedScopes(state, grantedOptionalScopes).join(","),
  });
  const shop = {
    domain: seed.domain,
    numericId: shopNumericId(seed.domain),
    adminTokens,
    storefrontAccessToken: seed.storefrontAccessToken,
    customers: seed.customers ?? [],
    subscription: subscriptionFor(state, seed.plan ?? "free"),
    metaobjects: createMetaobjectStore({
      nextId: () => state.nextId(),
      now: state.now,
      searchLagMs: () => state.searchLagMs,
      entryCap: () => seed.metaobjectEntryCap ?? state.metaobjectEntryCap,
    }),
    bucket: createLeakyBucket(state.now, seed.tier ?? "standard"),
    grantedOptionalScopes,
  };
  setOptionalScopes(state, shop, seed.grantedOptionalScopes ?? [], true);
  if (seed.installed !== false) {
    adminTokens.issue({
      expiring: seed.expiringAdminToken !== false,
      accessToken: seed.adminAccessToken,
      refreshToken: seed.refreshToken,
    });
  }
  return shop;
}

/** The figures of ShopUsage the request log does not give. */
export type AdminUsage = Omit<ShopUsage, "shop" | "requests">;

export const noUsage = (): AdminUsage => ({
  requestedPoints: 0,
  actualPoints: 0,
  throttledRequests: 0,
  refreshes: 0,
  tokenExchanges: 0,
});

/** The shop's usage counters, to be incremented. */
export function usageOf(state: EmulatorState, domain: string): AdminUsage {
  let usage = state.usage.get(domain);
  if (!usage) state.usage.set(domain, (usage = noUsage()));
  return usage;
}

export function shopByDomain(state: EmulatorState, domain: string | undefined): ShopState | undefined {
  return domain === undefined ? undefined : state.shops.get(domain);
}

export function shopByNumericId(state: EmulatorState, numericId: string | undefined): ShopState | undefined {
  return [...state.shops.values()].find((shop) => String(shop.numericId) === numericId);
}

export function violationReporter(state: EmulatorState, api: ApiName, query: string): ReportViolation {
  return (errors: readonly GraphQLError[]) => {
    pushBounded(state.schemaViolations, { api, query, errors: errors.map((error) => error.message) }, state.logLimit);
  };
}
