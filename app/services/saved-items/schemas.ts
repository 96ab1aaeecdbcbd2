import { z } from "zod";

export const ENTITY_TYPES = [
  "product",
  "variant",
  "collection",
  "metaobject",
  "article",
  "page",
  "configuration",
] as const;

/** A snapshot is what a client wants to render later; kept small so a page of 100 stays cheap. */
export const MAX_SNAPSHOT_BYTES = 4096;
export const MAX_BATCH_OPERATIONS = 50;
export const DEFAULT_LIST_LIMIT = 20;
export const MAX_LIST_LIMIT = 100;

export const EntityTypeSchema = z.enum(ENTITY_TYPES);
export type EntityType = z.infer<typeof EntityTypeSchema>;

// Metaobject single-line text fields hold at most 255 characters.
const ContextSchema = z.string().min(1, "must not be empty").max(255);
const EntityGidSchema = z
  .string()
  .max(255)
  .regex(/^gid:\/\/shopify\/[A-Za-z]+\/[^\s/]+$/, "must be a platform GID such as gid://shopify/Product/123");
const SourceSchema = z.string().max(255);

const SnapshotSchema = z
  .record(z.string(), z.unknown())
  .refine((value) => Buffer.byteLength(JSON.stringify(value)) <= MAX_SNAPSHOT_BYTES, {
    message: `must be at most ${MAX_SNAPSHOT_BYTES} bytes of JSON`,
  });

const ItemIdentityShape = {
  context: ContextSchema,
  entityType: EntityTypeSchema,
  entityGid: EntityGidSchema,
};

export const SaveRequestSchema = z.object({
  ...ItemIdentityShape,
  source: SourceSchema,
  snapshot: SnapshotSchema.optional(),
});
export type SaveRequest = z.infer<typeof SaveRequestSchema>;

export const ToggleRequestSchema = SaveRequestSchema;

export const RemoveRequestSchema = z.object(ItemIdentityShape);
export type RemoveRequest = z.infer<typeof RemoveRequestSchema>;

export const IsSavedQuerySchema = z.object(ItemIdentityShape);
export type IsSavedQuery = z.infer<typeof IsSavedQuerySchema>;

export const ListQuerySchema = z.object({
  context: ContextSchema,
  limit: z.coerce.number().int().min(1).max(MAX_LIST_LIMIT).default(DEFAULT_LIST_LIMIT),
  cursor: z.string().min(1).max(1024).optional(),
});
export type ListQuery = z.infer<typeof ListQuerySchema>;

export const BatchOperationSchema = z.object({
  action: z.enum(["save", "remove", "toggle"]),
  ...ItemIdentityShape,
  source: SourceSchema.optional(),
  snapshot: SnapshotSchema.optional(),
});
export type BatchOperation = z.infer<typeof BatchOperationSchema>;

export const BatchRequestSchema = z.object({
  operations: z.array(BatchOperationSchema).min(1).max(MAX_BATCH_OPERATIONS),
});
export type BatchRequest = z.infer<typeof BatchRequestSchema>;

export type ItemIdentity = Pick<SaveRequest, "context" | "entityType" | "entityGid">;
export type ItemState = "active" | "removed";

export interface SaveOperationResult {
  id: string;
  state: ItemState;
}

export interface ListItem {
  id: string;
  entityType: EntityType;
  entityGid: string;
  status: string;
  savedAt?: string;
  snapshot?: unknown;
}

export interface ListResult {
  items: ListItem[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

export type BatchOperationResult =
  | { ok: true; result: SaveOperationResult }
  | { ok: false; code: string; message?: string; retryable: boolean };

export interface BatchResult {
  total: number;
  succeeded: number;
  failed: number;
  results: BatchOperationResult[];
}

/** Each operation, its HTTP method and the schema its input is parsed with at the edge. */
export const OPERATIONS = {
  save: { method: "POST", schema: SaveRequestSchema },
  remove: { method: "POST", schema: RemoveRequestSchema },
  toggle: { method: "POST", schema: ToggleRequestSchema },
  batch: { method: "POST", schema: BatchRequestSchema },
  list: { method: "GET", schema: ListQuerySchema },
  "is-saved": { method: "GET", schema: IsSavedQuerySchema },
} as const;

export type OperationName = keyof typeof OPERATIONS;
export type OperationInput<Op extends OperationName> = z.infer<(typeof OPERATIONS)[Op]["schema"]>;

export interface OperationOutput {
  save: SaveOperationResult;
  remove: SaveOperationResult;
  toggle: SaveOperationResult;
  batch: BatchResult;
  list: ListResult;
  "is-saved": { saved: boolean };
}
