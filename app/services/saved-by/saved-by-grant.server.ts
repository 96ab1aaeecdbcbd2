import { errorFields, writeLog } from "~/lib/json-log";
import type { Session } from "@shopify/shopify-api";
import { clock } from "~/lib/clock";
import { registerProcessCache } from "~/lib/process-caches.server";
import { offlineAdminClient, runAdminGraphql, type AdminGraphqlClient } from "~/platform/admin-graphql.server";
import { loadOfflineSession, recordGrantedScopes } from "~/platform/offline-sessions.server";

/**
 * Whether the merchant turned "Saved by N shoppers" on (decision 0010): metafieldsSet "requires the
 * same access level needed to mutate the owner resource" (shopify.dev, metafieldsSet reference), so
 * writing `$app:saved_by` on products needs write_products. The app asks for it as an optional
 * scope (shopify.app.toml), which the merchant grants from the Setup page; until then the count
 * writes nothing and costs no platform request.
 */
export const SAVED_BY_SCOPE = "write_products";

/**
 * A shop whose session lacks the scope is asked (currentAppInstallation.accessScopes) at most this
 * often: the grant normally arrives at once (app/scopes_update, or the Setup page re-reading it),
 * so this only catches a lost webhook, at one request per shop per 10 minutes.
 */
export const GRANT_RECHECK_MS = 10 * 60_000;
const MAX_REMEMBERED_SHOPS = 10_000;

/** When each shop's grant was last asked of the platform (or refused by it), in clock ms. */
const askedAtMs = new Map<string, number>();
registerProcessCache(() => askedAtMs.clear());

function rememberAsked(shop: string): void {
  askedAtMs.delete(shop);
  if (askedAtMs.size >= MAX_REMEMBERED_SHOPS) askedAtMs.delete(askedAtMs.keys().next().value!);
  askedAtMs.set(shop, clock.now().getTime());
}

const scopesOf = (session: Session | undefined) => (session?.scope ?? "").split(",").filter(Boolean);

const ACCESS_SCOPES = `#graphql
  query SavedItemsAccessScopes {
    currentAppInstallation {
      accessScopes {
        handle
      }
    }
  }`;

/** Reads the scopes the shop has granted from the platform and stores them on the offline session. */
export async function refreshGrantedScopes(shop: string, admin: AdminGraphqlClient): Promise<string[]> {
  const data = await runAdminGraphql(admin, ACCESS_SCOPES, {});
  const scopes = data.currentAppInstallation.accessScopes.map(({ handle }) => handle);
  rememberAsked(shop);
  await recordGrantedScopes(shop, scopes);
  return scopes;
}

/**
 * Whether the shop granted the count's scope: the offline session's scope (cached per process and
 * kept current by app/scopes_update), else the platform's answer, asked at most every GRANT_RECHECK_MS.
 */
export async function savedByGranted(shop: string): Promise<boolean> {
  const session = await loadOfflineSession(shop);
  if (!session) return false;
  if (scopesOf(session).includes(SAVED_BY_SCOPE)) return true;
  if (clock.now().getTime() - (askedAtMs.get(shop) ?? Number.NEGATIVE_INFINITY) < GRANT_RECHECK_MS) return false;
  try {
    return (await refreshGrantedScopes(shop, offlineAdminClient(shop))).includes(SAVED_BY_SCOPE);
  } catch (error) {
    rememberAsked(shop);
    writeLog("warn", `[saved-by] could not read the scopes ${shop} granted; asked again later`, {
      error: errorFields(error),
    });
    return false;
  }
}

/**
 * The platform refused a write for the missing scope (the merchant revoked it and its webhook has
 * not arrived): the session forgets the scope, so flushes stop at once instead of recounting every
 * sweep, until the merchant grants it again.
 */
export async function recordSavedByRefused(shop: string): Promise<void> {
  const session = await loadOfflineSession(shop);
  rememberAsked(shop);
  if (session)
    await recordGrantedScopes(
      shop,
      scopesOf(session).filter((scope) => scope !== SAVED_BY_SCOPE),
    );
}

/** What the Setup page's "Saved by N shoppers" card shows: the scope to ask for, and whether it is granted. */
export async function savedByStatus(shop: string): Promise<{ scope: string; granted: boolean }> {
  return { scope: SAVED_BY_SCOPE, granted: await savedByGranted(shop) };
}

/** The card's post after the merchant's answer: the grant as the platform has it now. */
export async function savedByScopeAction(
  shop: string,
  admin: AdminGraphqlClient,
): Promise<{ scope: string; granted: boolean }> {
  return { scope: SAVED_BY_SCOPE, granted: (await refreshGrantedScopes(shop, admin)).includes(SAVED_BY_SCOPE) };
}
