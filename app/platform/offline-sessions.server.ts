import { writeLog } from "~/lib/json-log";
import { HttpResponseError, Session, type SessionParams } from "@shopify/shopify-api";
import { PrismaSessionStorage } from "@shopify/shopify-app-session-storage-prisma";
import prisma from "~/db.server";
import { loadOrFallback, staleEntry } from "~/infrastructure/database/availability.server";
import { LockUnavailableError } from "~/infrastructure/coordination/coordinator.server";
import { getCoordinator } from "~/infrastructure/coordination/shared-coordinator.server";
import { bumpShopVersion, readShopVersion } from "~/infrastructure/coordination/shop-version.server";
import { ServiceError } from "~/lib/errors";
import { registerProcessCache } from "~/lib/process-caches.server";
import { platformApi } from "./shopify-api.server";

/**
 * Renew an offline token this long before it expires. The platform library renews within 5 minutes
 * of expiry on its own paths (webhooks, admin); renewing earlier here means it never has to, so
 * every renewal goes through the single-flight below.
 */
export const RENEWAL_MARGIN_MS = 10 * 60_000;
/** A backstop for what the shop version does not cover; changes are seen at once through it. */
const CACHE_TTL_MS = 60_000;
// Token lifetimes are the platform's and the library stamps them with the real time, so every
// expiry here is judged by Date.now(), not by the service's calendar `clock`.
const MAX_CACHED_SHOPS = 10_000;
/** After a failed renewal of a token that still works, it is used this long before the next try. */
const RENEWAL_RETRY_MS = 30_000;
/** After a refused migration to an expiring token, the old token is used this long before the next try. */
const MIGRATION_RETRY_MS = 10 * 60_000;

const storage = new PrismaSessionStorage(prisma);

interface CachedSession {
  session: Session | undefined;
  version: number;
  loadedAtMs: number;
}

const cache = new Map<string, CachedSession>();
const renewals = new Map<string, Promise<Session | undefined>>();
const renewalRetryAtMs = new Map<string, number>();
registerProcessCache(() => {
  cache.clear();
  renewalRetryAtMs.clear();
});

export const offlineSessionId = (shop: string) => `offline_${shop}`;

/**
 * The shop's offline session with a token that is good for a while yet, or undefined when the app
 * has no access to the shop (never installed, uninstalled, or a renewal the platform refused).
 * Cached per process and checked against the shop version, so a change made by any instance is
 * seen at once; while the database is away, the session loaded before is used up to
 * OUTAGE_STALENESS_MS old if the version is unchanged (decision 0027). A transient platform failure while renewing a token that has already expired is
 * PLATFORM_UPSTREAM_ERROR (retryable); while the old token still works, the old token is used.
 */
export async function loadOfflineSession(shop: string): Promise<Session | undefined> {
  const version = await readShopVersion(shop);
  const nowMs = Date.now();
  let entry = cache.get(shop);
  if (!entry || entry.version !== version || nowMs - entry.loadedAtMs > CACHE_TTL_MS) {
    entry = await loadOrFallback(
      async () => {
        const loaded = { session: await storage.loadSession(offlineSessionId(shop)), version, loadedAtMs: nowMs };
        remember(shop, loaded);
        return loaded;
      },
      // The database away: the session loaded before, while no change was recorded since (decision 0027).
      staleEntry(entry, version, (stale) => stale),
    );
  }
  const { session } = entry;
  if (!session || !needsRenewal(session, nowMs)) return session;
  return renewOnce(shop);
}

/** The session, or SHOP_NOT_INSTALLED. */
export async function requireOfflineSession(shop: string): Promise<Session> {
  const session = await loadOfflineSession(shop);
  if (!session) throw new ServiceError("SHOP_NOT_INSTALLED", "The app is not installed on this shop");
  return session;
}

/** Drops every instance's cached session of the shop (after a store or delete). */
export async function forgetOfflineSession(shop: string): Promise<void> {
  cache.delete(shop);
  await bumpShopVersion(shop);
}

/**
 * app/scopes_update: the scopes the merchant granted, on the stored offline session, seen by every
 * instance's next request. Only the scope column is written: a whole-session write could put back a
 * token another instance has just renewed, and a refresh token works once.
 */
export async function recordGrantedScopes(shop: string, scopes: string[]): Promise<void> {
  await prisma.session.updateMany({ where: { id: offlineSessionId(shop) }, data: { scope: scopes.toString() } });
  await forgetOfflineSession(shop);
}

/**
 * The session storage the platform library uses: the same table, with offline sessions read
 * through loadOfflineSession so the library only ever sees renewed tokens, and every write or
 * delete seen by all instances at once. A shop whose renewal was refused loads as no session,
 * which makes the embedded admin fetch a new token by token exchange.
 */
export const sessionStorage = {
  async storeSession(session: Session): Promise<boolean> {
    await storage.storeSession(session);
    if (!session.isOnline) await forgetOfflineSession(session.shop);
    return true;
  },
  async loadSession(id: string): Promise<Session | undefined> {
    const shop = shopOfOfflineId(id);
    return shop ? loadOfflineSession(shop) : storage.loadSession(id);
  },
  async deleteSession(id: string): Promise<boolean> {
    const session = await storage.loadSession(id);
    await storage.deleteSession(id);
    if (session && !session.isOnline) await forgetOfflineSession(session.shop);
    return true;
  },
  async deleteSessions(ids: string[]): Promise<boolean> {
    for (const id of ids) await sessionStorage.deleteSession(id);
    return true;
  },
  findSessionsByShop(shop: string): Promise<Session[]> {
    return storage.findSessionsByShop(shop);
  },
};

function shopOfOfflineId(id: string): string | undefined {
  return id.startsWith("offline_") ? id.slice("offline_".length) : undefined;
}

function remember(shop: string, entry: CachedSession): void {
  cache.delete(shop);
  if (cache.size >= MAX_CACHED_SHOPS) cache.delete(cache.keys().next().value!);
  cache.set(shop, entry);
}

/**
 * Expiring tokens are renewed ahead of time, and a non-expiring one is migrated to an expiring
 * one; after a failed attempt, a token that still works is used a while before the next try.
 */
function needsRenewal(session: Session, nowMs: number): boolean {
  const expiresAtMs = session.expires?.getTime();
  if (expiresAtMs !== undefined && expiresAtMs <= nowMs) return true;
  if ((renewalRetryAtMs.get(session.shop) ?? 0) > nowMs) return false;
  return expiresAtMs === undefined || expiresAtMs - nowMs < RENEWAL_MARGIN_MS;
}

function retryRenewalLater(shop: string, nowMs: number, delayMs: number): void {
  if (renewalRetryAtMs.size >= MAX_CACHED_SHOPS) renewalRetryAtMs.clear();
  renewalRetryAtMs.set(shop, nowMs + delayMs);
}

/**
 * One renewal per shop at a time: concurrent requests in this process share one promise, and the
 * shop's lock makes instances take turns. Whoever gets the lock re-reads the stored session first,
 * since another instance may have renewed it already: a refresh token works once, and a second
 * refresh with a rotated one would lock the shop out.
 */
function renewOnce(shop: string, rejectedToken?: string): Promise<Session | undefined> {
  let renewal = renewals.get(shop);
  if (!renewal) {
    renewal = renewUnderLock(shop, rejectedToken).finally(() => renewals.delete(shop));
    renewals.set(shop, renewal);
  }
  return renewal;
}

/**
 * The platform refused a token we still thought good (it expired early, or was rotated by the
 * platform): renewed at once, unless another request or instance already replaced it. Resolves to
 * the session to retry with, or undefined when access has lapsed.
 */
export function renewRejectedToken(shop: string, rejectedToken: string): Promise<Session | undefined> {
  return renewOnce(shop, rejectedToken);
}

async function renewUnderLock(shop: string, rejectedToken?: string): Promise<Session | undefined> {
  try {
    return await getCoordinator().withLocks([`offline-token:${shop}`], async (held) => {
      const current = await storage.loadSession(offlineSessionId(shop));
      const nowMs = Date.now();
      const stale = current && (rejectedToken ? current.accessToken === rejectedToken : needsRenewal(current, nowMs));
      if (!current || !stale) {
        remember(shop, { session: current, version: await readShopVersion(shop), loadedAtMs: nowMs });
        return current;
      }
      await held.assertHeld();
      const renewed = await renew(current, nowMs, Boolean(rejectedToken));
      if (renewed === current) return current;
      if (renewed) {
        await storage.storeSession(renewed);
        await forgetOfflineSession(shop);
      } else {
        // Kept in storage (the embedded admin replaces it by token exchange), but served as no access
        // for a while, so a lapsed shop does not send a doomed refresh with every request.
        remember(shop, { session: undefined, version: await readShopVersion(shop), loadedAtMs: nowMs });
      }
      return renewed;
    });
  } catch (error) {
    if (error instanceof LockUnavailableError) {
      throw new ServiceError("INTERNAL_ERROR", "The shop's access token is being renewed; retry shortly", {
        cause: error,
      });
    }
    throw error;
  }
}

/** The renewed session, the current one when it can still be used, or undefined when access has lapsed. */
async function renew(current: Session, nowMs: number, rejected: boolean): Promise<Session | undefined> {
  const stillValid = !rejected && (!current.expires || current.expires.getTime() > nowMs);
  try {
    if (current.refreshToken) {
      const { session } = await platformApi.auth.refreshToken({
        shop: current.shop,
        refreshToken: current.refreshToken,
      });
      return keepScope(session, current);
    }
    if (!current.expires) {
      const { session } = await platformApi.auth.migrateToExpiringToken({
        shop: current.shop,
        nonExpiringOfflineAccessToken: current.accessToken!,
      });
      return keepScope(session, current);
    }
    writeLog(
      "warn",
      `[offline-token] ${current.shop}: the token expired and there is no refresh token; the merchant must open the app`,
    );
    return undefined;
  } catch (error) {
    if (isRefusal(error)) {
      if (!current.refreshToken && stillValid) {
        // The old non-expiring token keeps working until the platform stops accepting it.
        retryRenewalLater(current.shop, nowMs, MIGRATION_RETRY_MS);
        writeLog(
          "warn",
          `[offline-token] ${current.shop}: migration to an expiring token refused; keeping the current token`,
        );
        return current;
      }
      writeLog(
        "warn",
        `[offline-token] ${current.shop}: the platform refused to renew the offline token; access has lapsed`,
      );
      return undefined;
    }
    if (stillValid) {
      retryRenewalLater(current.shop, nowMs, RENEWAL_RETRY_MS);
      writeLog(
        "warn",
        `[offline-token] ${current.shop}: renewal failed (${String(error)}); the current token still works`,
      );
      return current;
    }
    throw new ServiceError("PLATFORM_UPSTREAM_ERROR", "The shop's access token could not be renewed; retry shortly", {
      cause: error,
    });
  }
}

/** A 4xx from the token endpoint: the grant is gone and trying again will not help. */
function isRefusal(error: unknown): boolean {
  return error instanceof HttpResponseError && error.response.code >= 400 && error.response.code < 500;
}

/** A refresh answer may omit the scope; the session keeps the one it had. */
function keepScope(session: Session, previous: Session): Session {
  if (session.scope || !previous.scope) return session;
  return new Session({ ...(session.toObject() as SessionParams), scope: previous.scope });
}
