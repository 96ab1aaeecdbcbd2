import { z } from "zod";
import { ContextSchema, ListItemSchema, singleLineText } from "./schemas";

/** 32 random bytes in base64url without padding: 256 bits, well above the 128 the issue asks for. */
export const SHARE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
export const MAX_SHARE_NAME_LENGTH = 60;
export const DEFAULT_SHARED_LIST_LIMIT = 50;
export const MAX_SHARED_LIST_LIMIT = 100;

export const ShareTokenSchema = z
  .string()
  .regex(SHARE_TOKEN_PATTERN, "must be a share token as create-share-link returned it");

export const ShareCreateRequestSchema = z.object({
  context: ContextSchema,
  displayName: singleLineText()
    .min(1, "must not be empty; leave it out for no name")
    .max(MAX_SHARE_NAME_LENGTH)
    .optional()
    .meta({ description: "What the shared page shows as the list's owner; nothing identifies the customer otherwise" }),
});
export type ShareCreateRequest = z.infer<typeof ShareCreateRequestSchema>;

export const ShareRevokeRequestSchema = z.object({ context: ContextSchema });
export type ShareRevokeRequest = z.infer<typeof ShareRevokeRequestSchema>;

export const SharedListQuerySchema = z.object({
  token: ShareTokenSchema,
  limit: z.coerce.number().int().min(1).max(MAX_SHARED_LIST_LIMIT).default(DEFAULT_SHARED_LIST_LIMIT),
});
export type SharedListQuery = z.infer<typeof SharedListQuerySchema>;

// Response shapes: never parsed at runtime (see schemas.ts).

export const ShareLinkSchema = z.object({
  token: z.string().meta({ description: "The share token; shown once, only its sha256 is stored" }),
  path: z.string().meta({
    description: "The storefront path of the shared page under the app proxy's default prefix and subpath",
  }),
  url: z.string().meta({ description: "path on the shop's myshopify domain, which redirects to its primary domain" }),
  displayName: z.string().nullable(),
});
export type ShareLink = z.infer<typeof ShareLinkSchema>;

export const ShareRevokeResultSchema = z.object({
  revoked: z.boolean().meta({ description: "Whether a link was active; false when the list was not shared" }),
});
export type ShareRevokeResult = z.infer<typeof ShareRevokeResultSchema>;

/** A list item as a stranger may see it: no metaobject id, no status. */
export const SharedItemSchema = ListItemSchema.omit({ id: true, status: true });
export type SharedItem = z.infer<typeof SharedItemSchema>;

export const SharedListResultSchema = z.object({
  displayName: z.string().nullable().meta({ description: "The name the owner chose, or null" }),
  listName: z
    .string()
    .nullable()
    .optional()
    .meta({ description: "The list's own name (create-list, rename-list), or null when never named" }),
  items: z.array(SharedItemSchema).meta({ description: "The list's active items, newest save first, up to limit" }),
  hasMore: z.boolean().meta({ description: "Whether the list has more items than were returned" }),
});
export type SharedListResult = z.infer<typeof SharedListResultSchema>;
