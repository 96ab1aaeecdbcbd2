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
} from "~/services/saved-items/schemas";
import {
  ShareCreateRequestSchema,
  SharedListQuerySchema,
  SharedListResultSchema,
  ShareLinkSchema,
  ShareRevokeRequestSchema,
  ShareRevokeResultSchema,
} from "~/services/saved-items/sharing-schemas";
import {
  CreateListRequestSchema,
  DeleteListRequestSchema,
  DeleteListResultSchema,
  ListsQuerySchema,
  ListsResultSchema,
  RenameListRequestSchema,
  SavedListSchema,
} from "~/services/saved-items/list-schemas";

interface OperationEntry {
  method: "GET" | "POST";
  /** What the edge parses the query (GET) or JSON body (POST) with. */
  input: z.ZodType;
  /** The `data` of the success envelope. */
  output: z.ZodType;
  /**
   * Whether it changes the customer's saved items or lists (a share link's hash and display name
   * included): the dispatcher refuses it while the
   * customer's records are being redacted, or the write could land where the redaction's search
   * does not see it yet. Required, so a new operation says which it is.
   */
  writes: boolean;
  /** The codes this operation adds to what every operation can answer. */
  errors: readonly ErrorCode[];
  /** For the API document: a stable id suffix, a summary and a description. */
  doc: { id: string; summary: string; description: string };
}

/** What an operation that may create a stored entry answers when the shop's storage is full (docs/api.md). */
const STORAGE_FULL =
  "When the shop's storage is full (the platform's entry cap) and a new entry is needed: PLAN_LIMIT_REACHED (402, " +
  "not retryable); nothing already saved changes.";

/**
 * The operation catalogue: every channel serves exactly these, at <namespace>/<name>. Routes,
 * the OpenAPI document and the tests' router all derive from this table; the dispatcher has one
 * handler per entry. Key order is document order.
 */
export const OPERATIONS = {
  save: {
    method: "POST",
    writes: true,
    input: SaveRequestSchema,
    output: SaveOperationResultSchema,
    errors: ["DUPLICATE_SAVE"],
    doc: {
      id: "Save",
      summary: "Save an item",
      description:
        "Creates or reactivates the save_item for the list context (creating the list if needed). " +
        "Saving an item that is already active is DUPLICATE_SAVE (409). A save past a list's stored items or the " +
        "customer's lists (docs/api.md, storage bounds) is PLAN_LIMIT_REACHED (402). " +
        STORAGE_FULL,
    },
  },
  remove: {
    method: "POST",
    writes: true,
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
    writes: true,
    input: ToggleRequestSchema,
    output: SaveOperationResultSchema,
    errors: ["DUPLICATE_SAVE"],
    doc: {
      id: "Toggle",
      summary: "Toggle an item",
      description: `Removes the item if an active save exists, otherwise saves it. ${STORAGE_FULL}`,
    },
  },
  batch: {
    method: "POST",
    writes: true,
    input: BatchRequestSchema,
    output: BatchResultSchema,
    errors: ["BATCH_CONFLICT"],
    doc: {
      id: "Batch",
      summary: "Run up to 50 save/remove/toggle operations",
      description:
        "Order of checks: structure (1..50 operations), plan (Free: no batch, Starter: 10, Pro/Scale: 50; " +
        "PLAN_LIMIT_REACHED), duplicate identity keys (BATCH_CONFLICT, before anything runs), budget, operations. " +
        "Failures of single operations are results with ok false; the response stays 200 (a save when the shop's " +
        "storage is full: PLAN_LIMIT_REACHED).",
    },
  },
  list: {
    method: "GET",
    writes: false,
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
    writes: false,
    input: IsSavedQuerySchema,
    output: IsSavedResultSchema,
    errors: [],
    doc: {
      id: "IsSaved",
      summary: "Whether an item is actively saved",
      description: "saved is false when no list or no item exists.",
    },
  },
  "share-create": {
    method: "POST",
    writes: true,
    input: ShareCreateRequestSchema,
    output: ShareLinkSchema,
    errors: ["NOT_FOUND"],
    doc: {
      id: "ShareCreate",
      summary: "Create a share link for one of the caller's lists",
      description:
        "Answers a new random token (256 bits; only its sha256 is stored on the list) and the storefront path of the " +
        "read-only shared page. An earlier link of the same list stops working. displayName is the only identity the " +
        "shared page shows. A context the caller has no list for, or whose list is deleted, is NOT_FOUND (404).",
    },
  },
  "share-revoke": {
    method: "POST",
    writes: true,
    input: ShareRevokeRequestSchema,
    output: ShareRevokeResultSchema,
    errors: ["NOT_FOUND"],
    doc: {
      id: "ShareRevoke",
      summary: "Revoke the share link of one of the caller's lists",
      description:
        "Takes effect at once: the next read of the link is NOT_FOUND. Revoking a list that is not shared is 200 with " +
        "revoked false; a context the caller has no list for, or whose list is deleted (delete-list already ended its " +
        "link), is NOT_FOUND (404).",
    },
  },
  "shared-list": {
    method: "GET",
    writes: false,
    input: SharedListQuerySchema,
    output: SharedListResultSchema,
    errors: ["NOT_FOUND"],
    doc: {
      id: "SharedList",
      summary: "Read a list shared by link",
      description:
        "The active items (snapshot included, no ids) and the display name of the list a share token opens, in the " +
        "caller's shop; counts against the budget like list. An unknown or revoked token, one of a deleted list, or one " +
        "of another shop, is NOT_FOUND (404). A link just created may take a moment to be found (the platform's " +
        "search lags writes).",
    },
  },
  lists: {
    method: "GET",
    writes: false,
    input: ListsQuerySchema,
    output: ListsResultSchema,
    errors: [],
    doc: {
      id: "Lists",
      summary: "List the caller's lists",
      description:
        "The caller's lists that are not deleted, newest first, each with its name (null when never named) and its " +
        "number of active items; forward pagination with an opaque cursor, as list. A list a save made a moment " +
        "ago may take a moment to show (the platform's search lags writes).",
    },
  },
  "create-list": {
    method: "POST",
    writes: true,
    input: CreateListRequestSchema,
    output: SavedListSchema,
    errors: ["LIST_EXISTS"],
    doc: {
      id: "CreateList",
      summary: "Create a named list",
      description:
        "Creates a list with a display name; without context the service makes a new unique key. A list with that " +
        "context that is not deleted is LIST_EXISTS (409), unless it has the same name: then the request is a repeat " +
        "and answers that list unchanged, so a retry with the same context is safe. Past the plan's number of lists made with create-list " +
        "(Free 2, Starter 5, Pro 20, Scale 50), or past the storage bound on a customer's lists (docs/api.md, storage bounds): " +
        "PLAN_LIMIT_REACHED (402). save never counts against the plan's number. " +
        STORAGE_FULL,
    },
  },
  "rename-list": {
    method: "POST",
    writes: true,
    input: RenameListRequestSchema,
    output: SavedListSchema,
    errors: ["NOT_FOUND"],
    doc: {
      id: "RenameList",
      summary: "Rename one of the caller's lists",
      description: "Sets the list's display name; a context the caller has no list for is NOT_FOUND (404).",
    },
  },
  "delete-list": {
    method: "POST",
    writes: true,
    input: DeleteListRequestSchema,
    output: DeleteListResultSchema,
    errors: ["NOT_FOUND"],
    doc: {
      id: "DeleteList",
      summary: "Delete one of the caller's lists",
      description:
        "Removes every active item of the list (they stay stored, status removed, as remove leaves them), clears its " +
        "name and share link and marks it deleted, so lists no longer shows it and, once it has answered, no link of " +
        "the list opens. A later save to the same context brings the list back, unnamed. A context the caller has " +
        "no list for is NOT_FOUND (404).",
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
