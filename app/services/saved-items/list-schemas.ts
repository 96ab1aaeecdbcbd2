import { z } from "zod";
import { ContextSchema, ListQuerySchema, ListResultSchema, singleLineText } from "./schemas";

/** A list's display name, as the customer-account page and the theme show it: one short line. */
export const MAX_LIST_NAME_LENGTH = 60;

/** Names are trimmed first, so "  " is empty and a name never starts or ends with blanks. */
export const ListNameSchema = singleLineText()
  .trim()
  .min(1, "must not be empty")
  .max(MAX_LIST_NAME_LENGTH)
  .meta({ description: `The list's display name, trimmed, 1 to ${MAX_LIST_NAME_LENGTH} characters` });

/** The same limit and cursor as list's. */
export const ListsQuerySchema = ListQuerySchema.omit({ context: true, companion: true });
export type ListsQuery = z.infer<typeof ListsQuerySchema>;

export const CreateListRequestSchema = z.object({
  name: ListNameSchema,
  context: ContextSchema.optional().meta({
    description: "The list's key, as save and list take it; left out, the service makes a new unique one",
  }),
});
export type CreateListRequest = z.infer<typeof CreateListRequestSchema>;

export const RenameListRequestSchema = z.object({ context: ContextSchema, name: ListNameSchema });
export type RenameListRequest = z.infer<typeof RenameListRequestSchema>;

export const DeleteListRequestSchema = z.object({ context: ContextSchema });
export type DeleteListRequest = z.infer<typeof DeleteListRequestSchema>;

// Response shapes: never parsed at runtime (see schemas.ts).

export const SavedListSchema = z.object({
  context: z.string().meta({ description: "The list's key: what save, list and the other item operations take" }),
  name: z.string().nullable().meta({ description: "The display name, or null for a list never named" }),
  itemCount: z.number().int().min(0).meta({ description: "How many active items the list holds" }),
  createdAt: z.string().meta({ format: "date-time" }),
  updatedAt: z.string().meta({ format: "date-time" }),
});
export type SavedList = z.infer<typeof SavedListSchema>;

export const ListsResultSchema = z.object({
  lists: z.array(SavedListSchema).meta({ description: "The caller's lists that are not deleted, newest first" }),
  pageInfo: ListResultSchema.shape.pageInfo,
});
export type ListsResult = z.infer<typeof ListsResultSchema>;

export const DeleteListResultSchema = z.object({
  context: z.string(),
  deleted: z.literal(true),
  removedItems: z
    .number()
    .int()
    .min(0)
    .meta({ description: "How many active items this call removed (they stay stored, status removed)" }),
});
export type DeleteListResult = z.infer<typeof DeleteListResultSchema>;
