import { randomBytes } from "node:crypto";
import type { AdminCredentials } from "./types";

export const DEFAULT_ADMIN_TOKEN_LIFETIME_SECONDS = 3600;
// https://shopify.dev/docs/apps/build/authentication-authorization/access-tokens/offline-access-tokens
const REFRESH_TOKEN_LIFETIME_SECONDS = 90 * 24 * 60 * 60;

const newToken = (prefix: string) => `${prefix}_${randomBytes(16).toString("hex")}`;

/** One installation's offline Admin API tokens, on the emulator's clock. */
export interface AdminTokens {
  /** What was issued last: the credentials an app that stored every answer would hold. */
  readonly current: AdminCredentials | undefined;
  issue(options: { expiring: boolean; accessToken?: string; refreshToken?: string }): AdminCredentials;
  isValid(accessToken: string | null): boolean;
  /** The non-expiring token the installation has, which token exchange hands out again. */
  nonExpiring(): AdminCredentials | undefined;
  /**
   * Rotates: a new access and refresh token, and the refresh token used is spent at once.
   * Undefined for an unknown, spent or expired refresh token.
   */
  refresh(refreshToken: string): AdminCredentials | undefined;
  /** Trades a valid non-expiring token for an expiring pair and revokes it; undefined otherwise. */
  migrate(nonExpiringToken: string): AdminCredentials | undefined;
  /** Every access token stops working now; refresh tokens still work. */
  expireAll(): void;
  /** Every token stops working, as on uninstall. */
  revokeAll(): void;
}

export function createAdminTokens(deps: {
  now: () => Date;
  lifetimeSeconds: number;
  scope: () => string;
}): AdminTokens {
  const access = new Map<string, { expiresAtMs: number | undefined }>();
  const refresh = new Map<string, { expiresAtMs: number }>();
  let current: AdminCredentials | undefined;
  const nowMs = () => deps.now().getTime();
  const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());

  // Expired tokens can never work again, so they go; this keeps a long-running sandbox bounded.
  function forgetExpired(): void {
    const now = nowMs();
    for (const [token, grant] of access)
      if (grant.expiresAtMs !== undefined && grant.expiresAtMs <= now) access.delete(token);
    for (const [token, grant] of refresh) if (grant.expiresAtMs <= now) refresh.delete(token);
  }

  function issue(options: { expiring: boolean; accessToken?: string; refreshToken?: string }): AdminCredentials {
    forgetExpired();
    const now = nowMs();
    const accessToken = options.accessToken ?? newToken("shpat");
    const expiresAtMs = options.expiring ? now + deps.lifetimeSeconds * 1000 : undefined;
    access.set(accessToken, { expiresAtMs });
    let refreshToken: string | null = null;
    let refreshExpiresAtMs: number | undefined;
    if (options.expiring) {
      refreshToken = options.refreshToken ?? newToken("shprt");
      refreshExpiresAtMs = now + REFRESH_TOKEN_LIFETIME_SECONDS * 1000;
      refresh.set(refreshToken, { expiresAtMs: refreshExpiresAtMs });
    }
    current = {
      accessToken,
      expiresAt: iso(expiresAtMs),
      refreshToken,
      refreshTokenExpiresAt: iso(refreshExpiresAtMs),
      scope: deps.scope(),
    };
    return current;
  }

  function isValid(accessToken: string | null): boolean {
    const grant = accessToken === null ? undefined : access.get(accessToken);
    return grant !== undefined && (grant.expiresAtMs === undefined || nowMs() < grant.expiresAtMs);
  }

  return {
    // A grant or revocation of optional scopes changes what the installation's tokens may do, not the tokens.
    get current() {
      return current && { ...current, scope: deps.scope() };
    },
    issue,
    isValid,
    nonExpiring() {
      for (const [accessToken, grant] of access) {
        if (grant.expiresAtMs === undefined) {
          return { accessToken, expiresAt: null, refreshToken: null, refreshTokenExpiresAt: null, scope: deps.scope() };
        }
      }
      return undefined;
    },
    refresh(refreshToken) {
      const grant = refresh.get(refreshToken);
      if (!grant || grant.expiresAtMs <= nowMs()) return undefined;
      refresh.delete(refreshToken);
      return issue({ expiring: true });
    },
    migrate(nonExpiringToken) {
      const grant = access.get(nonExpiringToken);
      if (!grant || grant.expiresAtMs !== undefined) return undefined;
      access.delete(nonExpiringToken);
      return issue({ expiring: true });
    },
    expireAll() {
      access.clear();
      if (current) current = { ...current, expiresAt: iso(nowMs()) };
    },
    revokeAll() {
      access.clear();
      refresh.clear();
      current = undefined;
    },
  };
}
