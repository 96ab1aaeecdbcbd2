import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { getEnv } from "~/config/env.server";
import { clock } from "~/lib/clock";
import { ServiceError } from "~/lib/errors";
import { assertShareLookupWithinRate } from "~/services/usage/rate-limits.server";
import type { Caller } from "~/services/caller";
import { readShareRecord, writeShareRecord } from "./list-store/list-records.server";
import { withListSession, type ListSession } from "./list-store/session.server";
import { assertListExists } from "./named-lists";
import { linkToRevoke, opensSharedList } from "./share-links";
import { sharedImage, sharedLink, sharedSnapshot } from "./shared-snapshot";
import { withCards } from "./product-cards.server";
import { parseStoredJson } from "~/services/records/fields";
import { listActiveItems } from "~/services/records/metaobject-store.server";
import { MAX_SHARED_LIST_LIMIT } from "./sharing-schemas";
import { searchSharedLists, type ShareList } from "~/services/records/save-list.server";
import { cachedSharedPage, readAndCacheSharedPage } from "./shared-page-cache.server";
import type {
  ShareCreateRequest,
  ShareLink,
  ShareRevokeRequest,
  ShareRevokeResult,
  SharedListQuery,
  SharedListResult,
} from "./sharing-schemas";

/**
 * Share links (docs/reach.md). A link carries a random token; the list's save_list metaobject
 * keeps only the token's sha256, so nothing an admin or a leaked export shows can open a list.
 * The shared page finds the list by searching that hash (admin_filterable), then trusts only the
 * node's current field value: search lags behind writes, so a just-revoked link can still be
 * found by it, but the node it returns shows the cleared hash and is refused at once.
 */

/** Where the storefront serves the shared page: the app proxy's default prefix and subpath (shopify.app.toml). */
export const SHARED_PAGE_PREFIX = "/apps/saved-items/shared";

/**
 * 16 random bytes, then 16 bytes of an HMAC of them keyed with the app's secret and naming the
 * shop: 43 characters as before. A token the app did not make for this shop is refused without
 * asking the platform; one made before tokens carried it (or under an earlier secret) is looked
 * up under the shop's lookup rate (SHARE_LOOKUP_RATE).
 */
export function newShareToken(shop: string): string {
  const nonce = randomBytes(16);
  return Buffer.concat([nonce, tokenMac(shop, nonce)]).toString("base64url");
}

function tokenMac(shop: string, nonce: Buffer): Buffer {
  return createHmac("sha256", getEnv().SHOPIFY_API_SECRET)
    .update(`share-token\n${shop}\n`)
    .update(nonce)
    .digest()
    .subarray(0, 16);
}

/** Whether the app made this token for this shop (it carries the shop's MAC). */
export function isSignedShareToken(shop: string, token: string): boolean {
  const bytes = Buffer.from(token, "base64url");
  if (bytes.length !== 32) return false;
  return timingSafeEqual(bytes.subarray(16), tokenMac(shop, bytes.subarray(0, 16)));
}

export function shareTokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/**
 * Runs a write of the caller's list's link in a session on the list (its lock, the one
 * delete-list and item writes hold), on the list read by handle under it: a delete cannot land
 * between the read and the write, so no link is ever written on a deleted list.
 */
function withOwnList<T>(
  caller: Caller,
  context: string,
  work: (list: ShareList | null, session: ListSession) => Promise<T>,
): Promise<T> {
  return withListSession(caller, [context], { directory: false }, async (session) =>
    work(await readShareRecord(session, context), session),
  );
}

/** A new link for one of the caller's lists; any earlier link of that list stops working. */
export async function createShareLink(caller: Caller, input: ShareCreateRequest): Promise<ShareLink> {
  const token = newShareToken(caller.shop);
  await withOwnList(caller, input.context, async (list, session) => {
    const share = { hash: shareTokenHash(token), name: input.displayName ?? null };
    // The list's earlier token, if it had one, stops opening it.
    await writeShareRecord(session, assertListExists(list, input.context), share);
  });
  const path = `${SHARED_PAGE_PREFIX}/${token}`;
  return { token, path, url: `https://${caller.shop}${path}`, displayName: input.displayName ?? null };
}

export async function revokeShareLink(caller: Caller, input: ShareRevokeRequest): Promise<ShareRevokeResult> {
  return withOwnList(caller, input.context, async (list, session) => {
    const shared = linkToRevoke(list, input.context);
    if (!shared) return { revoked: false };
    await writeShareRecord(session, shared, null);
    return { revoked: true };
  });
}

/**
 * The list a token opens in the caller's shop: the search by hash, then the returned node's
 * current hash must still be the token's, on a list not deleted. Unknown, revoked and other
 * shops' tokens, and those of deleted lists, are all NOT_FOUND, with nothing that tells them apart.
 */
async function findSharedList(caller: Caller, hash: string): Promise<ShareList> {
  const lists = await searchSharedLists(caller.admin, hash);
  const list = lists.find((found) => opensSharedList(found, hash));
  if (!list) throw new ServiceError("NOT_FOUND", "This shared list does not exist or is no longer shared");
  return list;
}

/**
 * The list a token opens in the caller's shop: from the shared-page cache while no revocation or
 * write of the list came since it was read; else, a token that is not the app's for this shop is
 * refused without asking the platform once the shop's lookup rate is spent, and the platform is
 * asked under the link's own allowance (SHARE_LOOKUP_RATE).
 */
export async function readSharedList(caller: Caller, input: SharedListQuery): Promise<SharedListResult> {
  const hash = shareTokenHash(input.token);
  const now = clock.now().getTime();
  const cached = await cachedSharedPage(caller.shop, hash, now);
  if (cached) return limited(cached, input.limit);
  await assertShareLookupWithinRate(caller.shop, isSignedShareToken(caller.shop, input.token) ? hash : undefined);
  let displayName: string | null = null;
  let listName: string | null = null;
  const page = await readAndCacheSharedPage(caller.shop, hash, now, {
    async findList() {
      const list = await findSharedList(caller, hash);
      displayName = list.shareName;
      listName = list.name;
      return list;
    },
    readPage: async (handle) =>
      sharedCards(
        caller,
        pageOf(
          caller.shop,
          displayName,
          listName,
          await listActiveItems(caller.admin, handle, MAX_SHARED_LIST_LIMIT, undefined),
        ),
      ),
  });
  return limited(page, input.limit);
}

function pageOf(
  shop: string,
  displayName: string | null,
  listName: string | null,
  page: Awaited<ReturnType<typeof listActiveItems>>,
): SharedListResult {
  return {
    displayName,
    listName,
    items: page.items.map((record) => {
      const stored = parseStoredJson(record.snapshot);
      // Whoever holds the link sees it, not the shopper who stored it: only links and images the shop or the platform serves.
      const snapshot =
        typeof stored === "object" && stored !== null && !Array.isArray(stored)
          ? sharedSnapshot(stored as Record<string, unknown>, shop)
          : stored;
      return {
        entityType: record.entityType,
        entityGid: record.entityGid,
        ...(record.savedAt ? { savedAt: record.savedAt } : {}),
        ...(snapshot === undefined ? {} : { snapshot }),
      };
    }),
    hasMore: page.hasNextPage,
  };
}

/**
 * The page with its items' cards, read with it and cached with it: an anonymous viewer's opens
 * cost the cards' one request per page read, like the page itself. Their links and images obey
 * the snapshot's rules, though the catalogue's already do.
 */
async function sharedCards(caller: Caller, page: SharedListResult): Promise<SharedListResult> {
  const items = await withCards(caller, page.items);
  return {
    ...page,
    items: items.map(({ product, ...item }) =>
      product
        ? {
            ...item,
            product: {
              ...product,
              url: sharedLink(product.url, caller.shop) ?? null,
              image: sharedImage(product.image, caller.shop) ?? null,
            },
          }
        : item,
    ),
  };
}

/** The cache keeps the longest page a caller may ask for; a shorter one is its start. */
function limited(page: SharedListResult, limit: number): SharedListResult {
  if (page.items.length <= limit) return page;
  return { ...page, items: page.items.slice(0, limit), hasMore: true };
}
