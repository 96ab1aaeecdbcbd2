// What the server knows about one request, from its arrival to its access-log line, and what is
// judged from its path alone.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AppLoadContext } from "@remix-run/node";
import type { BodySignatureCheck } from "../app/edge/front-doors/body-signature.server";
import type { RequestLogFields } from "../app/lib/request-context.server";
import { MAX_BODY_BYTES, MAX_WEBHOOK_BODY_BYTES } from "../app/config/body-bounds";

export interface RequestState {
  requestId: string;
  /** The URL's path, never its query string (taken on arrival, before any router rewrites req.url). */
  path: string;
  startedAt: bigint;
  clientAddress: string | undefined;
  /** The object the app annotates (runInRequestScope) and the access log reads. */
  log: RequestLogFields;
  /** What the app's loaders and actions get as their context. */
  context: AppLoadContext;
  /** How many body bytes this request may send (by its path); past it the server answers 413. */
  maxBodyBytes: number;
  /** Its credential is a signature over its body (webhooks, the Flow callback): see bodyIsCredential. */
  bodyIsCredential: boolean;
  /** The check of a body whose credential it is, which the server reads itself (readSignedBody). */
  signature?: BodySignatureCheck;
  /** That body once its signature matched: what the app reads instead of the request. */
  signedBody?: Buffer[];
  /** Set where the server itself answers (endpoints, static files); else derived from the path. */
  route?: string;
  bodyTimedOut?: boolean;
  /** The response went out before the request body had fully arrived. */
  refusedEarly?: boolean;
}

const states = new WeakMap<ServerResponse, RequestState>();

export function setStateOf(res: ServerResponse, state: RequestState): void {
  states.set(res, state);
}

export function stateOf(res: ServerResponse): RequestState {
  return states.get(res)!;
}

/** The path of a request target, without its query: origin-form ("/a?b") or absolute-form. */
export function pathOf(url: string): string {
  if (!url.startsWith("/")) return URL.canParse(url) ? new URL(url).pathname : "/";
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}

/**
 * The body bound of a path, by its first segment (firstSegmentOf): webhook deliveries carry whole
 * platform resources (a product with all its variants), everything else the app takes is small.
 * Judged on the first segment as routing is (an encoded one gets the smaller bound: the platform
 * never sends one).
 */
export function maxBodyBytesOf(segment: string | undefined): number {
  return segment === "webhooks" ? MAX_WEBHOOK_BODY_BYTES : MAX_BODY_BYTES;
}

/**
 * Paths whose caller is known only once its whole body has been read and its HMAC checked (the
 * platform's webhook deliveries and Flow's callbacks): until then anyone may be sending it, so
 * their bodies must keep a minimum rate, share one budget of bytes in flight, and a refusal closes
 * the connection. Every other path's credential is in its headers or its query.
 */
const BODY_CREDENTIAL_SEGMENTS = new Set(["webhooks", "flow"]);

export function bodyIsCredential(segment: string | undefined): boolean {
  // An encoded first segment may still be routed to them once decoded; nothing legitimate sends one.
  return segment === undefined || BODY_CREDENTIAL_SEGMENTS.has(segment);
}

/** True when the request announces a body (Content-Length above 0, or chunked). */
export function hasBody(req: IncomingMessage): boolean {
  return req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;
}
