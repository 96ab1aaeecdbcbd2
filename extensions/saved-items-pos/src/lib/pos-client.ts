import { requestEnvelope, type FetchLike } from "../../../shared/envelope";
import { SavedItemsError } from "../../../shared/errors";
import { browserRetryRuntime, DEFAULT_RETRY_POLICY, withRetry, type RetryPolicy } from "../../../shared/retry";
import type { ListResult } from "../../../shared/wire";
import { trackedCalls } from "../../../shared/in-flight";

/** POS gave no session token: the logged-in POS user lacks the app's permission. */
export const NO_SESSION_TOKEN = "NO_SESSION_TOKEN";

export interface PosClientOptions {
  /** The app's origin (and path prefix, if any), without a trailing slash. */
  appUrl: string;
  /** POS's session token; undefined when the user may not use the app. */
  getSessionToken: () => Promise<string | undefined>;
  fetch?: FetchLike;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  retry?: RetryPolicy;
}

export interface PosClient {
  /** The newest `limit` active items of the customer's list `context`. */
  list(input: { customerGid: string; context: string; limit: number }): Promise<ListResult>;
}

/**
 * The point-of-sale namespace of the service: POS's own session token on every request (it is
 * short-lived and POS caches it, so there is no exchange), the customer in the query, and the
 * shared retry rules (extensions/shared/retry.ts) around each attempt, token included.
 */
export function createPosClient(options: PosClientOptions): PosClient {
  // The global `fetch`, not `globalThis.fetch`: the CLI's generated shopify.d.ts types this
  // module's globalThis as `{ shopify }` alone.
  const http: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  const runtime = {
    sleep: options.sleep ?? browserRetryRuntime.sleep,
    random: options.random ?? browserRetryRuntime.random,
  };
  return trackedCalls<PosClient>({
    list({ customerGid, context, limit }) {
      const url = new URL(`${options.appUrl}/api/pos/list`);
      url.searchParams.set("customerId", customerGid);
      url.searchParams.set("context", context);
      url.searchParams.set("limit", String(limit));
      return withRetry(
        async () => {
          const token = await options.getSessionToken();
          if (!token) throw new SavedItemsError(NO_SESSION_TOKEN, "POS gave no session token", 0, false);
          return (await requestEnvelope(http, url.toString(), {
            method: "GET",
            headers: { Authorization: `Bearer ${token}` },
          })) as ListResult;
        },
        options.retry ?? DEFAULT_RETRY_POLICY,
        runtime,
      );
    },
  });
}
