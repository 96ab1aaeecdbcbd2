/**
 * The service's wire format as the theme script and the customer-account extension read it (the
 * app's zod schemas are the source; a type test in tests/extensions keeps these assignable from
 * them). Kept here so neither bundle depends on anything from the server.
 */

export type ItemState = "active" | "removed";

export interface ItemIdentity {
  context: string;
  entityType: string;
  entityGid: string;
}

export interface SaveOperationResult {
  id: string;
  state: ItemState;
}

/** The catalogue's current view of a saved product or variant (docs/api.md, product cards). */
export interface ProductCard {
  availability: "available" | "sold-out" | "unavailable";
  title: string | null;
  url: string | null;
  image: string | null;
  price: { amount: string; currencyCode: string } | null;
  variantGid: string | null;
  priceDropped: boolean;
}

export interface ListItem {
  id: string;
  entityType: string;
  entityGid: string;
  status: string;
  savedAt?: string;
  snapshot?: unknown;
  product?: ProductCard;
}

export interface ListResult {
  items: ListItem[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

export interface ListQuery {
  context: string;
  limit?: number;
  cursor?: string | null;
}

/** `data` of a successful exchange at /api/customer-account/auth/exchange. */
export interface DirectAccessGrant {
  authorization: string;
  expiresInSeconds: number;
  expiresAt: string;
}

/** `data` of /batch: one result per operation, in order; a failed operation does not fail the call. */
export interface BatchResult {
  results: ({ ok: true; result: SaveOperationResult } | { ok: false; code: string; retryable: boolean })[];
}

/** `data` of share-create: the link is shown once; only its hash is kept by the service. */
export interface ShareLink {
  token: string;
  path: string;
  url: string;
  displayName: string | null;
}

/** `data` of share-revoke. */
export interface ShareRevokeResult {
  revoked: boolean;
}

/** One of the customer's lists, as `lists` answers it and create-list and rename-list return it. */
export interface SavedList {
  context: string;
  name: string | null;
  itemCount: number;
  createdAt: string;
  updatedAt: string;
}

/** `data` of lists. */
export interface ListsResult {
  lists: SavedList[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

/** `data` of delete-list: the list's active items were removed, not destroyed. */
export interface DeleteListResult {
  context: string;
  deleted: true;
  removedItems: number;
}
