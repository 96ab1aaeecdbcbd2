import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { adminApiRoute, PLAN_CATALOGUE } from "./admin-api";
import { createAppEvents } from "./app-events";
import { loadAppConfig } from "./app-config";
import { bulkResultRoute, setBulkOperationDuration } from "./bulk-operations";
import { customerAccountApiRoutes } from "./customer-account-api";
import { answerRequest, mswHandlers } from "./exchange";
import { createFaultQueue } from "./faults";
import { createFlowTriggerRecorder, loadFlowTriggers } from "./flow-triggers";
import { displayNameOf } from "./metaobject-store";
import { oauthRoute } from "./oauth";
import { planSelectionRoutes } from "./plan-selection";
import { listMetafields, shopMetafieldsApi } from "./metafields";
import { addProducts, removeProducts } from "./products";
import { createRequestLog, DEFAULT_REQUEST_LOG_LIMIT } from "./request-log";
import { repoRoot } from "./schemas";
import { optionalScopeRoutes } from "./scope-grants";
import {
  createShopState,
  grantedScopes,
  noUsage,
  setOptionalScopes,
  subscriptionFor,
  type EmulatorState,
  type ShopState,
} from "./state";
import { storefrontApiRoute } from "./storefront-api";
import { DEFAULT_ADMIN_TOKEN_LIFETIME_SECONDS } from "./tokens";
import { DEFAULT_METAOBJECT_ENTRY_CAP } from "./limits";
import type { EmulatorOptions, PlatformEmulator } from "./types";
export type { ImportedMetaobject } from "./metaobject-store";
export type { ProductSeed } from "./products";

export type {
  AdminCredentials,
  ApiName,
  ApiTier,
  CustomerSeed,
  EmulatedMetafield,
  EmulatedMetaobject,
  EmulatorOptions,
  FaultKind,
  FaultSpec,
  AppEventRecord,
  AppPricing,
  AppPricingMeter,
  BillingCharges,
  BillingErrorCode,
  Plan,
  PlatformEmulator,
  RecordedRequest,
  SchemaViolation,
  SeededMetafield,
  SeededShop,
  ShopSeed,
  ShopUsage,
} from "./types";

/**
 * An in-memory Shopify (Admin, Customer Account and Storefront GraphQL APIs, and the Admin OAuth
 * token endpoint) as msw handlers, or as `handle(request)` for a server. Every document is
 * validated against the published schema of the requested API version.
 */
export function createPlatformEmulator(options: EmulatorOptions = {}): PlatformEmulator {
  let lastId = 0;
  let latencyMs = 0;
  const logLimit = options.requestLogLimit ?? DEFAULT_REQUEST_LOG_LIMIT;
  const apiClientId = options.apiClientId ?? "1234567";
  const appConfig = loadAppConfig(options.appTomlPath ?? path.join(repoRoot, "shopify.app.toml"), apiClientId);
  const state: EmulatorState = {
    shops: new Map(),
    definitions: appConfig.definitions,
    metafieldDefinitions: appConfig.metafieldDefinitions,
    apiClientId,
    flowTriggers: createFlowTriggerRecorder(
      loadFlowTriggers(
        path.join(path.dirname(options.appTomlPath ?? path.join(repoRoot, "shopify.app.toml")), "extensions"),
      ),
    ),
    scopes: appConfig.scopes,
    optionalScopes: appConfig.optionalScopes,
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    adminTokenLifetimeSeconds: options.adminTokenLifetimeSeconds ?? DEFAULT_ADMIN_TOKEN_LIFETIME_SECONDS,
    now: options.now ?? (() => new Date()),
    schemaViolations: [],
    logLimit,
    throttling: true,
    metaobjectEntryCap: options.metaobjectEntryCap ?? DEFAULT_METAOBJECT_ENTRY_CAP,
    searchLagMs: options.searchLagMs ?? 0,
    usage: new Map(),
    log: createRequestLog(logLimit),
    faults: createFaultQueue(),
    latencyMs: () => latencyMs,
    sleep: options.sleep ?? ((ms) => sleep(ms)),
    nextId: () => (lastId += 1),
  };

  const shopNamed = (domain: string): ShopState => {
    const shop = state.shops.get(domain);
    if (!shop) throw new Error(`emulator: no shop ${domain}; call addShop first`);
    return shop;
  };

  const appEvents = createAppEvents(state, options.appPricing);
  const routes = [
    adminApiRoute(state),
    oauthRoute(state),
    ...customerAccountApiRoutes(state),
    storefrontApiRoute(state),
    bulkResultRoute(state),
    ...appEvents.routes,
    ...optionalScopeRoutes(state),
    ...planSelectionRoutes(state, { catalogue: PLAN_CATALOGUE, welcomeLink: () => appEvents.pricing().welcomeLink }),
  ];

  function usage(domain: string) {
    return { shop: domain, requests: state.log.count({ shop: domain }), ...(state.usage.get(domain) ?? noUsage()) };
  }

  return {
    handlers: mswHandlers(routes),
    handle: (request) => answerRequest(routes, request),
    addShop(seed) {
      if (state.shops.has(seed.domain)) throw new Error(`emulator: shop ${seed.domain} already exists`);
      const shop = createShopState(state, seed);
      state.shops.set(seed.domain, shop);
      return { domain: seed.domain, adminCredentials: shop.adminTokens.current ?? null };
    },
    setPlan(domain, plan) {
      shopNamed(domain).subscription = subscriptionFor(state, plan);
    },
    ...appEvents.controls,
    revokeAdminToken(domain) {
      shopNamed(domain).adminTokens.revokeAll();
    },
    expireAdminToken(domain) {
      shopNamed(domain).adminTokens.expireAll();
    },
    adminCredentials: (domain) => shopNamed(domain).adminTokens.current,
    grantOptionalScopes(domain, scopes) {
      setOptionalScopes(state, shopNamed(domain), scopes, true);
    },
    revokeOptionalScopes(domain, scopes) {
      setOptionalScopes(state, shopNamed(domain), scopes, false);
    },
    grantedScopes: (domain) => grantedScopes(state, shopNamed(domain).grantedOptionalScopes),
    reset() {
      state.shops.clear();
      state.log.clear();
      state.usage.clear();
      state.schemaViolations.length = 0;
      state.flowTriggers.reset();
      state.faults.clear();
      appEvents.reset();
      lastId = 0;
      latencyMs = 0;
      state.searchLagMs = options.searchLagMs ?? 0;
      state.throttling = true;
      setBulkOperationDuration(state, 0);
    },
    flowTriggersFired: (domain) => state.flowTriggers.fired(domain),
    metaobjects(domain, type) {
      const store = shopNamed(domain).metaobjects;
      const definition = type === undefined ? undefined : state.definitions.resolve(type);
      if (type !== undefined && !definition) return [];
      return store.list(definition).map((entry) => ({
        id: entry.id,
        type: entry.definition.type,
        handle: entry.handle,
        displayName: displayNameOf(entry),
        fields: Object.fromEntries(entry.values),
        createdAt: entry.createdAt,
        updatedAt: entry.updatedAt,
      }));
    },
    importMetaobjects(domain, type, entries) {
      const definition = state.definitions.resolve(type);
      if (!definition) throw new Error(`emulator: no metaobject definition ${type}`);
      shopNamed(domain).metaobjects.importMany(definition, entries);
    },
    metafields: (domain, ownerId) => listMetafields(shopNamed(domain), ownerId),
    setMetafields(domain, metafields) {
      const { userErrors } = shopMetafieldsApi(state, shopNamed(domain)).metafieldsSet({ metafields: [...metafields] });
      if (userErrors.length > 0)
        throw new Error(`emulator: metafieldsSet refuses the seed: ${JSON.stringify(userErrors)}`);
    },
    addProducts(domain, products) {
      addProducts(shopNamed(domain), products);
    },
    removeProducts(domain, ids) {
      removeProducts(shopNamed(domain), ids);
    },
    setBulkOperationDuration(ms) {
      setBulkOperationDuration(state, ms);
    },
    // Getters hand out the live arrays, which are emptied in place, so a reference taken once stays current.
    get requests() {
      return state.log.entries;
    },
    countRequests: (filter) => state.log.count(filter),
    clearRequests() {
      state.log.clear();
    },
    get schemaViolations() {
      return state.schemaViolations;
    },
    setLatency(ms) {
      latencyMs = ms;
    },
    setSearchLag(ms) {
      state.searchLagMs = ms;
    },
    setThrottling(enabled) {
      state.throttling = enabled;
    },
    injectFault(fault) {
      state.faults.add(fault);
    },
    usage,
    allUsage: () => [...new Set([...state.shops.keys(), ...state.usage.keys()])].map(usage),
  };
}
