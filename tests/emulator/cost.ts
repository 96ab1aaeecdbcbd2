import {
  getArgumentValues,
  getNamedType,
  isInterfaceType,
  isLeafType,
  isObjectType,
  Kind,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from "graphql";

// Shopify's published cost model, simplified: an object costs 1, a scalar or enum 0, a connection
// 2 plus its page size times the cost of one node, a mutation field 10 whatever it selects.
export const MAX_QUERY_COST = 1000;
const BUCKET_SIZE = 2000;
const RESTORE_RATE = 100;
const MUTATION_FIELD_COST = 10;
const CONNECTION_COST = 2;

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
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of input.document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const mutationType = input.schema.getMutationType();

  const typeNamed = (name: string | undefined, fallback: GraphQLNamedType) =>
    (name === undefined ? undefined : input.schema.getType(name)) ?? fallback;

  function selectionCost(selectionSet: SelectionSetNode, parent: GraphQLNamedType): number {
    let total = 0;
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        total += fieldCost(selection, parent);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        total += selectionCost(selection.selectionSet, typeNamed(selection.typeCondition?.name.value, parent));
      } else {
        const fragment = fragments.get(selection.name.value);
        if (fragment)
          total += selectionCost(fragment.selectionSet, typeNamed(fragment.typeCondition.name.value, parent));
      }
    }
    return total;
  }

  function fieldCost(node: FieldNode, parent: GraphQLNamedType): number {
    if (parent === mutationType) return MUTATION_FIELD_COST;
    // Unions only expose __typename, which is free.
    if (!isObjectType(parent) && !isInterfaceType(parent)) return 0;
    const definition = parent.getFields()[node.name.value];
    if (!definition || !node.selectionSet) return 0;
    const type = getNamedType(definition.type);
    if (isLeafType(type)) return 0;
    const inner = selectionCost(node.selectionSet, type);
    if (type.name.endsWith("Connection")) {
      return CONNECTION_COST + pageSizeOf(node, getArgumentValues(definition, node, input.variables)) * inner;
    }
    // edges and pageInfo are part of the connection's price; nodes and edges.node cost 1 each.
    if (parent.name.endsWith("Connection") && (node.name.value === "edges" || node.name.value === "pageInfo"))
      return inner;
    return 1 + inner;
  }

  const root = input.schema.getRootType(input.operation.operation);
  return root ? selectionCost(input.operation.selectionSet, root) : 0;
}

export interface LeakyBucket {
  status(): ThrottleStatus;
  tryTake(cost: number): boolean;
  refund(points: number): void;
}

/** Shopify's per app-and-shop bucket, draining on the emulator's clock. */
export function createLeakyBucket(now: () => Date): LeakyBucket {
  let available = BUCKET_SIZE;
  let updatedAtMs = now().getTime();
  const refill = () => {
    const nowMs = now().getTime();
    available = Math.min(BUCKET_SIZE, available + (Math.max(0, nowMs - updatedAtMs) / 1000) * RESTORE_RATE);
    updatedAtMs = Math.max(updatedAtMs, nowMs);
  };
  return {
    status() {
      refill();
      return { maximumAvailable: BUCKET_SIZE, currentlyAvailable: Math.floor(available), restoreRate: RESTORE_RATE };
    },
    tryTake(cost) {
      refill();
      if (cost > available) return false;
      available -= cost;
      return true;
    },
    refund(points) {
      available = Math.min(BUCKET_SIZE, available + points);
    },
  };
}
