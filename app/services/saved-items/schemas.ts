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

// Response shapes. Never parsed at runtime: the TS types are derived from them so the handlers'
// return types and the OpenAPI document (app/services/openapi) come from one source.

export const ItemStateSchema = z.enum(["active", "removed"]);
export type ItemState = z.infer<typeof ItemStateSchema>;

export const SaveOperationResultSchema = z.object({
  id: z.string().meta({ description: "GID of the save_item metaobject" }),
  state: ItemStateSchema.meta({ description: "The item's state after the operation" }),
});
export type SaveOperationResult = z.infer<typeof SaveOperationResultSchema>;

export const ListItemSchema = z.object({
  id: z.string().meta({ description: "GID of the save_item metaobject" }),
  entityType: EntityTypeSchema,
  entityGid: z.string(),
  status: z.string().meta({ description: "Always active: list returns active items only" }),
  savedAt: z.string().meta({ format: "date-time", description: "When the item was (last) saved" }).optional(),
  snapshot: z
    .unknown()
    .meta({ description: "The snapshot stored with the save, parsed; absent when none was stored" })
    .optional(),
});
export type ListItem = z.infer<typeof ListItemSchema>;

export const ListResultSchema = z.object({
  items: z.array(ListItemSchema),
  pageInfo: z.object({
    hasNextPage: z.boolean(),
    endCursor: z.string().nullable().meta({ description: "Pass as cursor to get the next page; null on an empty page" }),
  }),
});
export type ListResult = z.infer<typeof ListResultSchema>;

export const IsSavedResultSchema = z.object({ saved: z.boolean() });
export type IsSavedResult = z.infer<typeof IsSavedResultSchema>;

export const BatchOperationResultSchema = z.discriminatedUnion("ok", [
  z.object({ ok: z.literal(true), result: SaveOperationResultSchema }),
  z.object({
    ok: z.literal(false),
    code: z.string().meta({ description: "An error code, e.g. DUPLICATE_SAVE or ITEM_NOT_FOUND" }),
    message: z.string().optional(),
    retryable: z.boolean(),
  }),
]);
export type BatchOperationResult = z.infer<typeof BatchOperationResultSchema>;

export const BatchResultSchema = z.object({
  total: z.number().int().min(0).meta({ description: "The number of operations sent" }),
  succeeded: z.number().int().min(0),
  failed: z.number().int().min(0),
  results: z.array(BatchOperationResultSchema).meta({ description: "One entry per operation, in request order" }),
});
export type BatchResult = z.infer<typeof BatchResultSchema>;
