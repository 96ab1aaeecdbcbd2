import { ServiceError } from "~/lib/errors";

/**
 * Where a page ends: a platform cursor (pages read from the platform's search) or the last item's
 * save time and id (pages served from the list's cached state).
 */
export type ListPosition = { kind: "platform"; cursor: string } | { kind: "state"; stampMs: number; id: string };

/**
 * The client's cursor wraps the position together with the list it belongs to, so a cursor from
 * one list (or a forged one) is refused instead of paging through another query.
 */
export function encodeListCursor(listKey: string, position: ListPosition): string {
  const payload = position.kind === "platform" ? `p:${position.cursor}` : `s:${position.stampMs}:${position.id}`;
  return Buffer.from(`${listKey}:${payload}`, "utf8").toString("base64url");
}

export function decodeListCursor(cursor: string, listKey: string): ListPosition {
  const decoded = Buffer.from(cursor, "base64url").toString("utf8");
  const prefix = `${listKey}:`;
  const payload = decoded.startsWith(prefix) ? decoded.slice(prefix.length) : "";
  if (payload.startsWith("p:") && payload.length > 2) return { kind: "platform", cursor: payload.slice(2) };
  const state = /^s:(\d{1,15}):(gid:\/\/shopify\/Metaobject\/\d+)$/.exec(payload);
  if (state) return { kind: "state", stampMs: Number(state[1]), id: state[2]! };
  throw new ServiceError("VALIDATION_ERROR", "cursor: not a cursor of this list");
}
