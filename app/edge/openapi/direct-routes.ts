import type { z } from "zod";
import { ERROR_CODES, type ErrorCode } from "~/lib/errors";
import { DirectAccessGrantSchema, HeadlessExchangeRequestSchema } from "~/services/direct-access/schemas";
import { OPERATION_NAMES, OPERATIONS, type OperationName } from "~/operations/operations";
import type { DirectChannel } from "~/services/channels";
import { EXCHANGE_PATHS, operationPath } from "../route-table";

/**
 * What the OpenAPI document says about each direct-channel route, derived from the operation
 * catalogue and the route table: the schemas are the ones the routes parse with; the errors are
 * codes whose status comes from ERROR_CODES. Only VALIDATION_ERROR has statuses of its own
 * (405, 413, 415), given here.
 */

export type DirectNamespace = DirectChannel;

/** A code at its ERROR_CODES status, or VALIDATION_ERROR at one of the statuses it overrides. */
export type DocumentedError = ErrorCode | { code: "VALIDATION_ERROR"; status: 405 | 413 | 415 };

export interface DocumentedRoute {
  path: string;
  method: "get" | "post";
  namespace: DirectNamespace;
  operationId: string;
  summary: string;
  description: string;
  /** The bearer credential the route takes; null for the headless exchange (identity is in the body). */
  security: "serviceToken" | "customerAccountSessionToken" | null;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** `data` of the success envelope. */
  data: z.ZodType;
  errors: readonly DocumentedError[];
  /** Answers OPTIONS preflights and sends Access-Control-* headers on every response. */
  cors: boolean;
}

/** Codes only the Online Store channel (app proxy) answers with; no direct route can return them. */
export const PROXY_ONLY_ERROR_CODES = ["INVALID_PROXY_SIGNATURE"] as const satisfies readonly ErrorCode[];

/**
 * Codes answered only for a path under a namespace that names no operation, so no documented route
 * lists them. NOT_FOUND left this list when the share operations began to answer it.
 */
export const UNROUTED_ERROR_CODES = [] as const satisfies readonly ErrorCode[];

const WRONG_METHOD: readonly DocumentedError[] = [{ code: "VALIDATION_ERROR", status: 405 }];
const JSON_BODY: readonly DocumentedError[] = [
  "VALIDATION_ERROR",
  { code: "VALIDATION_ERROR", status: 413 },
  { code: "VALIDATION_ERROR", status: 415 },
];
const QUERY: readonly DocumentedError[] = ["VALIDATION_ERROR"];
/** edge/front-doors/direct-caller: the service token, then the install check the token cannot carry. */
const SERVICE_TOKEN: readonly DocumentedError[] = [
  "AUTH_REQUIRED",
  "INVALID_TOKEN",
  "TOKEN_EXPIRED",
  "CHANNEL_MISMATCH",
  "SHOP_NOT_INSTALLED",
];
/** The dispatcher and the platform behind it, for every operation. */
const DISPATCH: readonly DocumentedError[] = [
  "SHOP_NOT_INSTALLED",
  "CHANNEL_NOT_ENTITLED",
  "PLAN_LIMIT_REACHED",
  "RATE_LIMITED",
  "PLATFORM_UPSTREAM_ERROR",
  "INTERNAL_ERROR",
];
const NAMESPACE_TEXT: Record<DirectNamespace, { idPrefix: string; label: string }> = {
  headless: { idPrefix: "headless", label: "Headless" },
  "customer-account": { idPrefix: "customerAccount", label: "Customer account" },
};

function operationRoute(namespace: DirectNamespace, operation: OperationName): DocumentedRoute {
  const { method, input: schema, output, errors, doc: text } = OPERATIONS[operation];
  const input = method === "GET" ? QUERY : JSON_BODY;
  return {
    path: operationPath(namespace, operation),
    method: method === "GET" ? "get" : "post",
    namespace,
    operationId: `${NAMESPACE_TEXT[namespace].idPrefix}${text.id}`,
    summary: text.summary,
    description: text.description,
    security: "serviceToken",
    ...(method === "GET" ? { query: schema as z.ZodObject } : { body: schema }),
    data: output,
    errors: [...WRONG_METHOD, ...SERVICE_TOKEN, ...input, ...DISPATCH, ...errors],
    cors: namespace === "customer-account",
  };
}

/** Every documented direct-channel route, in document order. */
export const DIRECT_ROUTES: readonly DocumentedRoute[] = [
  {
    path: EXCHANGE_PATHS.headless,
    method: "post",
    namespace: "headless",
    operationId: "headlessExchange",
    summary: "Exchange a customer token for a service token",
    description:
      "For backend servers only (no CORS headers). Send either the modern field set " +
      "{shop, customerAccountAccessToken} (a Customer Account API access token from the platform's OAuth flow) " +
      "or the legacy field set {shop, storefrontCustomerAccessToken, storefrontAccessToken}, never both. " +
      "The answer's authorization value is the Authorization header for the operation routes; it expires after " +
      "expiresInSeconds (300). There is no refresh: exchange again. Rate limited per client address and shop " +
      "(a burst of 120 attempts, then 20 a second; after 10 failed attempts, one every 6 s): " +
      "429 RATE_LIMITED with a Retry-After header in seconds.",
    security: null,
    body: HeadlessExchangeRequestSchema,
    data: DirectAccessGrantSchema,
    errors: [
      ...WRONG_METHOD,
      ...JSON_BODY,
      "SHOP_NOT_INSTALLED",
      "CHANNEL_NOT_ENTITLED",
      "INVALID_HEADLESS_SIGNATURE",
      "INVALID_LEGACY_STOREFRONT_TOKEN",
      "RATE_LIMITED",
      "INTERNAL_ERROR",
    ],
    cors: false,
  },
  ...OPERATION_NAMES.map((operation) => operationRoute("headless", operation)),
  {
    path: EXCHANGE_PATHS["customer-account"],
    method: "post",
    namespace: "customer-account",
    operationId: "customerAccountExchange",
    summary: "Exchange a customer-account extension session token for a service token",
    description:
      "Called by customer-account UI extensions with Authorization: Bearer <shopify.sessionToken.get()>; no body. " +
      "The session token's dest names the shop and sub the customer (present only for a logged-in customer). " +
      "Every answer, errors and OPTIONS preflights included, carries CORS headers. Rate limited per client address " +
      "and shop like the headless exchange: 429 RATE_LIMITED with a Retry-After header in seconds.",
    security: "customerAccountSessionToken",
    data: DirectAccessGrantSchema,
    errors: [
      ...WRONG_METHOD,
      "AUTH_REQUIRED",
      "INVALID_TOKEN",
      "CUSTOMER_REQUIRED",
      "SHOP_NOT_INSTALLED",
      "CHANNEL_NOT_ENTITLED",
      "RATE_LIMITED",
      "INTERNAL_ERROR",
    ],
    cors: true,
  },
  ...OPERATION_NAMES.map((operation) => operationRoute("customer-account", operation)),
];

export interface ResolvedError {
  code: ErrorCode;
  status: number;
  retryable: boolean;
}

/** A documented error with its status and retryable flag from ERROR_CODES (or its override status). */
export function resolveError(error: DocumentedError): ResolvedError {
  const code = typeof error === "string" ? error : error.code;
  const status = typeof error === "string" ? ERROR_CODES[code].status : error.status;
  return { code, status, retryable: ERROR_CODES[code].retryable };
}

/** A route's errors grouped by HTTP status, codes in table order, duplicates dropped. */
export function errorsByStatus(route: DocumentedRoute): Map<number, ResolvedError[]> {
  const order = Object.keys(ERROR_CODES);
  const groups = new Map<number, ResolvedError[]>();
  for (const resolved of route.errors.map(resolveError)) {
    const group = groups.get(resolved.status) ?? [];
    if (!group.some((entry) => entry.code === resolved.code)) group.push(resolved);
    groups.set(resolved.status, group);
  }
  for (const group of groups.values()) group.sort((a, b) => order.indexOf(a.code) - order.indexOf(b.code));
  return new Map([...groups.entries()].sort(([a], [b]) => a - b));
}

/** Every code a direct-channel client can receive, in ERROR_CODES order. */
export function directChannelErrorCodes(): ErrorCode[] {
  const codes = new Set<ErrorCode>([
    ...DIRECT_ROUTES.flatMap((route) => route.errors.map((error) => resolveError(error).code)),
    ...UNROUTED_ERROR_CODES,
  ]);
  return (Object.keys(ERROR_CODES) as ErrorCode[]).filter((code) => codes.has(code));
}
