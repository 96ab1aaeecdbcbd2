import {
  getArgumentValues,
  getNamedType,
  isCompositeType,
  isObjectType,
  Kind,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLObjectType,
  type GraphQLSchema,
  type NamedTypeNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from "graphql";
import type { ApiTier } from "./types";

// Shopify's published cost model (https://shopify.dev/docs/api/usage/limits#cost-calculation):
// a scalar or enum costs 0, an object 1, an interface or union what its most expensive possible
// type costs with the given selection, a connection 2 plus its page size (first/last) times the
// cost of one node, and a mutation's root field 10 whatever it selects. A plain list of objects
// (Metaobject.fields) is not paged and costs like one object.
export const MAX_QUERY_COST = 1000;
const MUTATION_FIELD_COST = 10;
const CONNECTION_COST = 2;

/** The Admin API's per app-and-shop bucket by the shop's plan (https://shopify.dev/docs/api/usage/limits). */
const TIERS: Record<ApiTier, { bucketSize: number; restoreRate: number }> = {
  standard: { bucketSize: 2_000, restoreRate: 100 },
  advanced: { bucketSize: 4_000, restoreRate: 200 },
  plus: { bucketSize: 20_000, restoreRate: 1_000 },
  enterprise: { bucketSize: 40_000, restoreRate: 2_000 },
};

export const API_TIERS = Object.keys(TIERS) as [ApiTier, ...ApiTier[]];

export interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

export interface CostExtension {
  requestedQueryCost: number;
  actualQueryCost: number | null;
  throttleStatus: ThrottleStatus;
}

export interface CostInput {
  schema: GraphQLSchema;
  document: DocumentNode;
  operation: OperationDefinitionNode;
  /** Coerced variable values. */
  variables: Record<string, unknown>;
}

/** The page size a connection field is charged for, given its coerced arguments. */
export type PageSizeOf = (field: FieldNode, args: Record<string, unknown>) => number;

export const requestedPageSize: PageSizeOf = (_field, args) => Number(args.first ?? args.last ?? 0);

export function queryCost(input: CostInput, pageSizeOf: PageSizeOf): number {
  const { schema } = input;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of input.document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const mutationType = schema.getMutationType();

  const appliesTo = (condition: NamedTypeNode | undefined, object: GraphQLObjectType): boolean => {
    if (!condition) return true;
    const type = schema.getType(condition.name.value);
    return type === object || (isCompositeType(type) && !isObjectType(type) && schema.isSubType(type, object));
  };

  function selectionCost(selectionSet: SelectionSetNode, type: GraphQLCompositeType): number {
    if (isObjectType(type)) return objectSelectionCost(selectionSet, type);
    const costs = schema.getPossibleTypes(type).map((object) => objectSelectionCost(selectionSet, object));
    return Math.max(0, ...costs);
  }

  function objectSelectionCost(selectionSet: SelectionSetNode, object: GraphQLObjectType): number {
    let total = 0;
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        total += fieldCost(selection, object);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        if (appliesTo(selection.typeCondition, object)) total += objectSelectionCost(selection.selectionSet, object);
      } else {
        const fragment = fragments.get(selection.name.value);
        if (fragment && appliesTo(fragment.typeCondition, object))
          total += objectSelectionCost(fragment.selectionSet, object);
      }
    }
    return total;
  }

  function fieldCost(node: FieldNode, parent: GraphQLObjectType): number {
    if (parent === mutationType) return MUTATION_FIELD_COST;
    // __typename has no definition among the fields and is free.
    const definition = parent.getFields()[node.name.value];
    if (!definition || !node.selectionSet) return 0;
    const type = getNamedType(definition.type);
    if (!isCompositeType(type)) return 0;
    const inner = selectionCost(node.selectionSet, type);
    if (type.name.endsWith("Connection")) {
      return CONNECTION_COST + pageSizeOf(node, getArgumentValues(definition, node, input.variables)) * inner;
    }
    // edges and pageInfo are part of the connection's price; nodes and edges.node cost 1 each.
    if (parent.name.endsWith("Connection") && (node.name.value === "edges" || node.name.value === "pageInfo"))
      return inner;
    return 1 + inner;
  }

  const root = schema.getRootType(input.operation.operation);
  return root ? objectSelectionCost(input.operation.selectionSet, root) : 0;
}

export interface LeakyBucket {
  status(): ThrottleStatus;
  tryTake(cost: number): boolean;
  refund(points: number): void;
}

/** Shopify's per app-and-shop bucket, refilling on the emulator's clock. */
export function createLeakyBucket(now: () => Date, tier: ApiTier): LeakyBucket {
  const { bucketSize, restoreRate } = TIERS[tier];
  let available = bucketSize;
  let updatedAtMs = now().getTime();
  const refill = () => {
    const nowMs = now().getTime();
    available = Math.min(bucketSize, available + (Math.max(0, nowMs - updatedAtMs) / 1000) * restoreRate);
    updatedAtMs = Math.max(updatedAtMs, nowMs);
  };
  return {
    status() {
      refill();
      return { maximumAvailable: bucketSize, currentlyAvailable: Math.floor(available), restoreRate };
    },
    tryTake(cost) {
      refill();
      if (cost > available) return false;
      available -= cost;
      return true;
    },
    refund(points) {
      available = Math.min(bucketSize, available + points);
    },
  };
}
