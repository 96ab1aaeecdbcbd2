import { assertListExists, type ListStatus } from "./named-lists";

/**
 * Share links' decisions, as pure functions (docs/reach.md): what a list's current record allows.
 * The I/O around them (sharing.server.ts) holds the list's lock and reads by handle under it.
 * share-create and share-revoke act, as rename-list and delete-list do, on a list that exists and
 * is not deleted, or answer NOT_FOUND (assertListExists): a deleted list has no link to make or
 * revoke, delete-list cleared it.
 */

/** A save_list as these decisions need it: its status and the sha256 of its token (null: not shared). */
export interface ShareableList extends ListStatus {
  shareTokenHash: string | null;
}

/** share-revoke: the list when it has a link to clear, null when it has none (NOT_FOUND when there is no list). */
export function linkToRevoke<T extends ShareableList>(list: T | null, context: string): T | null {
  const current = assertListExists(list, context);
  return current.shareTokenHash === null ? null : current;
}

/** Whether a token (by its hash) opens this list: it is the list's current one and the list is not deleted. */
export function opensSharedList(list: ShareableList, tokenHash: string): boolean {
  return !list.deleted && list.shareTokenHash === tokenHash;
}
