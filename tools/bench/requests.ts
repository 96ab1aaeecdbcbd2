// The requests the bench and the soak send over the app proxy, in the shapes the theme sends.
import { aSaveRequest, anIdentity } from "../../tests/support/fixtures";
import type { LoadRequest } from "./load";
import { signed } from "./sandbox";

export interface Shopper {
  shop: string;
  /** Numeric customer id, as the proxy's logged_in_customer_id. */
  customer: string;
}

export const product = (n: number) => `gid://shopify/Product/${n}`;

export function isSaved(base: string, shopper: Shopper, entityGid = product(1)): LoadRequest {
  const query = { context: "wishlist", entityType: "product", entityGid };
  return { method: "GET", url: signed(base, "is-saved", { ...shopper, query }) };
}

/** The theme's one read of a session: the whole list, 100 at a time. */
export function list(base: string, shopper: Shopper, context = "wishlist"): LoadRequest {
  return { method: "GET", url: signed(base, "list", { ...shopper, query: { context, limit: "100" } }) };
}

export function write(
  base: string,
  shopper: Shopper,
  operation: "save" | "remove" | "toggle",
  entityGid: string,
  context = "wishlist",
): LoadRequest {
  const body = operation === "remove" ? anIdentity({ context, entityGid }) : aSaveRequest({ context, entityGid });
  return { method: "POST", url: signed(base, operation, shopper), body: JSON.stringify(body) };
}

/** A batch of saves of new items, as the theme sends when a guest's saves are merged at login. */
export function batchOfSaves(base: string, shopper: Shopper, entityGids: string[], context = "wishlist"): LoadRequest {
  const operations = entityGids.map((entityGid) => ({ action: "save", ...anIdentity({ context, entityGid }) }));
  return { method: "POST", url: signed(base, "batch", shopper), body: JSON.stringify({ operations }) };
}

/** A list or share-link operation with its input, as the theme's list manager sends it: a GET's query, else a JSON body. */
export function listOperation(
  base: string,
  shopper: Shopper,
  operation: string,
  input: Record<string, string>,
): LoadRequest {
  if (operation === "shared-list") return { method: "GET", url: signed(base, operation, { ...shopper, query: input }) };
  return { method: "POST", url: signed(base, operation, shopper), body: JSON.stringify(input) };
}
