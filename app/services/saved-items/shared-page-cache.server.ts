import { createHash } from "node:crypto";
import { getCoordinator } from "~/infrastructure/coordination/shared-coordinator.server";
import { CoordinatorUnavailableError } from "~/infrastructure/coordination/coordinator.server";
import { registerProcessCache } from "~/lib/process-caches.server";
import type { SharedListResult } from "./sharing-schemas";

/**
 * The shared page's answers, per shop and token, kept a short while so that a link opened again and
 * again (by its audience or by one outsider) costs the platform one read per PAGE_TTL_MS, not one
 * per open (docs/reach.md, "Share a list by link"). A cached page is served only while two versions
 * every instance reads from the coordinator are what they were when it was read:
 *
 * - the shop's share version, bumped by whatever makes a token stop opening its list (revoke, a new
 *   link, a deleted list), read BEFORE the token is looked up, so a revocation after the lookup
 *   cannot be cached past it;
 * - the list's items version (one of ITEM_BUCKETS per shop, by the list's handle, so the
 *   coordinator keeps a bounded number of keys), bumped after each write of the list's items or
 *   name, read before the items are, so the page is never older than a read made after the write.
 */
export const PAGE_TTL_MS = 30_000;
const ITEM_BUCKETS = 256;

/** Pages beyond this many are dropped oldest first; one costs a few kilobytes at most (100 items). */
const MAX_PAGES = 2_000;

const pages = new Map<string, CachedPage>();
registerProcessCache(() => pages.clear());
// Opens of one token that find no page wait on one read, not one each.
const filling = new Map<string, Promise<PageRecord>>();

/** A page as read, with the versions read before it (undefined where the coordinator could not say). */
interface PageRecord {
  listHandle: string;
  shareVersion: number | undefined;
  itemsVersion: number | undefined;
  result: SharedListResult;
}

interface CachedPage extends PageRecord {
  shareVersion: number;
  itemsVersion: number;
  expiresAt: number;
}

const shareVersionKey = (shop: string) => `shared-links:${shop}`;
const itemsVersionKey = (shop: string, listHandle: string) =>
  `shared-items:${shop}:${Number.parseInt(createHash("sha256").update(listHandle).digest("hex").slice(0, 4), 16) % ITEM_BUCKETS}`;

/** What a read of the platform for a page must do, in this order, so the versions it records hold. */
export interface PageRead {
  /** The list the token opens (NOT_FOUND when none), looked up after the share version was read. */
  findList(): Promise<{ handle: string }>;
  /** Its page, read after the items version was. */
  readPage(listHandle: string): Promise<SharedListResult>;
}

/**
 * The cached page of a token, or undefined when there is none whose versions still hold. A
 * coordinator that cannot say counts as a change: the page is read again.
 */
export async function cachedSharedPage(
  shop: string,
  tokenHash: string,
  now: number,
): Promise<SharedListResult | undefined> {
  const key = `${shop}\n${tokenHash}`;
  const page = pages.get(key);
  if (!page || page.expiresAt <= now) return undefined;
  return (await versionsHold(shop, page)) ? page.result : undefined;
}

/** Whether no revocation and no write of the page's list came since its versions were read. */
async function versionsHold(shop: string, page: PageRecord): Promise<boolean> {
  if (page.shareVersion === undefined || page.itemsVersion === undefined) return false;
  const versions = await readVersions([shareVersionKey(shop), itemsVersionKey(shop, page.listHandle)]);
  return versions !== undefined && versions[0] === page.shareVersion && versions[1] === page.itemsVersion;
}

/**
 * Reads a token's page from the platform (one read per token in flight in this process) and caches
 * it. An open that joins a read begun before it takes that read's page only while its versions
 * still hold: a read begun before a revocation must not answer an open that came after it.
 */
export async function readAndCacheSharedPage(
  shop: string,
  tokenHash: string,
  now: number,
  read: PageRead,
): Promise<SharedListResult> {
  const key = `${shop}\n${tokenHash}`;
  const pending = filling.get(key);
  if (pending) {
    const joined = await pending;
    if (await versionsHold(shop, joined)) return joined.result;
  }
  const own = fill(key, shop, now, read).finally(() => {
    if (filling.get(key) === own) filling.delete(key);
  });
  filling.set(key, own);
  return (await own).result;
}

async function fill(key: string, shop: string, now: number, read: PageRead): Promise<PageRecord> {
  const [shareVersion] = (await readVersions([shareVersionKey(shop)])) ?? [];
  const list = await read.findList();
  const [itemsVersion] = (await readVersions([itemsVersionKey(shop, list.handle)])) ?? [];
  const result = await read.readPage(list.handle);
  if (shareVersion !== undefined && itemsVersion !== undefined) {
    pages.delete(key);
    if (pages.size >= MAX_PAGES) pages.delete(pages.keys().next().value!);
    pages.set(key, { listHandle: list.handle, shareVersion, itemsVersion, result, expiresAt: now + PAGE_TTL_MS });
  }
  return { listHandle: list.handle, shareVersion, itemsVersion, result };
}

async function readVersions(keys: string[]): Promise<number[] | undefined> {
  try {
    return await getCoordinator().readVersions(keys);
  } catch (error) {
    if (error instanceof CoordinatorUnavailableError) return undefined;
    throw error;
  }
}

/** After a token stopped opening a list of the shop (revoked, replaced, the list deleted). */
export async function sharedLinksChanged(shop: string): Promise<void> {
  await getCoordinator().bumpVersion(shareVersionKey(shop));
}

/** After writes of these lists' items (or name, which the page shows). */
export async function sharedItemsChanged(shop: string, listHandles: readonly string[]): Promise<void> {
  const keys = new Set(listHandles.map((handle) => itemsVersionKey(shop, handle)));
  await Promise.all([...keys].map((key) => getCoordinator().bumpVersion(key)));
}
