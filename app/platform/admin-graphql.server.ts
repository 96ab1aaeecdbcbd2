import { GraphqlQueryError, HttpRequestError, HttpResponseError } from "@shopify/shopify-api";
import { asServiceError } from "~/lib/envelope";
import { ServiceError } from "~/lib/errors";
import { countPlatformPoints, countPlatformThrottled } from "~/lib/metrics.server";
import { clock } from "~/lib/clock";
import { beforePlatformAttempt, currentOperation, recordPlatformAnswer } from "~/lib/request-context.server";
import { ADMIN_API_VERSION } from "./api-versions";
import { renewRejectedToken, requireOfflineSession } from "./offline-sessions.server";
import { observeBucket } from "./shop-buckets.server";
import { platformFetch } from "./platform-fetch.server";

/**
 * The slice of an Admin GraphQL client the service uses. The embedded admin's client (from
 * authenticate.admin) and the offline client below both have it, and tests can provide it.
 */
export interface AdminGraphqlClient {
  graphql(query: string, options?: { variables?: object }): Promise<Response>;
  /** The shop it reaches, when known: its answers' throttle status is then recorded for pacers (shop-buckets.server.ts). */
  readonly shop?: string;
}

/**
 * Every Admin document the app sends, by its exact text: `npm run graphql-codegen` fills these in
 * (app/types/admin.generated.d.ts) from the `#graphql` documents in app/, so a document it has not
 * typed is a type error, not an untyped answer.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface AdminQueries {}
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface AdminMutations {}
type AdminOperations = AdminQueries & AdminMutations;
export type AdminDocument = keyof AdminOperations & string;

interface CostExtension {
  requestedQueryCost?: number;
  actualQueryCost?: number | null;
  throttleStatus?: { maximumAvailable?: number; currentlyAvailable?: number; restoreRate?: number };
}

/** What the platform said a request cost and left in the shop's bucket, throttled or not. */
export interface PlatformCost {
  requestedQueryCost: number;
  throttleStatus: { maximumAvailable: number; currentlyAvailable: number; restoreRate: number };
}

/**
 * How a caller takes part in each attempt: `beforeEachAttempt` may wait or throw to stop before a
 * send; `onCost` hears every answer's cost, for a caller that paces itself on the shop's bucket.
 */
export interface AdminGraphqlOptions {
  beforeEachAttempt?: () => Promise<void>;
  onCost?: (cost: PlatformCost) => void;
}

interface GraphqlBody<Data> {
  data?: Data | null;
  errors?: { message?: string; extensions?: { code?: string } }[] | string;
  extensions?: { cost?: CostExtension };
}

// Throttled requests did not run, so retrying them is safe; the wait is bounded so a request
// never hangs on the platform's bucket for longer than a shopper would tolerate.
const MAX_THROTTLE_RETRIES = 2;
const MAX_THROTTLE_WAIT_MS = 2_000;

/**
 * The shop's Admin API client for work that arrives without a merchant (proxy and direct
 * channels, webhooks), with the offline token. A token the platform refuses is renewed (once per
 * shop, whichever instance sees it first) and the request sent once more.
 */
export function offlineAdminClient(shop: string): AdminGraphqlClient {
  const post = (query: string, variables: object, accessToken: string) =>
    platformFetch(`https://${shop}/admin/api/${ADMIN_API_VERSION}/graphql.json`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json",
        "X-Shopify-Access-Token": accessToken,
      },
      body: JSON.stringify({ query, variables }),
    });
  return {
    shop,
    async graphql(query, options = {}) {
      const session = await requireOfflineSession(shop);
      const response = await post(query, options.variables ?? {}, session.accessToken!);
      if (response.status !== 401) return response;
      const renewed = await renewRejectedToken(shop, session.accessToken!);
      if (!renewed) return response;
      await response.arrayBuffer().catch(() => undefined);
      return post(query, options.variables ?? {}, renewed.accessToken!);
    },
  };
}

/**
 * The platform refused a field for a scope the shop has not granted (ACCESS_DENIED, shopify.dev
 * "Access scopes"): the cause of the ServiceError, so a caller can tell it from a passing failure.
 */
export class PlatformAccessDenied extends Error {
  override name = "PlatformAccessDenied";
}

export const isAccessDenied = (error: unknown): boolean =>
  error instanceof ServiceError && error.cause instanceof PlatformAccessDenied;

/**
 * A mutation the platform answered without its result: its userErrors (or no payload at all) go
 * into the cause, for the log; the caller sees a retryable upstream error with `message`.
 */
export function platformRefusal(message: string, userErrors: readonly { message: string }[] | null | undefined) {
  return new ServiceError("PLATFORM_UPSTREAM_ERROR", message, {
    cause: new Error(userErrors?.map((error) => error.message).join("; ") || "no payload"),
  });
}

/**
 * Runs one Admin GraphQL document and returns its `data`, typed from the document's text by the
 * codegen. Every platform failure becomes a ServiceError: throttling (HTTP 200 THROTTLED or 429) is
 * retried a bounded number of times, then RATE_LIMITED; a rejected token means the app is no
 * longer installed; a GraphQL error, a 5xx, a timeout or an unreachable platform is
 * PLATFORM_UPSTREAM_ERROR. The embedded-admin client's re-authentication Responses (401,
 * redirects) are rethrown as they are. The cost the platform reports is added to the request's log
 * fields, given to `onCost` and, for a client that knows its shop, recorded as the shop's bucket.
 */
export function runAdminGraphql<Document extends AdminDocument>(
  admin: AdminGraphqlClient,
  query: Document,
  variables: AdminOperations[Document]["variables"],
  options: AdminGraphqlOptions = {},
): Promise<AdminOperations[Document]["return"]> {
  return sendAdminGraphql(admin, query, variables, options);
}

/**
 * Runs a document assembled at run time, as runAdminGraphql does. A batch puts one aliased root
 * field per entry in one request, so its text is not known until then and the codegen cannot key
 * it: it is built from fragments the codegen typed, and `Data` names the generated fragment type
 * each alias answers with.
 */
export function runComposedAdminGraphql<Data>(
  admin: AdminGraphqlClient,
  query: string,
  variables: Record<string, unknown>,
  options: AdminGraphqlOptions = {},
): Promise<Data> {
  return sendAdminGraphql(admin, query, variables, options);
}

async function sendAdminGraphql<Data>(
  admin: AdminGraphqlClient,
  query: string,
  variables: object,
  options: AdminGraphqlOptions,
): Promise<Data> {
  for (let attempt = 0; ; attempt++) {
    // A write under a lock confirms the lock before every attempt, including those sent after a throttle wait.
    await options.beforeEachAttempt?.();
    await beforePlatformAttempt();
    const outcome = await attemptAdminGraphql<Data>(admin, query, variables, options.onCost);
    if ("data" in outcome) return outcome.data;
    if (attempt >= MAX_THROTTLE_RETRIES) {
      throw new ServiceError("RATE_LIMITED", "The platform is throttling requests for this shop; retry shortly", {
        retryAfterSeconds: Math.ceil(outcome.throttledForMs / 1000),
      });
    }
    await clock.sleep(Math.min(outcome.throttledForMs, MAX_THROTTLE_WAIT_MS));
  }
}

async function attemptAdminGraphql<Data>(
  admin: AdminGraphqlClient,
  query: string,
  variables: object,
  onCost: AdminGraphqlOptions["onCost"],
): Promise<{ data: Data } | { throttledForMs: number }> {
  let response: Response;
  try {
    response = await admin.graphql(query, { variables });
  } catch (error) {
    const throttledForMs = libraryThrottleWaitMs(error);
    if (throttledForMs !== undefined) return { throttledForMs };
    throw toServiceError(error);
  }
  if (response.status === 429) {
    await response.arrayBuffer().catch(() => undefined);
    // Retry-After is in seconds on the wire.
    return { throttledForMs: Number(response.headers.get("Retry-After") ?? 1) * 1000 || 1000 };
  }
  if (!response.ok) {
    await response.arrayBuffer().catch(() => undefined);
    if (response.status === 401) throw notInstalled();
    throw new ServiceError(
      "PLATFORM_UPSTREAM_ERROR",
      `The commerce platform answered HTTP ${response.status}; retry shortly`,
    );
  }
  let body: GraphqlBody<Data>;
  try {
    body = (await response.json()) as GraphqlBody<Data>;
  } catch (error) {
    throw toServiceError(error);
  }
  const cost = body.extensions?.cost;
  // A throttled answer's actualQueryCost is null: it spent nothing (shopify.dev/docs/api/usage/limits).
  recordPlatformAnswer(cost?.actualQueryCost ?? 0);
  countPlatformPoints(currentOperation(), cost?.actualQueryCost ?? 0);
  const reported = platformCost(cost);
  if (reported && admin.shop) observeBucket(admin.shop, reported.throttleStatus);
  if (reported) onCost?.(reported);
  const errors = Array.isArray(body.errors) ? body.errors : body.errors ? [{ message: body.errors }] : [];
  if (errors.some((error) => error.extensions?.code === "THROTTLED")) {
    countPlatformThrottled();
    return { throttledForMs: throttleWaitMs(cost) };
  }
  const denied = errors.find((error) => error.extensions?.code === "ACCESS_DENIED");
  if (denied) {
    throw new ServiceError("PLATFORM_UPSTREAM_ERROR", "The shop has not granted the access this needs", {
      cause: new PlatformAccessDenied(denied.message ?? "access denied"),
    });
  }
  if (errors.length > 0 || !body.data) {
    throw new ServiceError("PLATFORM_UPSTREAM_ERROR", "The commerce platform refused the request; retry shortly", {
      cause: new Error(errors.map((error) => error.message).join("; ") || "no data"),
    });
  }
  return { data: body.data };
}

/** The cost extension, when the answer has one with every figure a pacer needs. */
function platformCost(cost: CostExtension | undefined): PlatformCost | undefined {
  const { maximumAvailable, currentlyAvailable, restoreRate } = cost?.throttleStatus ?? {};
  if (cost?.requestedQueryCost === undefined || maximumAvailable === undefined) return undefined;
  if (currentlyAvailable === undefined || restoreRate === undefined) return undefined;
  return {
    requestedQueryCost: cost.requestedQueryCost,
    throttleStatus: { maximumAvailable, currentlyAvailable, restoreRate },
  };
}

/** How long the bucket needs to hold the requested cost again, from the platform's own figures. */
function throttleWaitMs(cost: CostExtension | undefined): number {
  const missing = (cost?.requestedQueryCost ?? 0) - (cost?.throttleStatus?.currentlyAvailable ?? 0);
  const rate = cost?.throttleStatus?.restoreRate || 50;
  return Math.max(50, Math.ceil((missing / rate) * 1000));
}

/** The embedded-admin client throws where ours answers: its throttling errors, if this is one. */
function libraryThrottleWaitMs(error: unknown): number | undefined {
  if (error instanceof GraphqlQueryError) {
    const graphQLErrors = (error.body?.errors as { graphQLErrors?: { extensions?: { code?: string } }[] } | undefined)
      ?.graphQLErrors;
    if (!graphQLErrors?.some((e) => e.extensions?.code === "THROTTLED")) return undefined;
    return throttleWaitMs((error.body?.extensions as { cost?: CostExtension } | undefined)?.cost);
  }
  if (error instanceof HttpResponseError && error.response.code === 429) {
    const retryAfter = (error.response as { retryAfter?: number }).retryAfter;
    return retryAfter ? retryAfter * 1000 : 1000;
  }
  return undefined;
}

function notInstalled(cause?: unknown): ServiceError {
  return new ServiceError("SHOP_NOT_INSTALLED", "The app is not installed on this shop", { cause });
}

/** asServiceError, knowing what the platform libraries and fetch throw. */
function toServiceError(error: unknown): ServiceError {
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
  if (error instanceof HttpResponseError && error.response.code === 401) return notInstalled(error);
  if (error instanceof DOMException && error.name === "TimeoutError") {
    return new ServiceError("PLATFORM_UPSTREAM_ERROR", "The commerce platform did not answer in time; retry shortly", {
      cause: error,
    });
  }
  if (
    error instanceof GraphqlQueryError ||
    error instanceof HttpResponseError ||
    error instanceof HttpRequestError ||
    error instanceof SyntaxError ||
    error instanceof TypeError
  ) {
    // fetch rejects with TypeError when the platform cannot be reached; SyntaxError is a body that is not JSON.
    return new ServiceError("PLATFORM_UPSTREAM_ERROR", "The commerce platform failed to answer; retry shortly", {
      cause: error,
    });
  }
  return asServiceError(error);
}
