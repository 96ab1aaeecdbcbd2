// One recorded history: every operation a client invoked, with when it was invoked and answered on
// the client's monotonic clock (performance.now(), ms) and what the answer said, and how each
// answer constrains the state table of docs/api.md.

export const WRITE_KINDS = ["save", "remove", "toggle"] as const;
export type WriteKind = (typeof WRITE_KINDS)[number];
/** The operations on the list itself and its share link (the list's context is the wishlist). */
export const LIST_KINDS = ["create-list", "delete-list", "share-create", "share-revoke", "shared-list"] as const;
export type ListKind = (typeof LIST_KINDS)[number];
export type OperationKind = WriteKind | ListKind | "is-saved" | "list";

const READ_KINDS = new Set<OperationKind>(["is-saved", "list", "shared-list"]);
export const isReadKind = (kind: OperationKind): boolean => READ_KINDS.has(kind);
export const isListKind = (kind: OperationKind): kind is ListKind => (LIST_KINDS as readonly string[]).includes(kind);

export interface Operation {
  id: number;
  client: number;
  channel: string;
  /** The list the operation reads or writes: shop, customer and context (one customer's wishlist). */
  list: string;
  kind: OperationKind;
  /** The entity GID of a single-item operation; absent for list. */
  item?: string;
  invokedAt: number;
  /** Absent when no answer came (timeout, dropped connection). */
  completedAt?: number;
  /** 0 when no HTTP answer came. */
  status: number;
  /** The envelope's error code, or the transport error. */
  code?: string;
  /** A write's answered state. */
  state?: "active" | "removed";
  /** is-saved's answer. */
  saved?: boolean;
  /** list's answer: the entity GIDs listed. */
  listed?: string[];
  /** share-create's answered token; the token shared-list opened. */
  token?: string;
  /** share-revoke's answer. */
  revoked?: boolean;
}

/**
 * - known: the answer says what happened (a 200, or a 409/404 that says the state it found);
 * - unknown: a write that may have taken effect once, at any point after its invocation, or never;
 * - none: refused before it ran (rate, plan, auth, validation) or a read without an answer,
 *   which constrains nothing.
 */
export type Outcome = "known" | "unknown" | "none";

/** Refusals the service answers before it changes anything (docs/api.md, docs/rate-limits.md). */
const NO_EFFECT_CODES = new Set([
  "RATE_LIMITED",
  "PLAN_LIMIT_REACHED",
  "VALIDATION_ERROR",
  "INVALID_PROXY_SIGNATURE",
  "AUTH_REQUIRED",
  "CUSTOMER_REQUIRED",
  "INVALID_TOKEN",
  "TOKEN_EXPIRED",
  "SHOP_NOT_INSTALLED",
  "CHANNEL_NOT_ENTITLED",
  "CHANNEL_MISMATCH",
  "NOT_FOUND",
  "BATCH_CONFLICT",
]);

/**
 * The list operations' refusals that say what state they found: NOT_FOUND (no list, or a deleted
 * one) and create-list's LIST_EXISTS (a list not made by it). shared-list's NOT_FOUND says nothing:
 * a link just made may not be found yet (search lags writes).
 */
const STATE_REFUSALS: Partial<Record<OperationKind, string>> = {
  "create-list": "LIST_EXISTS",
  "delete-list": "NOT_FOUND",
  "share-create": "NOT_FOUND",
  "share-revoke": "NOT_FOUND",
};

export function outcomeOf(operation: Operation): Outcome {
  const write = !isReadKind(operation.kind);
  if (operation.status === 200) return "known";
  if (write && operation.status === 409 && operation.code === "DUPLICATE_SAVE") return "known";
  if (operation.kind === "remove" && operation.status === 404 && operation.code === "ITEM_NOT_FOUND") return "known";
  if (operation.status < 500 && operation.code !== undefined && STATE_REFUSALS[operation.kind] === operation.code)
    return "known";
  if (operation.code !== undefined && NO_EFFECT_CODES.has(operation.code) && operation.status < 500) return "none";
  // INTERNAL_ERROR and PLATFORM_UPSTREAM_ERROR may come after the platform took the write; so may
  // a timeout or a dropped connection, and anything else this table does not know.
  return write ? "unknown" : "none";
}

/** Answered as the contract says: a known outcome, or a link not found (search may not have it yet). */
export function served(operation: Operation): boolean {
  if (operation.kind === "shared-list" && operation.status === 404) return operation.code === "NOT_FOUND";
  return outcomeOf(operation) === "known";
}

/** "200 active", "409 DUPLICATE_SAVE", "0 client timeout": an answer as the report counts it. */
export function answerLabel(operation: Operation): string {
  if (operation.status !== 200) return `${operation.status} ${operation.code ?? ""}`.trim();
  if (operation.kind === "is-saved") return `200 saved=${operation.saved}`;
  if (operation.kind === "list" || operation.kind === "shared-list") return "200";
  if (operation.kind === "share-revoke") return `200 revoked=${operation.revoked}`;
  if (isListKind(operation.kind)) return "200";
  return `200 ${operation.state}`;
}

/** One line per operation, for anomalies: what, who, when (ms from the run's start), answer. */
export function describeOperation(operation: Operation, origin = 0): string {
  const at = (ms: number | undefined) => (ms === undefined ? "…" : (ms - origin).toFixed(1));
  const target = operation.item ?? (operation.token ? `token ${operation.token.slice(0, 8)}…` : "");
  const listed = operation.kind === "list" && operation.listed ? ` [${operation.listed.join(" ")}]` : "";
  return (
    `#${operation.id} client ${operation.client} (${operation.channel}) ${operation.kind} ${target} ` +
    `[${at(operation.invokedAt)}, ${at(operation.completedAt)}] ms → ${answerLabel(operation)}${listed} (${outcomeOf(operation)})`
  );
}
