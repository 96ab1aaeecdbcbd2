// Access scopes: what each Admin GraphQL root field the emulator serves needs of the scopes a shop
// granted the app, and the platform's refusal when one is missing. Every row names the shopify.dev
// page it comes from. A root field without a row is refused and reported as a violation, so a new
// document cannot reach the emulator unchecked: add its row here, from its reference page.
import { GraphQLError, Kind, type DocumentNode, type FragmentDefinitionNode, type SelectionSetNode } from "graphql";

/** What a rule may ask about the shop to decide: whose a metaobject type or entry is. */
export interface ScopeContext {
  /** `$app:<name>` or its stored `app--<apiClientId>--<name>`: a type the calling app owns. */
  isAppOwnedType(type: string): boolean;
  /** The type of the shop's metaobject with this GID, if there is one. */
  metaobjectTypeOf(id: string): string | undefined;
}

interface ScopeRule {
  /** The shopify.dev page the rule comes from. */
  doc: string;
  /** The scopes the call needs, all of them, given its arguments. */
  requires(args: Record<string, unknown>, context: ScopeContext): readonly string[];
}

const NONE: readonly string[] = [];
const none = (doc: string): ScopeRule => ({ doc, requires: () => NONE });

// Admin API 2026-04 on (changelog "App-owned metaobjects can be used without access scopes",
// effective 2026-04-30): the owning app needs no scope for its `$app:` types; merchant-owned types
// still need read_metaobjects / write_metaobjects (Admin GraphQL reference of each metaobject field).
const metaobjectScope = (access: "read" | "write", context: ScopeContext, type: string | undefined) =>
  type !== undefined && context.isAppOwnedType(type) ? NONE : [`${access}_metaobjects`];

const byType = (access: "read" | "write", doc: string, typeOf: (args: Record<string, unknown>) => unknown) => ({
  doc,
  requires: (args: Record<string, unknown>, context: ScopeContext) =>
    metaobjectScope(access, context, stringOr(typeOf(args))),
});

const byEntry = (access: "read" | "write", doc: string): ScopeRule => ({
  doc,
  requires: (args, context) => metaobjectScope(access, context, context.metaobjectTypeOf(String(args.id))),
});

const stringOr = (value: unknown) => (typeof value === "string" ? value : undefined);

/**
 * The read scope of each kind of node the emulator answers by GID (Admin GraphQL reference of each
 * object: "Requires `read_products` access scope." on Product, ProductVariant and Collection;
 * `read_inventory` on InventoryItem; `read_customers` on Customer; `read_orders` on Order).
 * BulkOperation belongs to the app that ran it and needs none.
 */
const READ_SCOPE_OF_NODE: Record<string, string | null> = {
  Product: "read_products",
  ProductVariant: "read_products",
  Collection: "read_products",
  InventoryItem: "read_inventory",
  Customer: "read_customers",
  Order: "read_orders",
  BulkOperation: null,
};

const gidResource = (id: unknown) => /^gid:\/\/shopify\/([A-Za-z]+)\//.exec(String(id))?.[1];

function nodeScopes(id: unknown, context: ScopeContext): readonly string[] {
  const resource = gidResource(id);
  if (resource === "Metaobject") return metaobjectScope("read", context, context.metaobjectTypeOf(String(id)));
  const scope = resource === undefined ? undefined : READ_SCOPE_OF_NODE[resource];
  if (scope === undefined) throw noRule(`node ids of type ${resource ?? String(id)}`);
  return scope === null ? NONE : [scope];
}

// metafieldsSet and metafieldsDelete "require the same access level needed to mutate the owner
// resource" (Admin GraphQL reference, metafieldsSet and metafieldsDelete): the `$app` namespace
// decides who owns and sees the value, not the scope (shopify.dev, "Custom data: ownership").
// Owners of another type are refused by metafields.ts (the emulator models product metafields only).
const WRITE_SCOPE_OF_OWNER: Record<string, string> = {
  Product: "write_products",
  ProductVariant: "write_products",
  Collection: "write_products",
  Customer: "write_customers",
  Order: "write_orders",
};

const ownerScopes = (args: Record<string, unknown>) => {
  const metafields = Array.isArray(args.metafields) ? (args.metafields as { ownerId?: unknown }[]) : [];
  return metafields.flatMap(({ ownerId }) => WRITE_SCOPE_OF_OWNER[gidResource(ownerId) ?? ""] ?? []);
};

const METAOBJECT_READ_DOC = "Admin GraphQL reference: metaobject, metaobjects, metaobjectByHandle";
const METAOBJECT_WRITE_DOC = "Admin GraphQL reference: metaobjectCreate, metaobjectUpdate, metaobjectUpsert";

/** Root fields of the Admin API's Query and Mutation types, by field name. */
export const ROOT_FIELD_SCOPES: Record<string, ScopeRule> = {
  // Queries.
  shop: none("Admin GraphQL reference: shop (the app's own shop, no scope)"),
  currentAppInstallation: none("Admin GraphQL reference: currentAppInstallation (the calling app's own installation)"),
  metaobject: byEntry("read", METAOBJECT_READ_DOC),
  metaobjectByHandle: byType("read", METAOBJECT_READ_DOC, (args) => (args.handle as { type?: unknown }).type),
  metaobjects: byType("read", METAOBJECT_READ_DOC, (args) => args.type),
  metaobjectDefinitionByType: byType(
    "read",
    "Admin GraphQL reference: metaobjectDefinitionByType",
    (args) => args.type,
  ),
  nodes: {
    doc: "Admin GraphQL reference: nodes (each node needs the read scope of its type)",
    requires: (args, context) => (args.ids as unknown[]).flatMap((id) => nodeScopes(id, context)),
  },
  node: {
    doc: "Admin GraphQL reference: node (the read scope of the node's type)",
    requires: (args, context) => nodeScopes(args.id, context),
  },
  inventoryItem: {
    doc: "Admin GraphQL reference: inventoryItem (Requires `read_inventory` access scope)",
    requires: () => ["read_inventory"],
  },
  bulkOperation: none("Admin GraphQL reference: bulkOperation (the app's own operations)"),
  currentBulkOperation: none("Admin GraphQL reference: currentBulkOperation (the app's own operations)"),

  // Mutations.
  // The inner query is checked field by field with this table when it runs (bulk-operations.ts), as
  // "Perform bulk operations with the GraphQL Admin API" says a bulk query needs its fields' scopes.
  bulkOperationRunQuery: none("Perform bulk operations with the GraphQL Admin API"),
  metaobjectCreate: byType("write", METAOBJECT_WRITE_DOC, (args) => (args.metaobject as { type?: unknown }).type),
  metaobjectUpsert: byType("write", METAOBJECT_WRITE_DOC, (args) => (args.handle as { type?: unknown }).type),
  metaobjectUpdate: byEntry("write", METAOBJECT_WRITE_DOC),
  metaobjectDelete: byEntry("write", "Admin GraphQL reference: metaobjectDelete"),
  metaobjectBulkDelete: {
    doc: "Admin GraphQL reference: metaobjectBulkDelete",
    requires: (args, context) => {
      const where = args.where as { type?: unknown; ids?: unknown[] | null };
      if (typeof where.type === "string") return metaobjectScope("write", context, where.type);
      return (where.ids ?? []).flatMap((id) => metaobjectScope("write", context, context.metaobjectTypeOf(String(id))));
    },
  },
  metafieldsSet: { doc: "Admin GraphQL reference: metafieldsSet", requires: ownerScopes },
  metafieldsDelete: { doc: "Admin GraphQL reference: metafieldsDelete", requires: ownerScopes },
  // The Billing API acts on the app's own charges.
  appUsageRecordCreate: none("Admin GraphQL reference: appUsageRecordCreate"),
  appSubscriptionLineItemUpdate: none("Admin GraphQL reference: appSubscriptionLineItemUpdate"),
  // The trigger's reference fields need their read scopes; flow-triggers.ts checks them per trigger.
  flowTriggerReceive: none("Admin GraphQL reference: flowTriggerReceive; Flow triggers: reference"),
};

/**
 * A write scope includes its read scope ("Access scopes": `write_products` gives read access to
 * products too).
 */
export function hasScope(granted: ReadonlySet<string>, scope: string): boolean {
  return granted.has(scope) || (scope.startsWith("read_") && granted.has(`write_${scope.slice("read_".length)}`));
}

/** The platform's refusal of a root field the app lacks a scope for (changelog "New error messages for GraphQL operations without necessary access scopes"). */
export function accessDenied(field: string, missing: readonly string[]): GraphQLError {
  const required = `${missing.map((scope) => `\`${scope}\``).join(" and ")} access scope${missing.length > 1 ? "s" : ""}.`;
  return new GraphQLError(`Access denied for ${field} field. Required access: ${required}`, {
    extensions: {
      code: "ACCESS_DENIED",
      documentation: "https://shopify.dev/api/usage/access-scopes",
      requiredAccess: required,
    },
  });
}

export const NO_SCOPE_RULE = "EMULATOR_NO_SCOPE_RULE";

function noRule(what: string): GraphQLError {
  return new GraphQLError(
    `emulator: no access-scope rule for ${what}; add one, from its shopify.dev reference page, to packages/platform-emulator/src/access-scopes.ts`,
    { extensions: { code: NO_SCOPE_RULE } },
  );
}

/** The root fields an operation selects, through fragments too. */
function rootFieldNames(document: DocumentNode, selectionSet: SelectionSetNode): string[] {
  const fragments = new Map(
    document.definitions
      .filter((definition): definition is FragmentDefinitionNode => definition.kind === Kind.FRAGMENT_DEFINITION)
      .map((fragment) => [fragment.name.value, fragment]),
  );
  const names = (set: SelectionSetNode): string[] =>
    set.selections.flatMap((selection) => {
      if (selection.kind === Kind.FIELD) return [selection.name.value];
      if (selection.kind === Kind.INLINE_FRAGMENT) return names(selection.selectionSet);
      const fragment = fragments.get(selection.name.value);
      return fragment ? names(fragment.selectionSet) : [];
    });
  return names(selectionSet);
}

/** The errors for root fields the table has no row for; none when every field is known. */
export function unknownRootFields(document: DocumentNode, selectionSet: SelectionSetNode): GraphQLError[] {
  return rootFieldNames(document, selectionSet)
    .filter((name) => !name.startsWith("__") && !(name in ROOT_FIELD_SCOPES))
    .map((name) => noRule(`the root field ${name}`));
}

/** Refuses the call of `field` with these arguments when the shop did not grant a scope it needs. */
export function checkAccess(
  field: string,
  args: Record<string, unknown>,
  granted: ReadonlySet<string>,
  context: ScopeContext,
): void {
  const rule = ROOT_FIELD_SCOPES[field];
  if (!rule) throw noRule(`the root field ${field}`);
  const missing = [...new Set(rule.requires(args, context))].filter((scope) => !hasScope(granted, scope)).sort();
  if (missing.length > 0) throw accessDenied(field, missing);
}

type RootValue = Record<string, unknown>;
type Resolver = (args: Record<string, unknown>, context: unknown, info: unknown) => unknown;

/**
 * The root object with every field checked before it resolves: a refused field answers null and
 * an ACCESS_DENIED error with its path, the others answer as usual, as the platform answers.
 */
export function guardRoot(
  root: RootValue,
  granted: ReadonlySet<string>,
  context: ScopeContext,
  onUnknown: (error: GraphQLError) => void,
): RootValue {
  return Object.fromEntries(
    Object.entries(root).map(([field, value]) => [
      field,
      (args: Record<string, unknown>, executionContext: unknown, info: unknown) => {
        try {
          checkAccess(field, args, granted, context);
        } catch (error) {
          if (error instanceof GraphQLError && error.extensions.code === NO_SCOPE_RULE) onUnknown(error);
          throw error;
        }
        return typeof value === "function" ? (value as Resolver)(args, executionContext, info) : value;
      },
    ]),
  );
}
