// The platform's bulk query flow: bulkOperationRunQuery validates and snapshots the inner query's
// result, bulkOperation(id:) and currentBulkOperation report progress, and the finished result is
// a JSONL file (one line per node) at a URL outside the Admin API, fetched without a token.
import { GraphQLError, type GraphQLResolveInfo } from "graphql";
import { parseDocument } from "./documents";
import { plainRoute } from "./exchange";
import { executeOperation, prepareOperation } from "./graphql-execution";
import { NOT_FOUND, textReply } from "./reply";
import { getSchema, SCHEMA_VERSION } from "./schemas";
import { shopByDomain, violationReporter, type EmulatorState, type ShopState } from "./state";

/** Where result files live, as on the platform a storage host of its own (no access token needed). */
export const BULK_RESULT_HOST = "storage.googleapis.com";
const RESULT_URL = /^https:\/\/storage\.googleapis\.com\/emulated-bulk-operations\/([a-z0-9.-]+)\/(\d+)\.jsonl$/;

type BulkStatus = "CREATED" | "RUNNING" | "COMPLETED";

interface BulkOperation {
  numericId: number;
  query: string;
  createdAtMs: number;
  /** The result as the query saw the shop when it started; the platform reads a consistent snapshot. */
  lines: string[];
}

interface BulkState {
  operations: Map<number, BulkOperation>;
  last: BulkOperation | undefined;
}

const byShop = new WeakMap<ShopState, BulkState>();
const durations = new WeakMap<EmulatorState, number>();

/**
 * How long a bulk operation runs on the emulator's clock. 0 (default) finishes it by the first
 * poll; the sandbox sets a few seconds so the app's progress display has something to show.
 */
export function setBulkOperationDuration(state: EmulatorState, ms: number): void {
  durations.set(state, ms);
}

function bulkStateOf(shop: ShopState): BulkState {
  let bulk = byShop.get(shop);
  if (!bulk) byShop.set(shop, (bulk = { operations: new Map(), last: undefined }));
  return bulk;
}

const bulkGid = (numericId: number) => `gid://shopify/BulkOperation/${numericId}`;

/** The root fields the inner query may select: only those the app's bulk queries need. */
export type BulkQueryRoot = Record<string, (args: Record<string, unknown>) => unknown[]>;

function bulkUserError(message: string) {
  return { bulkOperation: null, userErrors: [{ field: ["query"], message, code: "INVALID" }] };
}

/** Runs the inner query over everything it selects (bulk queries ignore page sizes) into JSONL lines. */
/** Puts the access-scope checks (access-scopes.ts) around a root object, as the Admin API's own root. */
export type GuardRoot = (root: Record<string, unknown>) => Record<string, unknown>;

async function runInnerQuery(
  state: EmulatorState,
  query: string,
  guard: GuardRoot,
  sources: BulkQueryRoot,
): Promise<string[] | { invalid: string }> {
  const schema = getSchema("admin", SCHEMA_VERSION)!;
  const request = { query, variables: {}, operationName: undefined, parsed: parseDocument(query) };
  const prepared = prepareOperation(schema, request, violationReporter(state, "admin", query));
  if ("rejection" in prepared) {
    const reply = prepared.rejection;
    const errors = reply !== "network-error" ? (reply.body as { errors: { message: string }[] }).errors : [];
    return { invalid: `Invalid bulk query: ${errors.map((error) => error.message).join("; ")}` };
  }
  if (prepared.operation.operation !== "query") return { invalid: "Bulk queries must be queries" };
  const [rootField, ...others] = prepared.operation.selectionSet.selections;
  if (rootField?.kind !== "Field" || others.length > 0)
    return { invalid: "emulator: a bulk query must select exactly one root connection" };
  const rootName = rootField.name.value;
  const source = sources[rootName];
  if (!source)
    throw new GraphQLError(
      `emulator: bulk queries over ${rootName} not implemented (add it to packages/platform-emulator)`,
    );

  // The inner query needs the scopes its fields need ("Perform bulk operations with the GraphQL Admin API").
  const root = guard({
    [rootName]: (args: Record<string, unknown>, _context: unknown, _info: GraphQLResolveInfo) => {
      const nodes = source(args);
      return {
        nodes,
        edges: nodes.map((node) => ({ cursor: "", node })),
        pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null },
      };
    },
  });
  const result = await executeOperation(prepared, root);
  if (result.errors?.length) return { invalid: result.errors.map((error) => error.message).join("; ") };
  const connection = (result.data as Record<string, { nodes?: unknown[]; edges?: { node: unknown }[] }>)[rootName]!;
  const nodes = connection.nodes ?? connection.edges?.map((edge) => edge.node) ?? [];
  return nodes.map((node) => JSON.stringify(node));
}

function statusOf(state: EmulatorState, operation: BulkOperation): { status: BulkStatus; done: number } {
  const duration = durations.get(state) ?? 0;
  const elapsed = state.now().getTime() - operation.createdAtMs;
  if (elapsed >= duration) return { status: "COMPLETED", done: 1 };
  return { status: elapsed <= 0 ? "CREATED" : "RUNNING", done: elapsed / duration };
}

function operationView(state: EmulatorState, shop: ShopState, operation: BulkOperation) {
  const { status, done } = statusOf(state, operation);
  const completed = status === "COMPLETED";
  const count = completed ? operation.lines.length : Math.floor(operation.lines.length * done);
  const fileSize = operation.lines.reduce((total, line) => total + Buffer.byteLength(line) + 1, 0);
  return {
    __typename: "BulkOperation",
    id: bulkGid(operation.numericId),
    status,
    type: "QUERY",
    query: operation.query,
    errorCode: null,
    createdAt: new Date(operation.createdAtMs).toISOString(),
    completedAt: completed ? new Date(operation.createdAtMs + (durations.get(state) ?? 0)).toISOString() : null,
    objectCount: String(count),
    rootObjectCount: String(count),
    // The platform gives no file (url null) when the query matched nothing.
    fileSize: completed && operation.lines.length > 0 ? String(fileSize) : null,
    url:
      completed && operation.lines.length > 0
        ? `https://${BULK_RESULT_HOST}/emulated-bulk-operations/${shop.domain}/${operation.numericId}.jsonl`
        : null,
    partialDataUrl: null,
  };
}

/** The Admin API's bulk-operation root fields for one shop. */
export function bulkOperationFields(state: EmulatorState, shop: ShopState, guard: GuardRoot, sources: BulkQueryRoot) {
  const bulk = bulkStateOf(shop);
  const find = (id: string) => {
    const match = /^gid:\/\/shopify\/BulkOperation\/(\d+)$/.exec(id);
    return match ? bulk.operations.get(Number(match[1])) : undefined;
  };
  return {
    bulkOperationRunQuery: async ({ query }: { query: string }) => {
      const lines = await runInnerQuery(state, query, guard, sources);
      if ("invalid" in lines) return bulkUserError(lines.invalid);
      const operation: BulkOperation = {
        numericId: state.nextId(),
        query,
        createdAtMs: state.now().getTime(),
        lines,
      };
      bulk.operations.set(operation.numericId, operation);
      bulk.last = operation;
      return { bulkOperation: operationView(state, shop, operation), userErrors: [] };
    },
    bulkOperation: ({ id }: { id: string }) => {
      const operation = find(id);
      return operation ? operationView(state, shop, operation) : null;
    },
    currentBulkOperation: ({ type }: { type?: string }) =>
      type === "MUTATION" || !bulk.last ? null : operationView(state, shop, bulk.last),
  };
}

/** The result files, served to anyone with the URL as the platform's signed URLs are. */
export function bulkResultRoute(state: EmulatorState) {
  return plainRoute(state, {
    api: "admin",
    method: "GET",
    url: RESULT_URL,
    shopOf: ([domain]) => domain ?? "",
    handle: (_request, [domain, id]) => {
      const shop = shopByDomain(state, domain);
      const operation = shop && bulkStateOf(shop).operations.get(Number(id));
      if (!shop || !operation || statusOf(state, operation).status !== "COMPLETED") return NOT_FOUND;
      return textReply(200, operation.lines.map((line) => `${line}\n`).join(""), "application/jsonl");
    },
  });
}
