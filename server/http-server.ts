// The app's production HTTP server: `npm start` runs it (server/main.ts, bundled into build/server.js)
// and the sandbox (packages/sandbox/src/start.ts) serves through the same createAppServer, so the two
// cannot drift. It serves the Remix build (server/remix-adapter.ts) and owns what remix-serve left
// out: a JSON access log without query strings or credentials, a request id, deadlines and a
// connection cap, clean closes after early refusals, health, readiness and metrics endpoints, and a
// graceful shutdown. Express serves static files, the server's endpoints and documents; a path
// that can only be a resource route goes to Remix without it (see serveDirectly).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import path from "node:path";
import type { AppLoadContext, ServerBuild } from "@remix-run/node";
import compression from "compression";
import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Response } from "express";
import { asServiceError, ENVELOPE_HEADERS, errorEnvelope } from "../app/lib/envelope";
import { ServiceError, type ErrorCode } from "../app/lib/errors";
import {
  errorFields,
  formatLogLine,
  formatOwnLine,
  type LogFields,
  type LogLevel,
  type LogLine,
} from "../app/lib/json-log";
import type { RequestLogFields } from "../app/lib/request-context.server";
import { operationPath } from "../app/edge/route-table";
import { batchedLineWriter, loggedPath, methodLabel, normaliseAddress, requestIdFrom, RouteLabels } from "./access-log";
import { appEntryOf, firstSegmentOf, narrowedBuilds, routePatternsOf, type AppEntry } from "./app-build";
import type { BodySignatureCheck } from "../app/edge/front-doors/body-signature.server";
import { MAX_BODY_BYTES, MAX_WEBHOOK_BODY_BYTES, type ServerConfig } from "./config";
import { bearerMatches, HttpMetrics } from "./http-metrics";
import { forwardedClientAddress, createRemixResponder, validRequestUrlOf, type RemixResponder } from "./remix-adapter";

export interface AppServerOptions {
  /** The Remix server build (build/server/index.js), already imported. */
  build: ServerBuild;
  /** The Remix client build (build/client): /assets/* immutable for a year, the rest for an hour. */
  clientDir: string;
  config: ServerConfig;
  /** Where log lines go (one JSON object per line); stdout by default. */
  writeLine?: (line: string) => void;
}

export interface AppServer {
  readonly app: express.Express;
  readonly server: Server;
  /** True once shutdown has begun. */
  readonly draining: boolean;
  /**
   * Prepares the app (migrations on a PostgreSQL database, unless skipped), then listens on
   * config.port (0 = any free port) and config.host; resolves with the bound address.
   */
  listen(): Promise<{ port: number; host: string }>;
  /**
   * Stops accepting connections, closes idle ones, lets requests in flight finish (their responses
   * say Connection: close) for at most config.shutdownTimeoutMs, then cuts what is left and runs the
   * app's shutdown hook. `forced` says whether connections had to be cut.
   */
  shutdown(): Promise<{ forced: boolean }>;
  /** Body bytes reserved now by requests whose credential is a signature over their body. */
  readonly unauthenticatedBodyBytes: number;
  log(level: LogLevel, msg: string, fields?: LogFields): void;
}

/** What the server knows about one request, from arrival to the access-log line. */
interface RequestState {
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

/** How long one readiness result answers /readyz: a probe every second costs the database nothing. */
const READINESS_CACHE_MS = 2_000;

const APP_LOG_FIELDS = ["shop", "channel", "operation", "code", "platformPoints", "platformRequests", "cache"] as const;
const ERROR_CODE = /^[A-Z][A-Z_]{0,39}$/;
const FORWARDING_HEADERS = ["x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "forwarded"];
/** The one path the server answers through the app without Remix (serveProxyQuery), and its operation. */
const FAST_PROXY_OPERATION = "is-saved";
const FAST_PROXY_PATH = operationPath("online-store", FAST_PROXY_OPERATION);
/** A last path segment with an extension (robots.txt, favicon.ico): what public/ can hold. */
const FILE_NAME = /\/[^/]+\.[A-Za-z0-9]+$/;

function envelope(code: ErrorCode, message: string): string {
  return errorEnvelope(new ServiceError(code, message));
}

const states = new WeakMap<ServerResponse, RequestState>();

function stateOf(res: ServerResponse): RequestState {
  return states.get(res)!;
}

/** The path of a request target, without its query: origin-form ("/a?b") or absolute-form. */
function pathOf(url: string): string {
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
function maxBodyBytesOf(segment: string | undefined): number {
  return segment === "webhooks" ? MAX_WEBHOOK_BODY_BYTES : MAX_BODY_BYTES;
}

/**
 * Paths whose caller is known only once its whole body has been read and its HMAC checked (the
 * platform's webhook deliveries and Flow's callbacks): until then anyone may be sending it, so
 * their bodies must keep a minimum rate, share one budget of bytes in flight, and a refusal closes
 * the connection. Every other path's credential is in its headers or its query.
 */
const BODY_CREDENTIAL_SEGMENTS = new Set(["webhooks", "flow"]);

function bodyIsCredential(segment: string | undefined): boolean {
  // An encoded first segment may still be routed to them once decoded; nothing legitimate sends one.
  return segment === undefined || BODY_CREDENTIAL_SEGMENTS.has(segment);
}

/** The part of UNAUTHENTICATED_BODY_BUDGET_MIB one client address may hold (at least one body's bound). */
const UNAUTHENTICATED_BODY_SHARE = 1 / 4;

/** How often a body whose credential it is is checked for keeping MIN_BODY_BYTES_PER_SECOND. */
const BODY_RATE_CHECK_MS = 1_000;

/** True when the request announces a body (Content-Length above 0, or chunked). */
function hasBody(req: IncomingMessage): boolean {
  return req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;
}

const secondsText = (ms: number) => `${Number((ms / 1000).toFixed(3))} s`;

export function createAppServer(options: AppServerOptions): AppServer {
  const { build, config } = options;
  const entry: AppEntry = appEntryOf(build);
  const writeLine = options.writeLine ?? batchedLineWriter((text) => void process.stdout.write(text));
  const log = (level: LogLevel, msg: string, fields: LogFields = {}) => writeLine(formatLogLine(level, msg, fields));
  const routeLabels = new RouteLabels(routePatternsOf(build));
  const fastProxyRoute = routeLabels.match(FAST_PROXY_PATH);
  /** The fast path's path as the access log keeps it: the same on every request, so judged once. */
  const fastProxyLoggedPath = loggedPath(FAST_PROXY_PATH, fastProxyRoute);
  let draining = false;
  /** Bytes reserved by requests whose body is their credential, in flight now (reserveUnauthenticatedBody). */
  let unauthenticatedBodyBytes = 0;
  const unauthenticatedBodyBytesByAddress = new Map<string, number>();
  let lastBudgetLog = 0;

  const app = express();
  app.disable("x-powered-by");
  // Nothing here reads req.query (the app reads its query from Remix's Request), and parsing it for
  // every request was a few percent of an is-saved's CPU.
  app.set("query parser", false);

  const server = createServer(
    {
      headersTimeout: config.headersTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
      keepAliveTimeout: config.keepAliveTimeoutMs,
      // How often node checks the two timeouts above (its default, 30 s, would let them overrun by that much).
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(config.headersTimeoutMs / 4))),
    },
    (req, res) => {
      const state = beginRequest(req, res);
      if (refusedAtOnce(req, res, state)) return;
      if (state.signature === undefined) serve(req, res, state);
      else void readSignedBody(req, res, state, state.signature).then((signed) => signed && serve(req, res, state));
    },
  );

  function serve(req: IncomingMessage, res: ServerResponse, state: RequestState): void {
    if (req.method === "GET" && state.path === FAST_PROXY_PATH) serveProxyQuery(req, res, state);
    else serveRemixOrExpress(req, res, state);
  }

  function serveRemixOrExpress(req: IncomingMessage, res: ServerResponse, state: RequestState): void {
    const direct = directResponderFor(state.path);
    if (direct) serveDirectly(req, res, state, direct);
    else app(req, res);
  }
  server.maxConnections = config.maxConnections;
  const metrics = new HttpMetrics(server, () => unauthenticatedBodyBytes);

  let lastDropLog = 0;
  const connectionDropped = (fields: LogFields) => {
    metrics.connectionDropped();
    if (Date.now() - lastDropLog > 60_000) {
      lastDropLog = Date.now();
      log("warn", "connection dropped", fields);
    }
  };
  server.on("drop", () =>
    connectionDropped({ reason: "MAX_CONNECTIONS reached", maxConnections: config.maxConnections }),
  );

  // Connections per peer address: all those open, and those that have not sent a whole request's
  // headers yet. A client holding connections open (headers that never finish, bodies dripped in
  // past their signature check and the next request on the same socket) could fill MAX_CONNECTIONS
  // alone and starve everyone else; past either share its new connections are closed at once.
  // The pending share is the tighter one: the platform's app proxy, a load balancer or a browser
  // sends a request's headers in one write, so they never come near it, while the open share
  // leaves room for the app proxy, from which all storefront traffic arrives over a few addresses.
  // Behind a trusted proxy the peer is the proxy, so neither share is applied there (docs/deploy.md).
  const perAddress = new Map<string, { open: number; pending: number }>();
  const settlePending = new WeakMap<Socket, () => void>();
  if (config.trustProxy === 0) {
    server.on("connection", (socket: Socket) => {
      const address = normaliseAddress(socket.remoteAddress) ?? "unknown";
      const counts = perAddress.get(address) ?? { open: 0, pending: 0 };
      const full =
        counts.pending >= config.maxPendingPerClient
          ? { reason: "MAX_PENDING_PER_CLIENT reached", maxPendingPerClient: config.maxPendingPerClient }
          : counts.open >= config.maxConnectionsPerClient
            ? { reason: "MAX_CONNECTIONS_PER_CLIENT reached", maxConnectionsPerClient: config.maxConnectionsPerClient }
            : undefined;
      if (full) {
        socket.destroy();
        connectionDropped({ ...full, clientAddress: address });
        return;
      }
      counts.open++;
      counts.pending++;
      perAddress.set(address, counts);
      let pending = true;
      const settle = () => {
        if (!pending) return;
        pending = false;
        counts.pending--;
      };
      settlePending.set(socket, settle);
      socket.once("close", () => {
        settle();
        if (--counts.open === 0) perAddress.delete(address);
      });
    });
  }

  // Requests node refuses before any handler runs (headers too slow or too large, malformed). The
  // raw request (error.rawPacket) is never logged: it holds the URL with its query string.
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    const [status, text, message] =
      error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, "Request Timeout", "Request not received in time"]
        : error.code === "HPE_HEADER_OVERFLOW"
          ? [431, "Request Header Fields Too Large", "Request headers too large"]
          : [400, "Bad Request", "Malformed request"];
    log("warn", "client error", { status, code: error.code });
    // As node does: answer only on a connection that has not been written to (no response under way).
    if (socket.bytesWritten === 0) {
      const body = envelope("VALIDATION_ERROR", message);
      socket.write(
        `HTTP/1.1 ${status} ${text}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy();
  });

  /** Every request, before anything else: id, state, access log and metrics, the body deadline, clean closes. */
  function beginRequest(req: IncomingMessage, res: ServerResponse): RequestState {
    settlePending.get(req.socket)?.();
    // Read before the headers may go: the platform's app proxy reports the shopper there, and the
    // app trusts it only for requests the proxy signed.
    const proxiedClientAddress = normaliseAddress(forwardedClientAddress(req, config.trustProxy + 1));
    // With no proxy trusted, forwarding headers are whatever the client says: drop them, so neither
    // the request URL Remix is given nor the app can be misled by them.
    if (config.trustProxy === 0) for (const name of FORWARDING_HEADERS) delete req.headers[name];
    const requestId = requestIdFrom(req.headers["x-request-id"]);
    req.headers["x-request-id"] = requestId;
    res.setHeader("X-Request-Id", requestId);
    const clientAddress = normaliseAddress(forwardedClientAddress(req, config.trustProxy));
    const log: RequestLogFields = {};
    const requestPath = pathOf(req.url ?? "/");
    const segment = firstSegmentOf(requestPath);
    const state: RequestState = {
      requestId,
      path: requestPath,
      startedAt: process.hrtime.bigint(),
      clientAddress,
      log,
      context: { requestId, clientAddress, proxiedClientAddress, log } satisfies AppLoadContext,
      maxBodyBytes: maxBodyBytesOf(segment),
      bodyIsCredential: bodyIsCredential(segment),
    };
    states.set(res, state);
    guardConnection(req, res, state);
    res.once("close", () => finishRequest(req, res, state));
    return state;
  }

  /**
   * What is refused before anything reads the request: a Host no URL can be built from (400), and
   * a declared body longer than the path's bound (413). A chunked body is counted as the app reads
   * it (server/remix-adapter.ts) and refused the same way at the first byte past the bound: no
   * signature check, parser or platform library ever holds more of a body than that.
   */
  function refusedAtOnce(req: IncomingMessage, res: ServerResponse, state: RequestState): boolean {
    const url = validRequestUrlOf(req);
    if (url === undefined) {
      state.route = "other";
      const body = envelope("VALIDATION_ERROR", "Malformed request: invalid Host");
      res.writeHead(400, { ...ENVELOPE_HEADERS, "Content-Length": Buffer.byteLength(body), Connection: "close" });
      res.end(body);
      return true;
    }
    state.context.requestUrl = url;
    if (Number(req.headers["content-length"] ?? 0) > state.maxBodyBytes) {
      refuseBody(res, state);
      return true;
    }
    if (!state.bodyIsCredential || !hasBody(req)) return false;
    const header = req.headers[entry.BODY_SIGNATURE_HEADER];
    state.signature = entry.bodySignatureCheck(Array.isArray(header) ? header[0] : header);
    if (state.signature === undefined) {
      refuseSignature(res, "Request body signature missing");
      return true;
    }
    if (!reserveUnauthenticatedBody(req, res, state)) {
      // 503, not RATE_LIMITED's 429: the budget is the whole process's, not this caller's share.
      const body = errorEnvelope(
        new ServiceError("RATE_LIMITED", "Too many unauthenticated request bodies in flight; retry shortly", {
          status: 503,
        }),
      );
      res.writeHead(503, { ...ENVELOPE_HEADERS, "Content-Length": Buffer.byteLength(body), "Retry-After": "1" });
      res.end(body);
      return true;
    }
    return false;
  }

  /**
   * A body whose credential it is is held whole (once: readSignedBody) before its HMAC can be
   * checked as it ends: what all such
   * requests may hold at once is config.unauthenticatedBodyBudgetBytes, so bogus signatures cannot
   * grow the process without bound, and one client address (read as forwardedClientAddress reads it, so
   * behind a trusted proxy too) may hold a quarter of it (UNAUTHENTICATED_BODY_SHARE), so one
   * forger cannot keep the platform's deliveries out. A request reserves its declared length (a
   * chunked one, its path's bound) until its response is done; one past either is refused before
   * it is read.
   */
  function reserveUnauthenticatedBody(req: IncomingMessage, res: ServerResponse, state: RequestState): boolean {
    const declared = req.headers["content-length"];
    const bytes = declared === undefined ? state.maxBodyBytes : Number(declared);
    const address = state.clientAddress ?? "unknown";
    const byAddress = unauthenticatedBodyBytesByAddress.get(address) ?? 0;
    const budget = config.unauthenticatedBodyBudgetBytes;
    const share = Math.max(state.maxBodyBytes, budget * UNAUTHENTICATED_BODY_SHARE);
    if (unauthenticatedBodyBytes + bytes > budget || byAddress + bytes > share) {
      if (Date.now() - lastBudgetLog > 60_000) {
        lastBudgetLog = Date.now();
        log("warn", "unauthenticated body budget reached", {
          clientAddress: address,
          inFlight: unauthenticatedBodyBytes,
          inFlightFromAddress: byAddress,
          budget,
        });
      }
      return false;
    }
    unauthenticatedBodyBytes += bytes;
    unauthenticatedBodyBytesByAddress.set(address, byAddress + bytes);
    res.once("close", () => {
      unauthenticatedBodyBytes -= bytes;
      const left = (unauthenticatedBodyBytesByAddress.get(address) ?? bytes) - bytes;
      if (left > 0) unauthenticatedBodyBytesByAddress.set(address, left);
      else unauthenticatedBodyBytesByAddress.delete(address);
    });
    return true;
  }

  function refuseSignature(res: ServerResponse, message: string): void {
    const body = envelope("AUTH_REQUIRED", message);
    res.writeHead(401, { ...ENVELOPE_HEADERS, "Content-Length": Buffer.byteLength(body) });
    res.end(body);
  }

  /**
   * Reads a body whose credential it is, checking its signature as the bytes arrive and keeping
   * them once: resolves with the body when the signature matches (the app then reads it from
   * there), and otherwise answers 401 (or 413 past the path's bound) and drops it. A forged body
   * is thus never held more than once, nor copied by the app's readers and the platform library's
   * check (a buffer of the whole, a string, its encoding and its signing copy: five times its size
   * at the peak), and the bytes its reservation counts are the bytes the process holds.
   */
  function readSignedBody(
    req: IncomingMessage,
    res: ServerResponse,
    state: RequestState,
    signature: BodySignatureCheck,
  ): Promise<boolean> {
    return new Promise((resolve) => {
      let chunks: Buffer[] = [];
      let size = 0;
      const stop = (signed: boolean) => {
        req.off("data", onData);
        req.off("end", onEnd);
        res.off("close", onGone);
        if (signed) state.signedBody = chunks;
        chunks = [];
        resolve(signed);
      };
      const onData = (chunk: Buffer) => {
        size += chunk.byteLength;
        if (size > state.maxBodyBytes) {
          stop(false);
          refuseBody(res, state);
          return;
        }
        signature.update(chunk);
        chunks.push(chunk);
      };
      const onEnd = () => {
        if (signature.matches()) {
          stop(true);
          return;
        }
        stop(false);
        refuseSignature(res, "Request body signature does not match");
      };
      // Answered meanwhile (408, too slow) or the client went away.
      const onGone = () => stop(false);
      req.on("data", onData);
      req.once("end", onEnd);
      res.once("close", onGone);
    });
  }

  function refuseBody(res: ServerResponse, state: RequestState): void {
    if (res.headersSent) return;
    const body = envelope("VALIDATION_ERROR", `Body is larger than ${state.maxBodyBytes} bytes`);
    res.writeHead(413, { ...ENVELOPE_HEADERS, "Content-Length": Buffer.byteLength(body) });
    res.end(body);
  }

  /**
   * A response that goes out before its request body has fully arrived (a 413 judged on the declared
   * length, a 401/405/415 that never reads the body, a 503 past the budget) says Connection: close;
   * the rest of the body is left unread (stopReading) and the socket closes config.lingerMs after
   * the response went out, so the client reads the response instead of a reset, and its next
   * request goes out on a fresh connection rather than behind an upload nobody reads. A body still incomplete config.bodyTimeoutMs after the
   * request began is answered 408 and its connection closed. While draining, every response says
   * Connection: close.
   */
  function guardConnection(req: IncomingMessage, res: ServerResponse, state: RequestState): void {
    const socket = req.socket;
    const expectsBody = hasBody(req);
    const writeHead = res.writeHead;
    let leftUnread = false;
    res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
      // A refused signature closes its connection: a forger does not keep a socket to send the next one on.
      const status = typeof args[0] === "number" ? args[0] : this.statusCode;
      if (draining || (state.bodyIsCredential && status === 401)) this.setHeader("Connection", "close");
      if (expectsBody && !req.complete && !this.headersSent) {
        if (!state.bodyTimedOut) state.refusedEarly = true;
        this.setHeader("Connection", "close");
        leftUnread = true;
        stopReading(req);
        closeAfterLinger(socket, state);
      }
      return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
    } as typeof res.writeHead;

    res.once("finish", () => {
      // What node does for a body nobody read (IncomingMessage._dump), also when a reader was attached
      // (Remix's request body stream): drop its listeners and let the bytes drain, so the connection
      // reads the next request, or lingers to its close.
      if (!req.readableEnded && !leftUnread) {
        req.removeAllListeners("data");
        req.resume();
      }
      if (draining) server.closeIdleConnections();
    });

    if (!expectsBody || req.complete) return;

    const bodyTooSlow = (message: string) => {
      state.bodyTimedOut = true;
      if (res.headersSent) {
        socket.destroy();
        return;
      }
      const body = envelope("VALIDATION_ERROR", message);
      res.writeHead(408, { ...ENVELOPE_HEADERS, "Content-Length": Buffer.byteLength(body), Connection: "close" });
      res.end(body);
    };
    const timer = setTimeout(() => {
      if (req.complete || res.writableEnded) return;
      bodyTooSlow(`Request body not received within ${secondsText(config.bodyTimeoutMs)}`);
    }, config.bodyTimeoutMs);
    res.once("close", () => clearTimeout(timer));
    if (state.bodyIsCredential) checkBodyRate(req, res, bodyTooSlow);
  }

  /**
   * A body whose credential it is must have arrived at config.minBodyBytesPerSecond, counted from
   * the request's start, at each check: one dripped in (8 bytes over 9 s, just inside the body
   * deadline) held its connection and its budget for nothing. Counted on the socket, so the check
   * neither reads the body nor depends on who does.
   */
  function checkBodyRate(req: IncomingMessage, res: ServerResponse, tooSlow: (message: string) => void): void {
    const socket = req.socket;
    const startBytes = socket.bytesRead;
    let checks = 0;
    let timer: NodeJS.Timeout;
    const check = () => {
      if (req.complete || res.writableEnded) return;
      checks++;
      const expected = (config.minBodyBytesPerSecond * checks * BODY_RATE_CHECK_MS) / 1000;
      if (socket.bytesRead - startBytes < expected) {
        tooSlow(`Request body slower than ${config.minBodyBytesPerSecond} bytes a second`);
        return;
      }
      timer = setTimeout(check, BODY_RATE_CHECK_MS);
    };
    timer = setTimeout(check, BODY_RATE_CHECK_MS);
    res.once("close", () => clearTimeout(timer));
  }

  /**
   * The rest of a refused body is never read: node dumps a body nobody read at the socket's full
   * speed, and each piece it reads is a fresh buffer of up to 64 KiB that lives until the next full
   * garbage collection; 126 refused 4 MiB bodies read for the linger's 2 s were most of the 69.5 MiB
   * bench:edge's A2 grew the process by (docs/scaling.md). The socket stops reading at once and is
   * never resumed (node's dump of the request resumes it), so what the client goes on sending
   * waits in the kernel's buffers until the socket closes; only what arrived in the same read as
   * the headers is parsed.
   */
  function stopReading(req: IncomingMessage): void {
    const socket = req.socket;
    req.removeAllListeners("data");
    socket.pause();
    socket.resume = () => socket;
  }

  function closeAfterLinger(socket: Socket, state: RequestState): void {
    // node ends a Connection: close response with socket.destroySoon(), which destroys the socket as
    // soon as the response is flushed: unread request bytes still waiting would then draw a reset
    // that can overtake the response. Half-close instead, and wait a bounded time, reading nothing
    // (stopReading), for the client to read the response before the socket is destroyed.
    // A body that missed its deadline is not waited for: close once the response is flushed.
    socket.destroySoon = function (this: Socket) {
      if (this.writable) this.end();
      const lingerMs = state.bodyTimedOut ? 0 : config.lingerMs;
      let timer: NodeJS.Timeout | undefined;
      const linger = () => {
        timer = setTimeout(() => this.destroy(), lingerMs);
        timer.unref();
      };
      if (this.writableFinished) linger();
      else this.once("finish", linger);
      this.once("close", () => clearTimeout(timer));
    };
  }

  function finishRequest(req: IncomingMessage, res: ServerResponse, state: RequestState): void {
    const seconds = Number(process.hrtime.bigint() - state.startedAt) / 1e9;
    const route = state.route ?? routeLabels.match(state.path) ?? "other";
    const aborted = !res.writableFinished;
    const status = res.headersSent ? res.statusCode : 499;
    const code = typeof state.log.code === "string" && ERROR_CODE.test(state.log.code) ? state.log.code : "";
    metrics.observeRequest({ route, method: methodLabel(req.method), status, code }, seconds);
    // One object, the line itself in its order: copies of it spread into another were garbage on every request.
    const fields: LogLine = {
      t: new Date().toISOString(),
      level: "info",
      msg: "request",
      requestId: state.requestId,
      method: req.method,
      route,
      path: state.path === FAST_PROXY_PATH ? fastProxyLoggedPath : loggedPath(state.path, route),
      status,
      durationMs: Math.round(seconds * 10_000) / 10,
      clientAddress: state.clientAddress,
    };
    for (const key of APP_LOG_FIELDS) {
      const value = state.log[key];
      if (typeof value === "string") fields[key] = value.slice(0, 256);
      else if (typeof value === "number" && Number.isFinite(value)) fields[key] = value;
    }
    if (aborted) fields.aborted = true;
    if (state.bodyTimedOut) fields.bodyTimeout = true;
    if (state.refusedEarly) fields.refusedEarly = true;
    writeLine(formatOwnLine(fields));
  }

  // Compressed responses where the client accepts them, as remix-serve does.
  const compress = compression();
  app.use(compress);

  // 2. The server's own endpoints, before static files and the app.
  const onlyGet = (handler: (req: Request, res: Response) => void | Promise<void>): RequestHandler => {
    return (req, res, next) => {
      stateOf(res).route = stateOf(res).path;
      if (req.method !== "GET" && req.method !== "HEAD") {
        res
          .status(405)
          .set({ ...ENVELOPE_HEADERS, Allow: "GET, HEAD" })
          .end(envelope("VALIDATION_ERROR", "Method not allowed; use GET"));
        return;
      }
      Promise.resolve(handler(req, res)).catch(next);
    };
  };

  app.all(
    "/healthz",
    onlyGet((_req, res) => {
      res
        .status(200)
        .set(ENVELOPE_HEADERS)
        .end(JSON.stringify({ ok: true }));
    }),
  );

  type Readiness = Awaited<ReturnType<AppEntry["readiness"]>>;
  let readinessCache: { at: number; result: Promise<Readiness> } | undefined;

  /** The app's readiness, asked at most once per READINESS_CACHE_MS whoever and however often asks. */
  function currentReadiness(): Promise<Readiness> {
    if (readinessCache === undefined || Date.now() - readinessCache.at >= READINESS_CACHE_MS) {
      readinessCache = {
        at: Date.now(),
        result: entry.readiness().catch((error: unknown) => {
          log("error", "readiness check failed", { error: errorFields(error) });
          return { ok: false, checks: { app: { ok: false, detail: "readiness check failed" } } };
        }),
      };
    }
    return readinessCache.result;
  }

  // Public: only whether this instance is ready, which is all a probe or a load balancer reads.
  // Which check failed and how (migration names, connection errors) only with the metrics token.
  app.all(
    "/readyz",
    onlyGet(async (req, res) => {
      const result: Readiness = draining
        ? { ok: false, checks: { server: { ok: false, detail: "shutting down" } } }
        : await currentReadiness();
      const detailed =
        config.metricsToken !== undefined && bearerMatches(req.headers.authorization, config.metricsToken);
      res
        .status(result.ok ? 200 : 503)
        .set(ENVELOPE_HEADERS)
        .end(JSON.stringify(detailed ? result : { ok: result.ok }));
    }),
  );

  if (config.metricsToken !== undefined) {
    const token = config.metricsToken;
    app.all(
      "/metrics",
      onlyGet(async (req, res) => {
        if (!req.headers.authorization) {
          res
            .status(401)
            .set({ ...ENVELOPE_HEADERS, "WWW-Authenticate": "Bearer" })
            .end(envelope("AUTH_REQUIRED", "Authorization: Bearer <METRICS_TOKEN> required"));
          return;
        }
        if (!bearerMatches(req.headers.authorization, token)) {
          res
            .status(401)
            .set({ ...ENVELOPE_HEADERS, "WWW-Authenticate": 'Bearer error="invalid_token"' })
            .end(envelope("INVALID_TOKEN", "Wrong metrics token"));
          return;
        }
        const { contentType, body } = await metrics.exposition(entry.metricsRegistry);
        res.status(200).set({ "Content-Type": contentType, "Cache-Control": "no-store" }).end(body);
      }),
    );
  }

  // 3. Static files, as remix-serve serves them: fingerprinted assets for a year, the rest for an hour.
  const markRoute = (route: string) => (res: ServerResponse) => void (stateOf(res).route = route);
  app.use(
    "/assets",
    express.static(path.join(options.clientDir, "assets"), {
      immutable: true,
      maxAge: "1y",
      setHeaders: markRoute("/assets/*"),
    }),
  );
  // Only a path naming a file can be one: the app's routes (proxy, API, admin, webhooks) go on
  // without a filesystem lookup each.
  const publicFiles = express.static(options.clientDir, { maxAge: "1h", setHeaders: markRoute("static") });
  app.use((req, res, next) => (FILE_NAME.test(req.path) ? publicFiles(req, res, next) : next()));

  // 4. The app, on the build narrowed to the routes a path's first segment can match, its resource
  // routes answering a method they do not take with 405 and Allow.
  const served = entry.withResourceMethods(build);
  const wholeApp = createRemixResponder(served);
  const bySegment = new Map(
    [...narrowedBuilds(served)].map(([segment, narrowed]) => [segment, createRemixResponder(narrowed)]),
  );
  // An encoded first segment has no narrowed build (undefined), not the root's ("").
  const responderFor = (path: string) => {
    const segment = firstSegmentOf(path);
    return segment === undefined ? undefined : bySegment.get(segment);
  };
  app.all("*", (req, res) => void serveRemix(req, res, stateOf(res), responderFor(stateOf(res).path) ?? wholeApp));
  app.use(((error: unknown, req, res, _next) => failRequest(error, req, res)) satisfies ErrorRequestHandler);

  /**
   * A path whose first segment only resource routes can match (the app's API, the proxy, webhooks),
   * and which cannot name a public file, needs nothing of Express: it is compressed and answered by
   * Remix directly. Express's per-request work (its router, the request and response prototypes,
   * the Express adapter) was as much CPU as the app's own handling of a cached is-saved.
   */
  function directResponderFor(path: string): RemixResponder | undefined {
    return FILE_NAME.test(path) ? undefined : responderFor(path);
  }

  function serveDirectly(req: IncomingMessage, res: ServerResponse, state: RequestState, responder: RemixResponder) {
    compress(req as Request, res as Response, () => void serveRemix(req, res, state, responder));
  }

  /**
   * is-saved on the storefront, the app's most frequent request (every heart and button asks it):
   * answered by the app's own operation handling from the URL as sent (answerProxyQuery: the same
   * front door, dispatcher and envelope as its route), without the Fetch Request, the Remix match
   * and the Response, which were a third of its CPU (docs/scaling.md). Its answer is a small
   * envelope, below compression's threshold, so it goes out as it is, with the Vary compression
   * would have added. Every other method or spelling of the path, and a query naming Remix's own
   * `_data`, goes to Remix.
   */
  function serveProxyQuery(req: IncomingMessage, res: ServerResponse, state: RequestState): void {
    entry
      .runInRequestScope(state.log, async () => entry.answerProxyQuery(FAST_PROXY_OPERATION, state.context.requestUrl!))
      .then(
        (answer) => {
          if (answer === undefined) {
            serveRemixOrExpress(req, res, state);
            return;
          }
          if (res.headersSent) return;
          state.route = fastProxyRoute;
          res.writeHead(answer.status, { ...answer.headers, Vary: "Accept-Encoding" });
          res.end(answer.body);
        },
        (error: unknown) => failRequest(error, req, res),
      );
  }

  /**
   * Runs the app in the build's request scope (its AsyncLocalStorage, not a copy of it), with the
   * server's log object, so what the app annotates (shop, channel, operation, code, platform cost,
   * cache) lands in the access log.
   */
  function serveRemix(req: IncomingMessage, res: ServerResponse, state: RequestState, responder: RemixResponder) {
    const body = { maxBytes: state.maxBodyBytes, onTooLarge: () => refuseBody(res, state), signed: state.signedBody };
    state.signedBody = undefined;
    return entry
      .runInRequestScope(state.log, () => responder(req, res, state.context, body))
      .catch((error: unknown) => failRequest(error, req, res));
  }

  function failRequest(error: unknown, req: IncomingMessage, res: ServerResponse): void {
    const state = stateOf(res);
    // A client that went away, or a body that missed its deadline, is not a server error.
    const clientGone = state.bodyTimedOut || req.socket.destroyed || (res.headersSent && res.writableEnded);
    if (!clientGone) {
      log("error", "unhandled error", {
        requestId: state.requestId,
        method: req.method,
        path: loggedPath(state.path, routeLabels.match(state.path)),
        error: errorFields(error),
      });
    }
    if (res.headersSent) {
      if (!res.writableEnded) res.destroy();
      return;
    }
    const failure = asServiceError(error);
    res.writeHead(failure.status, ENVELOPE_HEADERS).end(errorEnvelope(failure));
  }

  let shutdownPromise: Promise<{ forced: boolean }> | undefined;

  return {
    app,
    server,
    get draining() {
      return draining;
    },
    get unauthenticatedBodyBytes() {
      return unauthenticatedBodyBytes;
    },
    log,
    async listen() {
      await entry.prepare();
      return new Promise((resolve, reject) => {
        server.once("error", reject);
        // The kernel's queue of connections not yet accepted holds node's default 511: a burst from
        // one address (a thousand reopened at once, each closed as it is accepted past its share)
        // overflowed it, and the SYNs of everyone else were dropped and resent a second later. As
        // long as the connections the server may hold, so a burst waits its turn (net.core.somaxconn caps it).
        server.listen({ port: config.port, host: config.host, backlog: config.maxConnections }, () => {
          server.off("error", reject);
          const address = server.address();
          const bound =
            typeof address === "object" && address
              ? { port: address.port, host: address.address }
              : { port: config.port, host: String(address) };
          log("info", "listening", { ...bound, maxConnections: config.maxConnections, trustProxy: config.trustProxy });
          resolve(bound);
        });
      });
    },
    shutdown() {
      shutdownPromise ??= (async () => {
        draining = true;
        log("info", "shutting down", { timeoutMs: config.shutdownTimeoutMs });
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        let forced = false;
        const deadline = setTimeout(() => {
          forced = true;
          log("warn", "shutdown deadline reached; closing connections still open", {
            timeoutMs: config.shutdownTimeoutMs,
          });
          server.closeAllConnections();
        }, config.shutdownTimeoutMs);
        await closed;
        clearTimeout(deadline);
        try {
          await entry.shutdown();
        } catch (error) {
          log("error", "app shutdown hook failed", { error: errorFields(error) });
        }
        log("info", "stopped", { forced });
        return { forced };
      })();
      return shutdownPromise;
    },
  };
}

/**
 * SIGTERM or SIGINT: a graceful shutdown, then `exit(0)` (1 when connections had to be cut). A
 * second signal during the drain exits at once.
 */
export function exitOnSignals(appServer: AppServer, exit: (code: number) => void = (code) => process.exit(code)): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      appServer.log("warn", "second signal; exiting now", { signal });
      exit(1);
      return;
    }
    stopping = true;
    appServer.log("info", "signal received", { signal });
    appServer.shutdown().then(
      ({ forced }) => exit(forced ? 1 : 0),
      () => exit(1),
    );
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
}
