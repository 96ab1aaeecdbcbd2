import type { RequestLogFields } from "./request-context.server";

/**
 * What the HTTP server (server/http-server.ts) passes to every loader and action as `context`.
 * Optional because route handlers are also called without the server (tests call them directly).
 */
export interface ServerLoadContext {
  /** The request's id: the caller's X-Request-Id when it is a short safe token, else generated. */
  requestId?: string;
  /**
   * The client's address: the socket's peer, or with TRUST_PROXY=n the address n trusted proxies
   * report in X-Forwarded-For. IPv4 addresses are plain dotted quads (never ::ffff:-mapped).
   */
  clientAddress?: string;
  /**
   * The address one hop beyond clientAddress in X-Forwarded-For: for a request the platform's app
   * proxy forwarded (it reports the shopper there), the shopper. Anyone can send the header, so it
   * means something only once the proxy's signature holds; without such a hop, clientAddress.
   */
  proxiedClientAddress?: string;
  /**
   * The URL as the client sent it. Remix rebuilds the query string of the Request it hands a
   * loader or action (it strips its own parameters through URLSearchParams), which rewrites a
   * malformed escape ("%zz", bytes that are not UTF-8) into a valid one, so the query is read from here.
   */
  requestUrl?: string;
  /** The access-log fields of this request (the object annotateRequest writes into). */
  log?: RequestLogFields;
}

declare module "@remix-run/server-runtime" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends ServerLoadContext {}
}
