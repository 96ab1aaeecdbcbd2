import type { Env } from "../app/config/env.server";

/**
 * The node flags the server runs with (`npm start` passes them; the sandbox and the tests start
 * build/server.js with them too). docs/scaling.md ("The server's node flags, measured") has the
 * runs behind each:
 * - the request scope is an AsyncLocalStorage, which Node 22 backs with a promise hook that runs
 *   for every promise unless it is backed by async context frames (the default from Node 24);
 * - V8 lets the old generation grow to several times the live data between full collections, by
 *   default, so RSS climbs under steady load with the live data flat; growing it by a fifth keeps
 *   RSS where it started, and the smaller heap is no slower;
 * - a request's objects nearly all die young, and V8's default young generation (semi-spaces that
 *   start at 1 MiB and grow to 16) is scavenged every few requests under load, promoting what is
 *   merely in flight. A fixed 64 MiB semi-space spends less CPU per request, for more RSS from the
 *   start that does not grow.
 */
export const SERVER_NODE_FLAGS = [
  "--experimental-async-context-frame",
  "--heap-growing-percent=20",
  "--max-semi-space-size=64",
  "--min-semi-space-size=64",
] as const;

/** The SERVER_NODE_FLAGS this process was started without (on its command line or in NODE_OPTIONS). */
export function missingNodeFlags(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions = process.env.NODE_OPTIONS ?? "",
): string[] {
  const given = new Set([...execArgv, ...nodeOptions.split(/\s+/)]);
  return SERVER_NODE_FLAGS.filter((flag) => !given.has(flag));
}

/** The HTTP server's settings, from the variables of app/config/env.server.ts. */
export interface ServerConfig {
  port: number;
  /** Interface to listen on; undefined = every interface (what a container needs). */
  host: string | undefined;
  /** Open connections at most; more are closed as they arrive. */
  maxConnections: number;
  /**
   * Connections from one peer address that have not yet sent a whole request's headers, at most;
   * more from that address are closed as they arrive. Only with trustProxy 0: behind a proxy the
   * peer is the proxy, which must buffer headers and limit its clients itself.
   */
  maxPendingPerClient: number;
  /**
   * Connections from one peer address open at once, whatever they are doing, at most; more from
   * that address are closed as they arrive. Only with trustProxy 0, as maxPendingPerClient.
   */
  maxConnectionsPerClient: number;
  /**
   * A request on a path whose credential is a signature over its body (webhooks, the Flow
   * callback) must keep its body arriving at this many bytes a second; a slower one is answered 408.
   */
  minBodyBytesPerSecond: number;
  /**
   * Bytes of such bodies (declared, or the path's bound for a chunked one) the process takes in at
   * once, at most, a quarter of them per client address; a request past either is answered 503
   * with Retry-After before its body is read.
   */
  unauthenticatedBodyBudgetBytes: number;
  /** All request headers must have arrived within this (node's server.headersTimeout). */
  headersTimeoutMs: number;
  /** The whole request must have arrived within this (node's server.requestTimeout): a backstop. */
  requestTimeoutMs: number;
  /** A request body not fully received this long after the request began is answered 408. */
  bodyTimeoutMs: number;
  /** An idle keep-alive connection is closed after this (node's server.keepAliveTimeout). */
  keepAliveTimeoutMs: number;
  /** After a response sent before its request body was read, how long the connection stays open (the rest unread). */
  lingerMs: number;
  /** On SIGTERM/SIGINT, how long requests in flight may take to finish before connections are cut. */
  shutdownTimeoutMs: number;
  /** Bearer token /metrics requires; undefined = no /metrics at all (404). */
  metricsToken: string | undefined;
  /** Proxy hops in front of the server whose X-Forwarded-For (and -Proto, -Host) are trusted. */
  trustProxy: number;
}

/** The server's settings from the one configuration (app/config/env.server.ts), in the units it uses. */
export function serverConfigOf(env: Env): ServerConfig {
  return {
    port: env.PORT,
    host: env.HOST,
    maxConnections: env.MAX_CONNECTIONS,
    maxPendingPerClient: env.MAX_PENDING_PER_CLIENT,
    maxConnectionsPerClient: env.MAX_CONNECTIONS_PER_CLIENT,
    minBodyBytesPerSecond: env.MIN_BODY_BYTES_PER_SECOND,
    unauthenticatedBodyBudgetBytes: env.UNAUTHENTICATED_BODY_BUDGET_MIB * 1024 * 1024,
    headersTimeoutMs: Math.round(env.HEADERS_TIMEOUT_SECONDS * 1000),
    requestTimeoutMs: Math.round(env.REQUEST_TIMEOUT_SECONDS * 1000),
    bodyTimeoutMs: Math.round(env.BODY_TIMEOUT_SECONDS * 1000),
    keepAliveTimeoutMs: Math.round(env.KEEP_ALIVE_TIMEOUT_SECONDS * 1000),
    lingerMs: Math.round(env.LINGER_SECONDS * 1000),
    shutdownTimeoutMs: Math.round(env.SHUTDOWN_TIMEOUT_SECONDS * 1000),
    metricsToken: env.METRICS_TOKEN,
    trustProxy: env.TRUST_PROXY,
  };
}
