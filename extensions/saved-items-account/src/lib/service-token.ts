import { BAD_RESPONSE, SavedItemsError } from "../../../shared/errors";
import { requestEnvelope, type FetchLike } from "../../../shared/envelope";
import type { DirectAccessGrant } from "../../../shared/wire";

/** A cached token is used until this long before it expires, so none expires in flight. */
export const TOKEN_REFRESH_MARGIN_MS = 30_000;

export const EXCHANGE_PATH = "/api/customer-account/auth/exchange";

export interface ServiceTokenSourceOptions {
  appUrl: string;
  /** The platform's session token (shopify.sessionToken.get(), which caches and refreshes it). */
  getSessionToken: () => Promise<string>;
  fetch: FetchLike;
  /** Milliseconds since the epoch. */
  now: () => number;
  refreshMarginMs?: number;
}

export interface ServiceTokenSource {
  /** The Authorization header value for operation calls: cached, or from one shared exchange. */
  authorization(): Promise<string>;
  /** Drops the cached token if it is still this one (another caller may have replaced it already). */
  invalidate(authorization: string): void;
}

interface CachedToken {
  authorization: string;
  /** Local clock time after which the token is not handed out any more. */
  useUntil: number;
}

/**
 * Exchanges the extension's session token for the service token and caches it until
 * TOKEN_REFRESH_MARGIN_MS before it expires. Concurrent callers share one exchange in flight.
 * An exchange is tried once here; retries are the caller's (one retry loop, not two nested).
 */
export function createServiceTokenSource(options: ServiceTokenSourceOptions): ServiceTokenSource {
  const margin = options.refreshMarginMs ?? TOKEN_REFRESH_MARGIN_MS;
  let cached: CachedToken | null = null;
  let inFlight: Promise<CachedToken> | null = null;

  async function exchange(): Promise<CachedToken> {
    const sessionToken = await options.getSessionToken();
    const startedAt = options.now();
    const data = await requestEnvelope(options.fetch, `${options.appUrl}${EXCHANGE_PATH}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${sessionToken}` },
    });
    const grant = parseGrant(data);
    // expiresAt is the server's clock; expiresInSeconds counted from before the request is ours.
    // The earlier of the two holds whichever way the clocks disagree.
    const byLifetime = startedAt + grant.expiresInSeconds * 1000;
    const byTimestamp = Date.parse(grant.expiresAt);
    const expiresAt = Number.isFinite(byTimestamp) ? Math.min(byLifetime, byTimestamp) : byLifetime;
    return { authorization: grant.authorization, useUntil: expiresAt - margin };
  }

  return {
    async authorization() {
      if (cached && options.now() < cached.useUntil) return cached.authorization;
      if (!inFlight) {
        inFlight = exchange().then(
          (token) => {
            cached = token;
            inFlight = null;
            return token;
          },
          (error: unknown) => {
            inFlight = null;
            throw error;
          },
        );
      }
      return (await inFlight).authorization;
    },
    invalidate(authorization) {
      if (cached?.authorization === authorization) cached = null;
    },
  };
}

function parseGrant(data: unknown): DirectAccessGrant {
  const grant = data as Partial<DirectAccessGrant> | null;
  if (
    !grant ||
    typeof grant.authorization !== "string" ||
    !grant.authorization.startsWith("Bearer ") ||
    typeof grant.expiresInSeconds !== "number" ||
    !(grant.expiresInSeconds > 0)
  ) {
    throw new SavedItemsError(BAD_RESPONSE, "The exchange answered without a usable service token", 200, false);
  }
  return {
    authorization: grant.authorization,
    expiresInSeconds: grant.expiresInSeconds,
    expiresAt: String(grant.expiresAt),
  };
}
