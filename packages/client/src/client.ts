import { requestEnvelope, type FetchLike } from "./envelope.js";
import { SavedItemsError } from "./errors.js";
import {
  exchangePath,
  operationNames,
  operationRoute,
  type Channel,
  type HeadlessCredentials,
  type OperationInput,
  type OperationName,
  type OperationOutput,
} from "./operations.js";
import { withListKey } from "./list-key.js";
import {
  browserRetryRuntime,
  DEFAULT_RETRY_POLICY,
  refusedBeforeRunning,
  withRetry,
  type MayRepeat,
  type RetryPolicy,
  type RetryRuntime,
} from "./retry.js";
import { createTokenSource } from "./token.js";

/** The service token has expired; the one 4xx the client recovers from (by exchanging again). */
export const TOKEN_EXPIRED = "TOKEN_EXPIRED";

export interface ClientOptions {
  /**
   * The app's origin (and path prefix, if any), without a trailing slash: https, or http on
   * localhost only (the client sends tokens to it).
   */
  baseUrl: string;
  fetch?: FetchLike;
  /** Milliseconds since the epoch; decides when the service token is exchanged again. */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** A number in [0, 1); the retries' jitter. */
  random?: () => number;
  retry?: RetryPolicy;
  /** How long before its expiry a service token stops being used (default 30 s). */
  refreshMarginMs?: number;
}

export interface HeadlessClientOptions extends ClientOptions {
  /**
   * The shop and the customer's platform token, asked for at each exchange: the caller may have
   * renewed the customer's token since the last one.
   */
  credentials: () => HeadlessCredentials | Promise<HeadlessCredentials>;
}

export interface CustomerAccountClientOptions extends ClientOptions {
  /** The extension's session token (shopify.sessionToken.get(), which caches and refreshes it). */
  getSessionToken: () => Promise<string>;
}

type Route = NonNullable<ReturnType<typeof operationRoute>>;

type CamelCase<Name extends string> = Name extends `${infer Head}-${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : Name;

type OperationMethods<C extends Channel> = {
  [Name in OperationName<C> as CamelCase<Name>]: (input: OperationInput<C, Name>) => Promise<OperationOutput<C, Name>>;
};

/**
 * Every operation of channel C, by its name (`call("is-saved", …)`) and as a method
 * (`isSaved(…)`). Resolves to `data` of the success envelope; rejects with a SavedItemsError.
 */
export type SavedItemsClient<C extends Channel> = OperationMethods<C> & {
  call<Name extends OperationName<C>>(name: Name, input: OperationInput<C, Name>): Promise<OperationOutput<C, Name>>;
};

/** For a headless storefront's backend (server to server: the headless routes send no CORS headers). */
export function createHeadlessClient(options: HeadlessClientOptions): SavedItemsClient<"headless"> {
  return createClient("headless", options, async (http, url) =>
    requestEnvelope(http, url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(await options.credentials()),
    }),
  );
}

/** For a customer-account UI extension. */
export function createCustomerAccountClient(
  options: CustomerAccountClientOptions,
): SavedItemsClient<"customer-account"> {
  return createClient("customer-account", options, async (http, url) =>
    requestEnvelope(http, url, {
      method: "POST",
      headers: { Authorization: `Bearer ${await options.getSessionToken()}` },
    }),
  );
}

/**
 * The service token from the channel's exchange (cached, shared, exchanged again before it
 * expires), one re-exchange and repeat when a call answers TOKEN_EXPIRED anyway (clock skew, a
 * suspended process), and the retry rules of retry.ts around the whole, exchange included.
 */
function createClient<C extends Channel>(
  channel: C,
  options: ClientOptions,
  exchange: (http: FetchLike, url: string) => Promise<unknown>,
): SavedItemsClient<C> {
  requireSecureBaseUrl(options.baseUrl);
  // The global `fetch`, not `globalThis.fetch`: the platform CLI's generated shopify.d.ts types an
  // extension module's globalThis as `{ shopify }` alone.
  const http: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  const runtime: RetryRuntime = {
    sleep: options.sleep ?? browserRetryRuntime.sleep,
    random: options.random ?? browserRetryRuntime.random,
  };
  const policy = options.retry ?? DEFAULT_RETRY_POLICY;
  const tokens = createTokenSource({
    exchange: () => exchange(http, options.baseUrl + exchangePath(channel)),
    now: options.now ?? (() => Date.now()),
    refreshMarginMs: options.refreshMarginMs,
  });

  function send(route: Route, authorization: string, input: unknown): Promise<unknown> {
    const url = new URL(options.baseUrl + route.path);
    if (route.method === "get") {
      for (const [key, value] of Object.entries(input ?? {})) {
        if (value !== undefined && value !== null) url.searchParams.set(key, String(value));
      }
      return requestEnvelope(http, url.toString(), { method: "GET", headers: { Authorization: authorization } });
    }
    return requestEnvelope(http, url.toString(), {
      method: "POST",
      headers: { Authorization: authorization, "Content-Type": "application/json" },
      body: JSON.stringify(input),
    });
  }

  async function call(name: string, input: unknown): Promise<unknown> {
    // Before any exchange: a name the document does not list is the caller's mistake, not the service's.
    const route = operationRoute(channel, name);
    if (!route) throw new TypeError(`${name} is no operation of the ${channel} channel`);
    const body = withListKey(name, input);
    let reExchanged = false;
    // Whether this attempt sent the operation: a failed exchange before it leaves nothing applied.
    let sent = false;
    const mayRepeat: MayRepeat = repeatsSafely(name, body)
      ? () => true
      : (error) => !sent || refusedBeforeRunning(error);
    return withRetry(
      async () => {
        sent = false;
        const authorization = await tokens.authorization();
        try {
          sent = true;
          return await send(route, authorization, body);
        } catch (error) {
          if (reExchanged || !(error instanceof SavedItemsError) || error.code !== TOKEN_EXPIRED) throw error;
          reExchanged = true;
          tokens.invalidate(authorization);
          const renewed = await tokens.authorization().catch((failure: unknown) => {
            sent = false;
            throw failure;
          });
          return await send(route, renewed, body);
        }
      },
      policy,
      runtime,
      mayRepeat,
    );
  }

  const methods = Object.fromEntries(
    operationNames(channel).map((name) => [
      name.replace(/-(.)/g, (_, letter: string) => letter.toUpperCase()),
      (input: unknown) => call(name, input),
    ]),
  );
  return { ...methods, call } as unknown as SavedItemsClient<C>;
}

/**
 * Whether an operation gives the same state however often it runs: save (a second is
 * DUPLICATE_SAVE), remove, the list operations and reads do; toggle does not, nor a batch holding
 * one (the service's catalogue, app/operations/operations.ts, says which toggles).
 */
function repeatsSafely(name: string, body: unknown): boolean {
  if (name === "toggle") return false;
  if (name !== "batch") return true;
  const operations = (body as { operations?: unknown } | null)?.operations;
  return (
    Array.isArray(operations) &&
    operations.every((operation) => (operation as { action?: unknown })?.action !== "toggle")
  );
}

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Tokens go to baseUrl: only over https, or plain http to this machine (development, tests). */
function requireSecureBaseUrl(baseUrl: string): void {
  let url: URL | undefined;
  try {
    url = new URL(baseUrl);
  } catch {
    // Not a URL at all: refused below.
  }
  const local = url !== undefined && (LOCAL_HOSTS.has(url.hostname) || url.hostname.endsWith(".localhost"));
  if (url?.protocol === "https:" || (url?.protocol === "http:" && local)) return;
  throw new TypeError(`baseUrl must be an https URL (plain http only on localhost): ${baseUrl}`);
}
