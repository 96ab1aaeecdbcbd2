import { GraphqlQueryError, HttpRequestError, HttpResponseError } from "@shopify/shopify-api";
import { ServiceError } from "~/lib/errors";

/** The slice of the library's admin context the service uses; tests and every channel provide it. */
export interface AdminGraphqlClient {
  graphql(query: string, options?: { variables?: Record<string, unknown> }): Promise<Response>;
}

interface ThrottleStatus {
  currentlyAvailable?: number;
  restoreRate?: number;
}
interface CostExtension {
  requestedQueryCost?: number;
  throttleStatus?: ThrottleStatus;
}

// Throttled requests did not run, so retrying them is safe; the wait is bounded so a request
// never hangs on the platform's bucket for longer than a shopper would tolerate.
const MAX_THROTTLE_RETRIES = 2;
const MAX_THROTTLE_WAIT_MS = 2_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs one Admin GraphQL document and returns its `data`, turning every platform failure into a
 * ServiceError: throttling (HTTP 200 THROTTLED or 429) is retried a bounded number of times, then
 * RATE_LIMITED; a rejected token means the app is no longer installed; anything else is upstream.
 * The embedded-admin client's re-authentication Responses (401, redirects) are rethrown as they are.
 */
export async function runAdminGraphql<Data>(
  admin: AdminGraphqlClient,
  query: string,
  variables: Record<string, unknown>,
): Promise<Data> {
  for (let attempt = 0; ; attempt++) {
    try {
      const response = await admin.graphql(query, { variables });
      const body = (await response.json()) as { data?: Data };
      if (!body.data) throw new ServiceError("PLATFORM_UPSTREAM_ERROR", "The platform returned no data");
      return body.data;
    } catch (error) {
      const waitMs = throttleWaitMs(error);
      if (waitMs === undefined) throw toServiceError(error);
      if (attempt >= MAX_THROTTLE_RETRIES) {
        throw new ServiceError("RATE_LIMITED", "The platform is throttling requests for this shop; retry shortly", {
          cause: error,
        });
      }
      await sleep(Math.min(waitMs, MAX_THROTTLE_WAIT_MS));
    }
  }
}

/** How long to wait before retrying a throttled request, or undefined when it was not throttled. */
function throttleWaitMs(error: unknown): number | undefined {
  if (error instanceof GraphqlQueryError) {
    const graphQLErrors = (error.body?.errors as { graphQLErrors?: { extensions?: { code?: string } }[] } | undefined)
      ?.graphQLErrors;
    if (!graphQLErrors?.some((e) => e.extensions?.code === "THROTTLED")) return undefined;
    const cost = (error.body?.extensions as { cost?: CostExtension } | undefined)?.cost;
    const missing = (cost?.requestedQueryCost ?? 0) - (cost?.throttleStatus?.currentlyAvailable ?? 0);
    const rate = cost?.throttleStatus?.restoreRate || 50;
    return Math.max(50, Math.ceil((missing / rate) * 1000));
  }
  if (error instanceof HttpResponseError && error.response.code === 429) {
    const retryAfter = (error.response as { retryAfter?: number }).retryAfter;
    // Retry-After is in seconds on the wire.
    return retryAfter ? retryAfter * 1000 : 1000;
  }
  return undefined;
}

function toServiceError(error: unknown): ServiceError {
  if (error instanceof ServiceError) return error;
  // The embedded-admin client (authenticate.admin) throws HTTP failures as Responses. A 401 or a
  // redirect is the library's re-authentication flow and must reach Remix untouched.
  if (error instanceof Response) {
    if (error.status === 401 || (error.status >= 300 && error.status < 400)) throw error;
    return new ServiceError(
      error.status === 429 ? "RATE_LIMITED" : "PLATFORM_UPSTREAM_ERROR",
      `The platform answered HTTP ${error.status}`,
      { cause: error },
    );
  }
  if (error instanceof HttpResponseError && error.response.code === 401) {
    return new ServiceError("SHOP_NOT_INSTALLED", "The app is not installed on this shop", { cause: error });
  }
  if (error instanceof GraphqlQueryError || error instanceof HttpResponseError || error instanceof HttpRequestError) {
    return new ServiceError("PLATFORM_UPSTREAM_ERROR", "The commerce platform failed to answer; retry shortly", {
      cause: error,
    });
  }
  if (error instanceof Error && error.name !== "ServiceError") {
    // fetch rejects with TypeError on network failure before the library can wrap it.
    return new ServiceError("PLATFORM_UPSTREAM_ERROR", "The commerce platform could not be reached; retry shortly", {
      cause: error,
    });
  }
  return new ServiceError("INTERNAL_ERROR", "Unexpected failure", { cause: error });
}
