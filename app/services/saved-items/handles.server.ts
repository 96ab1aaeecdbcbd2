import { createHash } from "node:crypto";
import type { ItemIdentity } from "./schemas";

const digest = (parts: string[]) => createHash("sha256").update(parts.join("\n")).digest("hex");

/**
 * Handles are derived from the identity, so every operation addresses its list and item
 * directly by handle (strongly consistent) instead of searching (indexed, eventually consistent).
 * Handle charset is kept to lowercase hex and '-', which every platform version accepts.
 */
export function listHandle(customerGid: string, context: string): string {
  return `sl-${digest([customerGid, context]).slice(0, 40)}`;
}

/** The customer's list directory (save_list_directory): the lists create-list made. */
export function listDirectoryHandle(customerGid: string): string {
  return `sd-${digest([customerGid]).slice(0, 40)}`;
}

export function itemHandle(customerGid: string, item: ItemIdentity): string {
  return `si-${digest([customerGid, item.context, item.entityType, item.entityGid]).slice(0, 48)}`;
}

/** The identity key the spec names: context + entityType + entityGid. */
export function identityKey(item: ItemIdentity): string {
  return `${item.context}|${item.entityType}|${item.entityGid}`;
}
