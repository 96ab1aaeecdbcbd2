import { z } from "zod";

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

/**
 * The most request body the server lets anything read; past it the answer is 413, refused on the
 * declared Content-Length at once or counted while a chunked body streams in (docs/deploy.md).
 * Webhooks carry whole resources: the platform sends payloads "upwards of a megabyte" for large
 * products and orders, and caps its own EventBridge deliveries at 1,000,000 bytes; 4 MiB leaves
 * margin. Nothing else the app takes comes near 1 MiB (operation bodies stop at 256 KiB, the Flow
 * callback and admin forms are a few hundred bytes).
 */
export const MAX_WEBHOOK_BODY_BYTES = 4 * 1024 * 1024;
export const MAX_BODY_BYTES = 1024 * 1024;

/** The HTTP server's own settings (the app validates its own in app/config/env.server.ts). */
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

const seconds = (name: string, fallback: number, max: number) =>
  z
    .string()
    .optional()
    .transform((value, context) => {
      if (value === undefined || value.trim() === "") return fallback * 1000;
      const parsed = Number(value);
      if (!Number.isFinite(parsed) || parsed <= 0 || parsed > max) {
        context.addIssue({
          code: "custom",
          message: `set ${name} to a number of seconds above 0 and at most ${max} (default ${fallback})`,
        });
        return z.NEVER;
      }
      return Math.round(parsed * 1000);
    });

const integer = (name: string, fallback: number, min: number, max: number) =>
  z
    .string()
    .optional()
    .transform((value, context) => {
      if (value === undefined || value.trim() === "") return fallback;
      if (!/^\d+$/.test(value.trim()) || Number(value) < min || Number(value) > max) {
        context.addIssue({
          code: "custom",
          message: `set ${name} to a whole number from ${min} to ${max} (default ${fallback})`,
        });
        return z.NEVER;
      }
      return Number(value);
    });

const ServerEnvSchema = z
  .object({
    PORT: integer("PORT", 3000, 0, 65535),
    HOST: z
      .string()
      .optional()
      .transform((value) => (value?.trim() ? value.trim() : undefined)),
    MAX_CONNECTIONS: integer("MAX_CONNECTIONS", 1024, 1, 1_000_000),
    MAX_PENDING_PER_CLIENT: integer("MAX_PENDING_PER_CLIENT", 64, 1, 1_000_000),
    MAX_CONNECTIONS_PER_CLIENT: integer("MAX_CONNECTIONS_PER_CLIENT", 128, 1, 1_000_000),
    MIN_BODY_BYTES_PER_SECOND: integer("MIN_BODY_BYTES_PER_SECOND", 16_384, 1, 1_000_000_000),
    UNAUTHENTICATED_BODY_BUDGET_MIB: integer(
      "UNAUTHENTICATED_BODY_BUDGET_MIB",
      32,
      MAX_WEBHOOK_BODY_BYTES / (1024 * 1024),
      1_000_000,
    ),
    HEADERS_TIMEOUT_SECONDS: seconds("HEADERS_TIMEOUT_SECONDS", 5, 300),
    REQUEST_TIMEOUT_SECONDS: seconds("REQUEST_TIMEOUT_SECONDS", 30, 3600),
    BODY_TIMEOUT_SECONDS: seconds("BODY_TIMEOUT_SECONDS", 10, 3600),
    KEEP_ALIVE_TIMEOUT_SECONDS: seconds("KEEP_ALIVE_TIMEOUT_SECONDS", 5, 3600),
    LINGER_SECONDS: seconds("LINGER_SECONDS", 2, 60),
    SHUTDOWN_TIMEOUT_SECONDS: seconds("SHUTDOWN_TIMEOUT_SECONDS", 10, 3600),
    METRICS_TOKEN: z
      .string()
      .optional()
      .transform((value) => (value === "" ? undefined : value))
      .refine((value) => value === undefined || (value.length >= 16 && /^[\x21-\x7e]+$/.test(value)), {
        message:
          "set METRICS_TOKEN to at least 16 printable characters without spaces (e.g. openssl rand -hex 32), or leave it unset",
      }),
    TRUST_PROXY: integer("TRUST_PROXY", 0, 0, 10),
  })
  .superRefine((env, context) => {
    if (env.HEADERS_TIMEOUT_SECONDS > env.REQUEST_TIMEOUT_SECONDS) {
      context.addIssue({
        code: "custom",
        path: ["HEADERS_TIMEOUT_SECONDS"],
        message: "must not be longer than REQUEST_TIMEOUT_SECONDS",
      });
    }
    if (env.BODY_TIMEOUT_SECONDS > env.REQUEST_TIMEOUT_SECONDS) {
      context.addIssue({
        code: "custom",
        path: ["BODY_TIMEOUT_SECONDS"],
        message: "must not be longer than REQUEST_TIMEOUT_SECONDS",
      });
    }
  });

export class ServerConfigError extends Error {
  constructor(readonly issues: string[]) {
    super(
      `Invalid server configuration; set these environment variables:\n${issues.map((issue) => `  - ${issue}`).join("\n")}`,
    );
    this.name = "ServerConfigError";
  }
}

/** Reads and checks the server's environment; throws ServerConfigError naming every variable to fix. */
export function loadServerConfig(env: Record<string, string | undefined> = process.env): ServerConfig {
  const parsed = ServerEnvSchema.safeParse(env);
  if (!parsed.success) {
    throw new ServerConfigError(parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`));
  }
  const value = parsed.data;
  return {
    port: value.PORT,
    host: value.HOST,
    maxConnections: value.MAX_CONNECTIONS,
    maxPendingPerClient: value.MAX_PENDING_PER_CLIENT,
    maxConnectionsPerClient: value.MAX_CONNECTIONS_PER_CLIENT,
    minBodyBytesPerSecond: value.MIN_BODY_BYTES_PER_SECOND,
    unauthenticatedBodyBudgetBytes: value.UNAUTHENTICATED_BODY_BUDGET_MIB * 1024 * 1024,
    headersTimeoutMs: value.HEADERS_TIMEOUT_SECONDS,
    requestTimeoutMs: value.REQUEST_TIMEOUT_SECONDS,
    bodyTimeoutMs: value.BODY_TIMEOUT_SECONDS,
    keepAliveTimeoutMs: value.KEEP_ALIVE_TIMEOUT_SECONDS,
    lingerMs: value.LINGER_SECONDS,
    shutdownTimeoutMs: value.SHUTDOWN_TIMEOUT_SECONDS,
    metricsToken: value.METRICS_TOKEN,
    trustProxy: value.TRUST_PROXY,
  };
}
