import { randomUUID } from "node:crypto";
import { guardRoot, unknownRootFields, type ScopeContext } from "./access-scopes";
import { bulkOperationFields, type GuardRoot } from "./bulk-operations";
import { GraphQLError, type FieldNode, type GraphQLResolveInfo } from "graphql";
import type { FieldDefinition, MetaobjectDefinition } from "./app-config";
import { MAX_QUERY_COST, queryCost, requestedPageSize, type CostExtension } from "./cost";
import { graphqlRoute, type GraphqlExchange } from "./exchange";
import { THROTTLED_ERROR } from "./faults";
import { toJsonValue } from "./field-types";
import { executeOperation, prepareOperation } from "./graphql-execution";
import {
  displayNameOf,
  userError,
  type FieldWrite,
  type HandleWrite,
  type MetaobjectStore,
  type MetaobjectUserError,
  type StoredMetaobject,
  type WriteResult,
} from "./metaobject-store";
import { shopMetafieldsApi } from "./metafields";
import { paginate, type Page, type PageArgs } from "./pagination";
import { catalogueInventoryItem, catalogueNode } from "./products";
import { jsonReply, NOT_FOUND, type Reply } from "./reply";
import { getSchema } from "./schemas";
import { parseSearchQuery, type SearchTerm } from "./search-query";
import { returnUrlOf, usageBillingMutations, usageLineView } from "./usage-billing";
import {
  grantedScopes,
  shopByDomain,
  usageOf,
  violationReporter,
  type EmulatorState,
  type ShopState,
  type Subscription,
} from "./state";

const ADMIN_URL = /^https:\/\/([a-z0-9][a-z0-9-]*\.myshopify\.com)\/admin\/api\/([^/]+)\/graphql\.json$/;

// The spec names the plans but not their prices, so the amounts are placeholders.
export const PLAN_CATALOGUE: Record<Subscription["plan"], { name: string; amount: string }> = {
  starter: { name: "Starter", amount: "9.0" },
  pro: { name: "Pro", amount: "29.0" },
  scale: { name: "Scale", amount: "99.0" },
};

const BILLING_PERIOD_MS = 30 * 24 * 60 * 60 * 1000;

/** Per-request execution context: how many nodes each connection field returned, for the actual cost. */
interface AdminContext {
  returnedPageSizes: Map<FieldNode, number>;
}

interface FieldsInput {
  fields?: { key: string; value: string }[] | null;
  values?: unknown;
}

interface MetaobjectsArgs extends PageArgs {
  type: string;
  query?: string | null;
  sortKey?: string | null;
}

function fieldDefinitionView(field: FieldDefinition) {
  return {
    key: field.key,
    name: field.name,
    required: field.required,
    type: { name: field.type },
    capabilities: { adminFilterable: { enabled: field.adminFilterable } },
  };
}

function definitionView(definition: MetaobjectDefinition, store: MetaobjectStore) {
  return {
    id: `gid://shopify/MetaobjectDefinition/${definition.index + 1}`,
    type: definition.type,
    name: definition.name,
    displayNameKey: definition.displayNameKey ?? null,
    fieldDefinitions: definition.fields.map(fieldDefinitionView),
    metaobjectsCount: () => store.count(definition),
  };
}

function metaobjectView(entry: StoredMetaobject, store: MetaobjectStore) {
  const fieldView = (field: FieldDefinition) => {
    const value = entry.values.get(field.key) ?? null;
    return {
      key: field.key,
      type: field.type,
      value,
      jsonValue: value === null ? null : toJsonValue(field.type, value),
    };
  };
  const { definition } = entry;
  return {
    id: entry.id,
    handle: entry.handle,
    type: definition.type,
    displayName: displayNameOf(entry),
    createdAt: entry.createdAt,
    updatedAt: entry.updatedAt,
    field: ({ key }: { key: string }) => {
      const field = definition.fields.find((candidate) => candidate.key === key);
      return field ? fieldView(field) : null;
    },
    fields: definition.fields.map(fieldView),
    definition: definitionView(definition, store),
  };
}

function connectionView<T>(context: AdminContext, info: GraphQLResolveInfo, page: Page<T>, view: (item: T) => unknown) {
  for (const node of info.fieldNodes) context.returnedPageSizes.set(node, page.edges.length);
  const edges = page.edges.map(({ cursor, item }) => ({ cursor, node: view(item) }));
  return {
    edges,
    nodes: edges.map((edge) => edge.node),
    pageInfo: {
      hasNextPage: page.hasNextPage,
      hasPreviousPage: page.hasPreviousPage,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}

function subscriptionView(shop: ShopState, subscription: Subscription) {
  const catalogue = PLAN_CATALOGUE[subscription.plan];
  return {
    id: `gid://shopify/AppSubscription/${subscription.id}`,
    name: catalogue.name,
    status: "ACTIVE",
    test: false,
    trialDays: 0,
    createdAt: subscription.createdAt.toISOString(),
    currentPeriodEnd: new Date(subscription.createdAt.getTime() + BILLING_PERIOD_MS).toISOString(),
    returnUrl: returnUrlOf(shop),
    lineItems: [
      {
        id: `gid://shopify/AppSubscriptionLineItem/${subscription.id}?v=1&index=0`,
        plan: {
          pricingDetails: {
            __typename: "AppRecurringPricing",
            interval: "EVERY_30_DAYS",
            planHandle: subscription.plan,
            price: { amount: catalogue.amount, currencyCode: "USD" },
            discount: null,
          },
        },
      },
      usageLineView(subscription),
    ],
  };
}

const SORT_VALUES: Record<string, (entry: StoredMetaobject) => string | number> = {
  id: (entry) => entry.numericId,
  type: (entry) => entry.definition.type,
  updated_at: (entry) => entry.updatedAt,
  display_name: displayNameOf,
};

function matchesTerm(entry: StoredMetaobject, term: SearchTerm): boolean {
  if (term.name === "handle") return entry.handle === term.value;
  if (term.name === "display_name") return displayNameOf(entry) === term.value;
  return entry.values.get(term.name.slice("fields.".length)) === term.value;
}

function checkFilterable(definition: MetaobjectDefinition | undefined, terms: SearchTerm[]): void {
  for (const { name } of terms) {
    if (!name.startsWith("fields.")) continue;
    const key = name.slice("fields.".length);
    const field = definition?.fields.find((candidate) => candidate.key === key);
    if (!field)
      throw new GraphQLError(`emulator: metaobjects query filters on "${key}", which the definition does not have`);
    if (!field.adminFilterable) {
      throw new GraphQLError(
        `emulator: metaobjects query filters on "${key}", which is not admin_filterable; the platform only filters on fields with capabilities.admin_filterable = true`,
      );
    }
  }
}

function undefinedType(type: string, field: string[]): MetaobjectUserError {
  return userError("UNDEFINED_OBJECT_TYPE", `No metaobject definition exists for type "${type}"`, field);
}

/** Turns the `fields` list or the `values` JSON of a write into assignments; `path` locates the input. */
function toFieldWrite(input: FieldsInput, path: string[]): FieldWrite | MetaobjectUserError {
  if (input.fields != null && input.values != null) {
    return userError("INVALID", "fields and values cannot be used together", path);
  }
  if (input.values == null) {
    const listPath = [...path, "fields"];
    const assignments = (input.fields ?? []).map(({ key, value }, index) => ({
      key,
      value,
      path: [...listPath, String(index)],
    }));
    return { path: listPath, assignments, replace: false };
  }
  const { values } = input;
  const valuesPath = [...path, "values"];
  if (typeof values !== "object" || Array.isArray(values)) {
    return userError("INVALID", "values must be a JSON object keyed by field key", valuesPath);
  }
  const assignments = Object.entries(values as Record<string, unknown>).map(([key, value]) => ({
    key,
    // null clears a field; non-string JSON is stored as its text, as the platform stores values.
    value: value === null ? "" : typeof value === "string" ? value : JSON.stringify(value),
    path: [...valuesPath, key],
  }));
  return { path: valuesPath, assignments, replace: true };
}

function toHandleWrite(value: string | null | undefined, path: string[]): HandleWrite | undefined {
  return value == null ? undefined : { value, path };
}

function payload(result: WriteResult, store: MetaobjectStore) {
  return { metaobject: result.entry && metaobjectView(result.entry, store), userErrors: result.userErrors };
}

function failure(error: MetaobjectUserError) {
  return { metaobject: null, userErrors: [error] };
}

/** The shop's answers to the access-scope rules (access-scopes.ts). */
export function scopeContext(state: EmulatorState, shop: ShopState): ScopeContext {
  return {
    isAppOwnedType: (type) => type.startsWith("$app:") || type.startsWith(`app--${state.apiClientId}--`),
    metaobjectTypeOf: (id) => {
      const match = /^gid:\/\/shopify\/Metaobject\/(\d+)$/.exec(id);
      return match ? shop.metaobjects.get(Number(match[1]))?.definition.type : undefined;
    },
  };
}

function adminRoot(
  state: EmulatorState,
  shop: ShopState,
  granted: ReadonlySet<string>,
  guard: GuardRoot,
): Record<string, unknown> {
  const store = shop.metaobjects;
  const resolveType = (type: string) => state.definitions.resolve(type);

  const findEntry = (id: string): StoredMetaobject | undefined => {
    const match = /^gid:\/\/shopify\/([A-Za-z]+)\/(\d+)$/.exec(id);
    if (!match)
      throw new GraphQLError(`Invalid global id '${id}'`, { extensions: { code: "argumentLiteralsIncompatible" } });
    return match[1] === "Metaobject" ? store.get(Number(match[2])) : undefined;
  };
  const notFound = (id: string) => userError("RECORD_NOT_FOUND", `Record not found: ${id}`, ["id"]);
  const emptyPage: Page<never> = { edges: [], hasNextPage: false, hasPreviousPage: false };

  const matchingMetaobjects = (args: Omit<MetaobjectsArgs, keyof PageArgs>) => {
    const definition = resolveType(args.type);
    const terms = parseSearchQuery(args.query ?? "");
    checkFilterable(definition, terms);
    const sortKey = args.sortKey ?? "id";
    const valueOf = SORT_VALUES[sortKey];
    if (!valueOf)
      throw new GraphQLError(`Invalid sortKey "${sortKey}": expected one of ${Object.keys(SORT_VALUES).join(", ")}`);
    // A query goes through the search index, which sees writes late; the nodes it finds are then
    // loaded from the store, so they show current values and those deleted since drop out.
    const candidates = !definition ? [] : terms.length > 0 ? store.searchable(definition) : store.list(definition);
    const entries = candidates.filter((entry) => terms.every((term) => matchesTerm(entry, term)));
    return { entries, sortKey, valueOf };
  };
  const bulk = bulkOperationFields(state, shop, guard, {
    metaobjects: (args) =>
      matchingMetaobjects(args as unknown as MetaobjectsArgs).entries.flatMap((entry) => {
        const current = store.get(entry.numericId);
        return current ? [metaobjectView(current, store)] : [];
      }),
  });

  return {
    shop: {
      id: `gid://shopify/Shop/${shop.numericId}`,
      name: shop.domain.split(".")[0],
      myshopifyDomain: shop.domain,
      currencyCode: "USD",
    },
    currentAppInstallation: {
      id: `gid://shopify/AppInstallation/${shop.numericId}`,
      activeSubscriptions: shop.subscription ? [subscriptionView(shop, shop.subscription)] : [],
      accessScopes: [...granted].map((handle) => ({ handle })),
      // shopify-api's billing.check() asks for these; the app never buys one-time charges.
      oneTimePurchases: (_args: unknown, context: AdminContext, info: GraphQLResolveInfo) =>
        connectionView(context, info, emptyPage, () => null),
    },
    metaobject: ({ id }: { id: string }) => {
      const entry = findEntry(id);
      return entry ? metaobjectView(entry, store) : null;
    },
    metaobjectByHandle: ({ handle }: { handle: { type: string; handle: string } }) => {
      const definition = resolveType(handle.type);
      const entry = definition && store.findByHandle(definition, handle.handle);
      return entry ? metaobjectView(entry, store) : null;
    },
    // Only bulk operations and the catalogue's products and variants are modelled as nodes; any
    // other id reads as missing.
    nodes: ({ ids }: { ids: string[] }) => ids.map((id) => catalogueNode(shop, id) ?? null),
    node: ({ id }: { id: string }) => bulk.bulkOperation({ id }) ?? catalogueNode(shop, id) ?? null,
    inventoryItem: ({ id }: { id: string }) => {
      const item = catalogueInventoryItem(shop, id);
      if (!item) return null;
      // An inventory item is one variant's; the connection that replaces the deprecated `variant` pages over it.
      const variantId = (variant: typeof item.variant) => Number(variant.id.split("/").at(-1));
      return {
        ...item,
        variants: (args: PageArgs, context: AdminContext, info: GraphQLResolveInfo) =>
          connectionView(
            context,
            info,
            paginate([item.variant], { key: "id", valueOf: variantId, idOf: variantId }, args),
            (variant) => variant,
          ),
      };
    },
    ...bulk,
    metaobjectDefinitionByType: ({ type }: { type: string }) => {
      const definition = resolveType(type);
      return definition ? definitionView(definition, store) : null;
    },
    metaobjects: (args: MetaobjectsArgs, context: AdminContext, info: GraphQLResolveInfo) => {
      const { entries, sortKey, valueOf } = matchingMetaobjects(args);
      const page = paginate(entries, { key: sortKey, valueOf, idOf: (entry) => entry.numericId }, args);
      const edges = page.edges.flatMap(({ cursor, item }) => {
        const current = store.get(item.numericId);
        return current ? [{ cursor, item: current }] : [];
      });
      return connectionView(context, info, { ...page, edges }, (entry) => metaobjectView(entry, store));
    },

    metaobjectCreate: ({ metaobject }: { metaobject: FieldsInput & { type: string; handle?: string | null } }) => {
      const definition = resolveType(metaobject.type);
      if (!definition) return failure(undefinedType(metaobject.type, ["metaobject", "type"]));
      const write = toFieldWrite(metaobject, ["metaobject"]);
      if ("code" in write) return failure(write);
      return payload(
        store.create(definition, toHandleWrite(metaobject.handle, ["metaobject", "handle"]), write),
        store,
      );
    },
    metaobjectUpdate: ({ id, metaobject }: { id: string; metaobject: FieldsInput & { handle?: string | null } }) => {
      const entry = findEntry(id);
      if (!entry) return failure(notFound(id));
      const write = toFieldWrite(metaobject, ["metaobject"]);
      if ("code" in write) return failure(write);
      return payload(store.update(entry, toHandleWrite(metaobject.handle, ["metaobject", "handle"]), write), store);
    },
    metaobjectUpsert: (args: {
      handle: { type: string; handle: string };
      metaobject?: (FieldsInput & { handle?: string | null }) | null;
      values?: unknown;
    }) => {
      const definition = resolveType(args.handle.type);
      if (!definition) return failure(undefinedType(args.handle.type, ["handle", "type"]));
      if (args.metaobject != null && args.values != null) {
        return failure(userError("INVALID", "metaobject and values cannot be used together", ["values"]));
      }
      const write =
        args.values != null
          ? toFieldWrite({ values: args.values }, [])
          : toFieldWrite(args.metaobject ?? {}, ["metaobject"]);
      if ("code" in write) return failure(write);
      const renamed = args.metaobject?.handle;
      const handle =
        renamed != null
          ? toHandleWrite(renamed, ["metaobject", "handle"])
          : toHandleWrite(args.handle.handle, ["handle", "handle"]);
      const existing = store.findByHandle(definition, args.handle.handle);
      return payload(existing ? store.update(existing, handle, write) : store.create(definition, handle, write), store);
    },
    ...usageBillingMutations(state, shop),
    ...shopMetafieldsApi(state, shop),
    flowTriggerReceive: (args: { handle?: string | null; payload?: unknown; body?: string | null }) =>
      state.flowTriggers.receive(shop.domain, args, granted),
    metaobjectDelete: ({ id }: { id: string }) => {
      const entry = findEntry(id);
      if (!entry) return { deletedId: null, userErrors: [notFound(id)] };
      store.delete(entry.numericId);
      return { deletedId: id, userErrors: [] };
    },
    metaobjectBulkDelete: ({ where }: { where: { type?: string | null; ids?: string[] | null } }) => {
      if ((where.type == null) === (where.ids == null)) {
        return { job: null, userErrors: [userError("INVALID", "Exactly one of type or ids is required", ["where"])] };
      }
      let entries: StoredMetaobject[];
      if (where.type != null) {
        const definition = resolveType(where.type);
        if (!definition) return { job: null, userErrors: [undefinedType(where.type, ["where", "type"])] };
        entries = store.list(definition);
      } else {
        entries = (where.ids ?? []).flatMap((id) => findEntry(id) ?? []);
      }
      for (const entry of entries) store.delete(entry.numericId);
      // The platform deletes in a background job; doing it at once keeps tests deterministic.
      return { job: { id: `gid://shopify/Job/${randomUUID()}`, done: true }, userErrors: [] };
    },
  };
}

function costExtension(shop: ShopState, requested: number, actual: number | null): { cost: CostExtension } {
  return { cost: { requestedQueryCost: requested, actualQueryCost: actual, throttleStatus: shop.bucket.status() } };
}

async function answer(
  state: EmulatorState,
  { request, groups, graphql }: GraphqlExchange,
  forceThrottle: boolean,
): Promise<Reply> {
  const [domain, version] = groups;
  const shop = shopByDomain(state, domain);
  const schema = getSchema("admin", version);
  if (!shop || !schema) return NOT_FOUND;
  // The platform does not tell an expired token from an unknown one.
  if (!shop.adminTokens.isValid(request.headers.get("X-Shopify-Access-Token"))) {
    return jsonReply(401, { errors: "[API] Invalid API key or access token (unrecognized login or wrong password)" });
  }
  const reportViolation = violationReporter(state, "admin", graphql.query);
  const prepared = prepareOperation(schema, graphql, reportViolation);
  if ("rejection" in prepared) return prepared.rejection;
  const unscoped = unknownRootFields(prepared.document, prepared.operation.selectionSet);
  if (unscoped.length > 0) {
    reportViolation(unscoped);
    return jsonReply(200, { errors: unscoped.map((error) => error.toJSON()) });
  }

  const requested = queryCost(prepared, requestedPageSize);
  if (requested > MAX_QUERY_COST) {
    return jsonReply(200, {
      errors: [
        {
          message: `Query cost is ${requested}, which exceeds the single query max cost limit (${MAX_QUERY_COST}).`,
          extensions: { code: "MAX_COST_EXCEEDED", cost: requested, maxCost: MAX_QUERY_COST },
        },
      ],
    });
  }
  const usage = usageOf(state, shop.domain);
  if (forceThrottle || (state.throttling && !shop.bucket.tryTake(requested))) {
    usage.throttledRequests += 1;
    return jsonReply(200, { errors: [THROTTLED_ERROR], extensions: costExtension(shop, requested, null) });
  }

  const context: AdminContext = { returnedPageSizes: new Map() };
  const granted = new Set(grantedScopes(state, shop.grantedOptionalScopes));
  const guard: GuardRoot = (fields) =>
    guardRoot(fields, granted, scopeContext(state, shop), (error) => reportViolation([error]));
  const root = guard(adminRoot(state, shop, granted, guard));
  const result = await executeOperation(prepared, root, context);
  // Like the platform, charge up front for the requested page sizes and refund what was not returned.
  const actual = queryCost(
    prepared,
    (node, args) => context.returnedPageSizes.get(node) ?? requestedPageSize(node, args),
  );
  shop.bucket.refund(requested - actual);
  usage.requestedPoints += requested;
  usage.actualPoints += actual;
  return jsonReply(200, { ...result, extensions: costExtension(shop, requested, actual) });
}

export function adminApiRoute(state: EmulatorState) {
  return graphqlRoute(state, {
    api: "admin",
    url: ADMIN_URL,
    shopOf: ([domain]) => domain ?? "",
    handle: (exchange) => answer(state, exchange, false),
    // An injected THROTTLED goes through auth, validation and costing first, so it carries real cost figures.
    throttled: (exchange) => answer(state, exchange, true),
  });
}
