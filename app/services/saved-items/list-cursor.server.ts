import { ServiceError } from "~/lib/errors";

/**
 * The client's cursor wraps the platform's cursor together with the list it belongs to, so a
 * cursor from one list (or a forged one) is refused instead of paging through another query.
 */
export function encodeListCursor(listKey: string, platformCursor: string): string {
  return Buffer.from(`${listKey}:${platformCursor}`, "utf8").toString("base64url");
}

export function decodeListCursor(cursor: string, listKey: string): string {
  const decoded = Buffer.from(cursor, "base64url").toString("utf8");
  const prefix = `${listKey}:`;
  if (!decoded.startsWith(prefix) || decoded.length === prefix.length) {
    throw new ServiceError("VALIDATION_ERROR", "cursor: not a cursor of this list");
  }
  return decoded.slice(prefix.length);
}
