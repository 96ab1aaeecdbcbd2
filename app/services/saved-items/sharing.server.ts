import { createHash, randomBytes } from "node:crypto";
import { ServiceError } from "~/lib/errors";
import type { Caller } from "./caller";
import { listHandle } from "./handles.server";
import { sharedSnapshot } from "./shared-snapshot";
import { fieldValue, parseStoredJson, SAVE_LIST_FIELDS } from "~/services/records/fields";
import { listActiveItems } from "~/services/records/metaobject-store.server";
import {
  readShareList,
  searchSharedLists,
  writeShareFields,
  type ShareListNode,
} from "~/services/records/save-list.server";
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

export function newShareToken(): string {
  return randomBytes(32).toString("base64url");
}

export function shareTokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** The caller's own list for a context (its handle is derived from the caller), or NOT_FOUND. */
async function requireOwnList(caller: Caller, context: string): Promise<ShareListNode> {
  const list = await readShareList(caller.admin, listHandle(caller.customerGid, context));
  if (!list) throw new ServiceError("NOT_FOUND", `You have no list named ${context}`);
  return list;
}

/** A new link for one of the caller's lists; any earlier link of that list stops working. */
export async function createShareLink(caller: Caller, input: ShareCreateRequest): Promise<ShareLink> {
  const list = await requireOwnList(caller, input.context);
  const token = newShareToken();
  await writeShareFields(caller.admin, list.id, shareTokenHash(token), input.displayName ?? "");
  const path = `${SHARED_PAGE_PREFIX}/${token}`;
  return { token, path, url: `https://${caller.shop}${path}`, displayName: input.displayName ?? null };
}

export async function revokeShareLink(caller: Caller, input: ShareRevokeRequest): Promise<ShareRevokeResult> {
  const list = await requireOwnList(caller, input.context);
  if (!fieldValue(list.fields, SAVE_LIST_FIELDS.shareTokenHash)) return { revoked: false };
  await writeShareFields(caller.admin, list.id, "", "");
  return { revoked: true };
}

/** The list a token opens in the caller's shop, as found by sharedListExists for this caller. */
const foundLists = new WeakMap<Caller, { hash: string; list: ShareListNode }>();

/**
 * The list a token opens in the caller's shop: the search by hash, then the returned node's
 * current hash must still be the token's.
 */
async function findSharedList(caller: Caller, hash: string): Promise<ShareListNode | undefined> {
  const found = foundLists.get(caller);
  if (found?.hash === hash) return found.list;
  const lists = await searchSharedLists(caller.admin, hash);
  return lists.find((node) => fieldValue(node.fields, SAVE_LIST_FIELDS.shareTokenHash) === hash);
}

/**
 * Whether a token opens a list in the caller's shop, asked before the dispatcher charges anything:
 * the shared page answers an unknown or revoked token without touching the shop's budget or the
 * rate its logged-out viewers share. What it found is kept for this caller (one request), so
 * readSharedList does not search again.
 */
export async function sharedListExists(caller: Caller, token: string): Promise<boolean> {
  const hash = shareTokenHash(token);
  const list = await findSharedList(caller, hash);
  if (list) foundLists.set(caller, { hash, list });
  return list !== undefined;
}

/**
 * The list a token opens in the caller's shop. Unknown, revoked and other shops' tokens are all
 * NOT_FOUND, with nothing that tells them apart.
 */
export async function readSharedList(caller: Caller, input: SharedListQuery): Promise<SharedListResult> {
  const list = await findSharedList(caller, shareTokenHash(input.token));
  if (!list) throw new ServiceError("NOT_FOUND", "This shared list does not exist or is no longer shared");
  const page = await listActiveItems(caller.admin, list.handle, input.limit, undefined);
  return {
    displayName: fieldValue(list.fields, SAVE_LIST_FIELDS.shareName),
    items: page.items.map((record) => {
      const stored = parseStoredJson(record.snapshot);
      // Whoever holds the link sees it, not the shopper who stored it: only links and images the shop or the platform serves.
      const snapshot =
        typeof stored === "object" && stored !== null && !Array.isArray(stored)
          ? sharedSnapshot(stored as Record<string, unknown>, caller.shop)
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
