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
}

export interface EmulatorState extends RouteEnv {
  shops: Map<string, ShopState>;
  definitions: MetaobjectDefinitions;
  /** The app's product metafield definitions, and the client id its `$app` namespace stands for. */
  metafieldDefinitions: MetafieldDefinition[];
  apiClientId: string;
  /** Flow's side of flowTriggerReceive (flow-triggers.ts). */
  flowTriggers: FlowTriggerRecorder;
  /** The scopes of every installation, from the app's configuration. */
  scopes: string;
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

export function createShopState(state: EmulatorState, seed: ShopSeed): ShopState {
  const adminTokens = createAdminTokens({
    now: state.now,
    lifetimeSeconds: seed.adminTokenLifetimeSeconds ?? state.adminTokenLifetimeSeconds,
    scope: state.scopes,
  });
  if (seed.installed !== false) {
    adminTokens.issue({
      expiring: seed.expiringAdminToken !== false,
      accessToken: seed.adminAccessToken,
      refreshToken: seed.refreshToken,
    });
  }
  return {
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
  };
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
