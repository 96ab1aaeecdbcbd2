import { z } from "zod";
import { ENTITY_TYPES, ITEM_STATES } from "~/services/records/stored-values";

/** A snapshot is what a client wants to render later; kept small so a page of 100 stays cheap. */
export const MAX_SNAPSHOT_BYTES = 4096;
/**
 * A snapshot's shape is bounded before its size is measured, so measuring it (JSON.stringify) and
 * everything downstream that walks it works on a small, shallow value whatever the client sent.
 */
export const SNAPSHOT_LIMITS = { depth: 8, values: 200, stringLength: 1024 } as const;
export const MAX_BATCH_OPERATIONS = 50;
export const DEFAULT_LIST_LIMIT = 20;
export const MAX_LIST_LIMIT = 100;

export const EntityTypeSchema = z.enum(ENTITY_TYPES);

// C0 and C1 controls (\r, \n, \0, ...), the Unicode line and paragraph separators, and halves of
// a surrogate pair without their other half.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const LINE_BREAK_OR_CONTROL = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]/;
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const SINGLE_LINE_MESSAGE = "must be a single line of text without control characters or unpaired surrogates";

/**
 * What a single-line field of the platform accepts (it refuses line breaks as its own error, which
 * would otherwise reach the caller as an upstream failure), and what can go into a header, a log
 * line or a handle digest (which joins parts with "\n") without changing meaning.
 */
export function isSingleLineText(value: string): boolean {
  return !LINE_BREAK_OR_CONTROL.test(value) && !UNPAIRED_SURROGATE.test(value);
}

/** A string field that must be one line of text; every free-text field of a request is one. */
export function singleLineText() {
  return z.string().refine(isSingleLineText, SINGLE_LINE_MESSAGE);
}

// Metaobject single-line text fields hold at most 255 characters.
export const ContextSchema = singleLineText().min(1, "must not be empty").max(255);
const EntityGidSchema = singleLineText()
  .max(255)
  .regex(/^gid:\/\/shopify\/[A-Za-z]+\/[^\s/]+$/, "must be a platform GID such as gid://shopify/Product/123");
const SourceSchema = singleLineText().max(255);

const SnapshotSchema = z.record(z.string(), z.unknown()).superRefine((snapshot, context) => {
  const problem = snapshotProblem(snapshot);
  if (problem) context.addIssue({ code: "custom", message: problem });
});

/**
 * Why a snapshot is refused, or undefined. Walks with its own stack rather than recursion, and
 * measures the JSON size only once depth, count and string lengths are known to be small.
 * Strings may span lines (they are stored as JSON), but must be valid Unicode without NUL.
 */
function snapshotProblem(snapshot: Record<string, unknown>): string | undefined {
  const { depth: maxDepth, values: maxValues, stringLength: maxStringLength } = SNAPSHOT_LIMITS;
  const badString = (text: string) =>
    text.length > maxStringLength
      ? `strings must be at most ${maxStringLength} characters`
      : text.includes("\u0000") || UNPAIRED_SURROGATE.test(text)
        ? "strings must be valid Unicode text without NUL characters"
        : undefined;
  const pending: { value: unknown; depth: number }[] = [{ value: snapshot, depth: 1 }];
  let values = 0;
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value, depth } = next;
    if (typeof value === "string") {
      const problem = badString(value);
      if (problem) return problem;
      continue;
    }
    if (value === null || typeof value !== "object") continue;
    if (depth > maxDepth) return `must be at most ${maxDepth} levels deep`;
    const children: unknown[] = Array.isArray(value) ? value : Object.values(value);
    values += children.length;
    if (values > maxValues) return `must hold at most ${maxValues} values in all`;
    for (const key of Array.isArray(value) ? [] : Object.keys(value)) {
      const problem = badString(key);
      if (problem) return problem;
    }
    for (const child of children) pending.push({ value: child, depth: depth + 1 });
  }
  // Bounded above, so this cannot overflow the stack or take long.
  if (Buffer.byteLength(JSON.stringify(snapshot)) > MAX_SNAPSHOT_BYTES)
    return `must be at most ${MAX_SNAPSHOT_BYTES} bytes of JSON`;
  return undefined;
}

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
  cursor: singleLineText().min(1).max(1024).optional(),
  companion: ContextSchema.optional().meta({
    description:
      "Another list the same page shows (the theme's cart block beside its buttons): on the online store, the storefront's other default list is then read from the platform in the same request, so its own read is answered from the cache (decisions 0015, 0025). Ignored otherwise",
  }),
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

export const ItemStateSchema = z.enum(ITEM_STATES);

export const SaveOperationResultSchema = z.object({
  id: z.string().meta({ description: "GID of the save_item metaobject" }),
  state: ItemStateSchema.meta({ description: "The item's state after the operation" }),
});
export type SaveOperationResult = z.infer<typeof SaveOperationResultSchema>;

export const ProductCardSchema = z
  .object({
    availability: z.enum(["available", "sold-out", "unavailable"]).meta({
      description:
        "sold-out: published but no variant can be bought; unavailable: deleted or no longer on the online store " +
        "(then title, price, image and url may be null and the card has no link)",
    }),
    title: z.string().nullable().meta({ description: "The product's title; a variant's is Product - Variant" }),
    url: z.string().nullable().meta({
      description: "The storefront path (/products/<handle>, with ?variant=<id> for a variant); null when unavailable",
    }),
    image: z.string().nullable().meta({ description: "The featured image's URL on the platform's CDN, or null" }),
    price: z
      .object({ amount: z.string().meta({ description: "Decimal" }), currencyCode: z.string() })
      .nullable()
      .meta({ description: "The variant's price, or the product's lowest variant price" }),
    variantGid: z.string().nullable().meta({
      description: "What Add to cart adds: the saved variant, or the product's first available variant; null when none",
    }),
    priceDropped: z.boolean().meta({
      description:
        "Whether the price is below the price recorded at save time (the snapshot's priceAmount, or its price when " +
        "that is a plain amount such as $16.00); false when none was recorded",
    }),
  })
  .meta({ description: "The item's product as the shop's catalogue shows it now (docs/api.md, product cards)" });
export type ProductCard = z.infer<typeof ProductCardSchema>;

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
  product: ProductCardSchema.optional().meta({
    description: "For product and variant items: the catalogue's current card, whatever the snapshot holds",
  }),
});
export type ListItem = z.infer<typeof ListItemSchema>;

export const ListResultSchema = z.object({
  items: z.array(ListItemSchema),
  pageInfo: z.object({
    hasNextPage: z.boolean(),
    endCursor: z
      .string()
      .nullable()
      .meta({ description: "Pass as cursor to get the next page; null on an empty page" }),
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
