import { requestEnvelope, type FetchLike } from "../../../shared/envelope";
import { SavedItemsError } from "../../../shared/errors";
import { browserRetryRuntime, DEFAULT_RETRY_POLICY, withRetry, type RetryPolicy } from "../../../shared/retry";
import type {
  DeleteListResult,
  ItemIdentity,
  ListQuery,
  ListResult,
  ListsResult,
  SavedList,
  SaveOperationResult,
  ShareLink,
  ShareRevokeResult,
} from "../../../shared/wire";
import { createServiceTokenSource, type ServiceTokenSource } from "./service-token";

/** The service token has expired; the one 4xx the client recovers from (by exchanging again). */
export const TOKEN_EXPIRED = "TOKEN_EXPIRED";

export interface SavedItemsClientOptions {
  /** The app's origin (and path prefix, if any), without a trailing slash. */
  appUrl: string;
  getSessionToken: () => Promise<string>;
  fetch?: FetchLike;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  retry?: RetryPolicy;
}

export interface SavedItemsClient {
  list(query: ListQuery): Promise<ListResult>;
  remove(identity: ItemIdentity): Promise<SaveOperationResult>;
  createShareLink(input: { context: string; displayName?: string }): Promise<ShareLink>;
  revokeShareLink(input: { context: string }): Promise<ShareRevokeResult>;
  lists(query: { limit?: number; cursor?: string | null }): Promise<ListsResult>;
  createList(input: { name: string; context?: string }): Promise<SavedList>;
  renameList(input: { context: string; name: string }): Promise<SavedList>;
  deleteList(input: { context: string }): Promise<DeleteListResult>;
}

/**
 * The customer-account namespace of the service, as the extension calls it: service token from
 * the exchange (cached, shared), one re-exchange and repeat when a call answers TOKEN_EXPIRED,
 * and the shared retry rules (extensions/shared/retry.ts) around the whole (exchange included).
 */
export function createSavedItemsClient(options: SavedItemsClientOptions): SavedItemsClient {
  // The global `fetch`, not `globalThis.fetch`: the CLI's generated shopify.d.ts types this
  // module's globalThis as `{ shopify }` alone.
  const http: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  const now = options.now ?? (() => Date.now());
  const runtime = {
    sleep: options.sleep ?? browserRetryRuntime.sleep,
    random: options.random ?? browserRetryRuntime.random,
  };
  const policy = options.retry ?? DEFAULT_RETRY_POLICY;
  const tokens: ServiceTokenSource = createServiceTokenSource({
    appUrl: options.appUrl,
    getSessionToken: options.getSessionToken,
    fetch: http,
    now,
  });

  function send(operation: string, authorization: string, input: { query?: Record<string, string>; body?: unknown }) {
    const url = new URL(`${options.appUrl}/api/customer-account/${operation}`);
    for (const [key, value] of Object.entries(input.query ?? {})) url.searchParams.set(key, value);
    const headers: Record<string, string> = { Authorization: authorization };
    if (input.body !== undefined) headers["Content-Type"] = "application/json";
    return requestEnvelope(http, url.toString(), {
      method: input.body === undefined ? "GET" : "POST",
      headers,
      ...(input.body === undefined ? {} : { body: JSON.stringify(input.body) }),
    });
  }

  async function call<T>(operation: string, input: { query?: Record<string, string>; body?: unknown }): Promise<T> {
    let reExchanged = false;
    return withRetry(
      async () => {
        const authorization = await tokens.authorization();
        try {
          return (await send(operation, authorization, input)) as T;
        } catch (error) {
          if (reExchanged || !(error instanceof SavedItemsError) || error.code !== TOKEN_EXPIRED) throw error;
          // The token died before we expected (clock skew, a suspended tab): exchange once more, repeat once.
          reExchanged = true;
          tokens.invalidate(authorization);
          return (await send(operation, await tokens.authorization(), input)) as T;
        }
      },
      policy,
      runtime,
    );
  }

  return {
    list({ context, limit, cursor }) {
      return call<ListResult>("list", { query: { context, ...pageQuery(limit, cursor) } });
    },
    lists({ limit, cursor }) {
      return call<ListsResult>("lists", { query: pageQuery(limit, cursor) });
    },
    createList({ name, context }) {
      return call<SavedList>("create-list", { body: context ? { name, context } : { name } });
    },
    renameList({ context, name }) {
      return call<SavedList>("rename-list", { body: { context, name } });
    },
    deleteList({ context }) {
      return call<DeleteListResult>("delete-list", { body: { context } });
    },
    remove(identity) {
      return call<SaveOperationResult>("remove", { body: pickIdentity(identity) });
    },
    createShareLink({ context, displayName }) {
      return call<ShareLink>("share-create", { body: displayName ? { context, displayName } : { context } });
    },
    revokeShareLink({ context }) {
      return call<ShareRevokeResult>("share-revoke", { body: { context } });
    },
  };
}

function pageQuery(limit: number | undefined, cursor: string | null | undefined): Record<string, string> {
  const query: Record<string, string> = {};
  if (limit !== undefined) query.limit = String(limit);
  if (cursor) query.cursor = cursor;
  return query;
}

function pickIdentity({ context, entityType, entityGid }: ItemIdentity): ItemIdentity {
  return { context, entityType, entityGid };
}
