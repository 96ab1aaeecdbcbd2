import { BAD_RESPONSE, SavedItemsError } from "./errors.js";
import type { components } from "./generated/openapi.js";

/** A cached token is used until this long before it expires, so none expires in flight. */
export const TOKEN_REFRESH_MARGIN_MS = 30_000;

export interface TokenSourceOptions {
  /** One exchange at the channel's auth/exchange route; resolves to `data` of its envelope. */
  exchange: () => Promise<unknown>;
  /** Milliseconds since the epoch. */
  now: () => number;
  refreshMarginMs?: number;
}

export interface TokenSource {
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
 * Caches the service token until `refreshMarginMs` before it expires and exchanges again after
 * that, so a call never starts with a token about to die. Concurrent callers share one exchange in
 * flight. An exchange is tried once here; retries are the caller's (one retry loop, not two nested).
 */
export function createTokenSource(options: TokenSourceOptions): TokenSource {
  const margin = options.refreshMarginMs ?? TOKEN_REFRESH_MARGIN_MS;
  let cached: CachedToken | null = null;
  let inFlight: Promise<CachedToken> | null = null;

  async function exchange(): Promise<CachedToken> {
    const startedAt = options.now();
    const grant = parseGrant(await options.exchange());
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

type Grant = Pick<components["schemas"]["DirectAccessGrant"], "authorization" | "expiresInSeconds" | "expiresAt">;

function parseGrant(data: unknown): Grant {
  const grant = data as Partial<Grant> | null;
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
