import { getEnv } from "~/config/env.server";
import { clock } from "~/lib/clock";
import { ServiceError } from "~/lib/errors";
import { registerProcessCache } from "~/lib/process-caches.server";
import { APP_EVENTS_API_VERSION } from "./api-versions";
import { platformFetch } from "./platform-fetch.server";

/**
 * The App Events API ("App Events API reference", "Create an event"): the app's events, billing
 * events among them when their handle names a meter of its Shopify App Pricing configuration. It
 * takes a bearer token from the client-credentials grant with the app's own client ID and secret,
 * and needs no access scope.
 */
const TOKEN_URL = "https://api.shopify.com/auth/access_token";
const EVENTS_URL = `https://api.shopify.com/app/${APP_EVENTS_API_VERSION}/events`;

/** "Create an event": an idempotency key has at most 64 characters. */
export const APP_EVENT_KEY_MAX_LENGTH = 64;
/** "Create an event": a key seen again within this long answers the first response. */
export const APP_EVENT_IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

// Tokens last 60 minutes; the unstable reference gives expires_in, the 2027-01 one does not.
const TOKEN_LIFETIME_MS = 60 * 60 * 1000;
// A token is renewed this long before it expires, so none is sent as it runs out.
const TOKEN_RENEWAL_MARGIN_MS = 60 * 1000;
// The 2027-01 reference: without a User-Agent the platform's edge answers 403 before reading anything.
const USER_AGENT = "saved-items";

interface Token {
  value: string;
  expiresAtMs: number;
}

let token: Promise<Token> | undefined;
registerProcessCache(() => {
  token = undefined;
});

function upstream(message: string): ServiceError {
  return new ServiceError("PLATFORM_UPSTREAM_ERROR", message);
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  try {
    return await platformFetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "User-Agent": USER_AGENT, ...headers },
      body: JSON.stringify(body),
    });
  } catch (error) {
    throw new ServiceError("PLATFORM_UPSTREAM_ERROR", `${url} could not be reached`, { cause: error });
  }
}

async function requestToken(): Promise<Token> {
  const { SHOPIFY_API_KEY, SHOPIFY_API_SECRET } = getEnv();
  const requestedAt = clock.now().getTime();
  const response = await post(TOKEN_URL, {
    client_id: SHOPIFY_API_KEY,
    client_secret: SHOPIFY_API_SECRET,
    grant_type: "client_credentials",
  });
  const body = (await response.json().catch(() => null)) as { access_token?: unknown; expires_in?: unknown } | null;
  if (!response.ok || typeof body?.access_token !== "string") {
    throw upstream(`The App Events token endpoint answered HTTP ${response.status}`);
  }
  const lifetimeMs = typeof body.expires_in === "number" ? body.expires_in * 1000 : TOKEN_LIFETIME_MS;
  return { value: body.access_token, expiresAtMs: requestedAt + lifetimeMs - TOKEN_RENEWAL_MARGIN_MS };
}

function tokenRequest(): Promise<Token> {
  const request = requestToken();
  request.catch(() => {
    if (token === request) token = undefined;
  });
  return request;
}

/** One token per process, shared by concurrent senders and renewed before it expires. */
async function currentToken(): Promise<string> {
  const pending = token ?? (token = tokenRequest());
  const held = await pending;
  if (held.expiresAtMs > clock.now().getTime()) return held.value;
  if (token === pending) token = tokenRequest();
  return (await token!).value;
}

export interface BillingEvent {
  shopGid: string;
  /** A meter handle of the app's pricing configuration. */
  eventHandle: string;
  timestamp: Date;
  idempotencyKey: string;
  /** The quantity added to the meter. */
  value: number;
}

/**
 * Sends one billing event. Resolves once the platform has received it (202), which is all the API
 * says synchronously: billing's verdict shows only in the Dev Dashboard. Anything else rejects
 * with a retryable PLATFORM_UPSTREAM_ERROR, the event possibly received (a lost answer), so the
 * caller retries with the same key.
 */
export async function sendBillingEvent(event: BillingEvent): Promise<void> {
  if (event.idempotencyKey.length > APP_EVENT_KEY_MAX_LENGTH) {
    throw new Error(`An App Events idempotency key has at most ${APP_EVENT_KEY_MAX_LENGTH} characters`);
  }
  const body = {
    shop_id: event.shopGid,
    event_handle: event.eventHandle,
    timestamp: event.timestamp.toISOString(),
    idempotency_key: event.idempotencyKey,
    attributes: { value: event.value },
  };
  for (let attempt = 1; ; attempt++) {
    const response = await post(EVENTS_URL, body, { Authorization: `Bearer ${await currentToken()}` });
    if (response.status === 401 && attempt === 1) {
      // Revoked or expired early: one new token, one more try.
      token = undefined;
      await response.arrayBuffer().catch(() => undefined);
      continue;
    }
    if (response.ok) {
      await response.arrayBuffer().catch(() => undefined);
      return;
    }
    const answer = (await response.json().catch(() => null)) as { error?: unknown; errors?: unknown } | null;
    throw upstream(
      `The App Events API answered HTTP ${response.status} to a billing event: ${JSON.stringify(answer?.errors ?? answer?.error ?? null)}`,
    );
  }
}
