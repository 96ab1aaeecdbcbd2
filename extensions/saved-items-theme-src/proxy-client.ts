import { requestEnvelope } from "../shared/envelope";
import { withRetry } from "../shared/retry";
import type { ListResult } from "../shared/wire";
import type { BlockConfig } from "./block-config";

type ProxyOperation =
  | "save"
  | "remove"
  | "batch"
  | "list"
  | "lists"
  | "create-list"
  | "rename-list"
  | "delete-list"
  | "share-create"
  | "share-revoke";

/**
 * One call to the app proxy with the shared client's envelope parsing and retry rules. Resolves
 * to the envelope's data; rejects with a SavedItemsError. Repeating a write whose answer was lost
 * is safe: a repeated save answers DUPLICATE_SAVE and a repeated remove succeeds, and callers
 * take both as done.
 */
export function callProxy<T>(config: BlockConfig, operation: ProxyOperation, input: object): Promise<T> {
  const read = operation === "list" || operation === "lists";
  // fetch's defaults are GET with same-origin credentials: the storefront's session cookie goes along.
  const init: RequestInit = read
    ? {}
    : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(input) };
  const url = config.api + operation + (read ? `?${new URLSearchParams(input as Record<string, string>)}` : "");
  return withRetry(() => requestEnvelope(fetch, url, init)) as Promise<T>;
}

/**
 * One page of the block's list (or another of the shopper's), newest save first. `companion`: another
 * list the page shows, which the app then reads along with this one (decision 0025).
 */
export function listPage(
  config: BlockConfig,
  limit: string,
  cursor: string | null,
  context = config.context,
  companion?: string,
): Promise<ListResult> {
  const query: Record<string, string> = { context, limit };
  if (cursor) query.cursor = cursor;
  if (companion) query.companion = companion;
  return callProxy<ListResult>(config, "list", query);
}
