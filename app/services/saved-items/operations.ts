import type { z } from "zod";
import type { ErrorCode } from "~/lib/errors";
import {
  BatchRequestSchema,
  BatchResultSchema,
  IsSavedQuerySchema,
  IsSavedResultSchema,
  ListQuerySchema,
  ListResultSchema,
  RemoveRequestSchema,
  SaveOperationResultSchema,
  SaveRequestSchema,
  ToggleRequestSchema,
} from "./schemas";

interface OperationEntry {
  method: "GET" | "POST";
  /** What the edge parses the query (GET) or JSON body (POST) with. */
  input: z.ZodType;
  /** The `data` of the success envelope. */
  output: z.ZodType;
  /** The codes this operation adds to what every operation can answer. */
  errors: readonly ErrorCode[];
  /** For the API document: a stable id suffix, a summary and a description. */
  doc: { id: string; summary: string; description: string };
}

/**
 * The operation catalogue: every channel serves exactly these, at <namespace>/<name>. Routes,
 * the OpenAPI document and the tests' router all derive from this table; the dispatcher has one
 * handler per entry. Key order is document order.
 */
export const OPERATIONS = {
  save: {
    method: "POST",
    input: SaveRequestSchema,
    output: SaveOperationResultSchema,
    errors: ["DUPLICATE_SAVE"],
    doc: {
      id: "Save",
      summary: "Save an item",
      description:
        "Creates or reactivates the save_item for the list context (creating the list if needed). " +
        "Saving an item that is already active is DUPLICATE_SAVE (409).",
    },
  },
  remove: {
    method: "POST",
    input: RemoveRequestSchema,
    output: SaveOperationResultSchema,
    errors: ["ITEM_NOT_FOUND"],
    doc: {
      id: "Remove",
      summary: "Remove an item",
      description:
        "Soft-removes the item. Removing an already removed item is idempotent (200, state removed); " +
        "no list or no such item is ITEM_NOT_FOUND (404).",
    },
  },
  toggle: {
    method: "POST",
    input: ToggleRequestSchema,
    output: SaveOperationResultSchema,
    errors: ["DUPLICATE_SAVE"],
    doc: {
      id: "Toggle",
      summary: "Toggle an item",
      description: "Removes the item if an active save exists, otherwise saves it.",
    },
  },
  batch: {
    method: "POST",
    input: BatchRequestSchema,
    output: BatchResultSchema,
    errors: ["BATCH_CONFLICT"],
    doc: {
      id: "Batch",
      summary: "Run up to 50 save/remove/toggle operations",
      description:
        "Order of checks: structure (1..50 operations), plan (Free: no batch, Starter: 10, Pro/Scale: 50; " +
        "PLAN_LIMIT_REACHED), duplicate identity keys (BATCH_CONFLICT, before anything runs), budget, operations. " +
        "Failures of single operations are results with ok false; the response stays 200.",
    },
  },
  list: {
    method: "GET",
    input: ListQuerySchema,
    output: ListResultSchema,
    errors: [],
    doc: {
      id: "List",
      summary: "List the active items of a list",
      description: "Active items only, newest save first, forward pagination with an opaque cursor bound to the list.",
    },
  },
  "is-saved": {
    method: "GET",
    input: IsSavedQuerySchema,
    output: IsSavedResultSchema,
    errors: [],
    doc: {
      id: "IsSaved",
      summary: "Whether an item is actively saved",
      description: "saved is false when no list or no item exists.",
    },
  },
} as const satisfies Record<string, OperationEntry>;

export type OperationName = keyof typeof OPERATIONS;
export type OperationInput<Op extends OperationName> = z.infer<(typeof OPERATIONS)[Op]["input"]>;
export type OperationOutput = { [Op in OperationName]: z.infer<(typeof OPERATIONS)[Op]["output"]> };

export const OPERATION_NAMES = Object.keys(OPERATIONS) as OperationName[];

export function isOperationName(name: string | undefined): name is OperationName {
  return name !== undefined && Object.hasOwn(OPERATIONS, name);
}
