// A request from arrival to its access-log line: its id, addresses and state on arrival; its
// metrics and one JSON line when its response closes.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { AppLoadContext } from "@remix-run/node";
import { formatOwnLine, type LogLine } from "../app/lib/json-log";
import type { RequestLogFields } from "../app/lib/request-context.server";
import { loggedPath, methodLabel, normaliseAddress, requestIdFrom, type RouteLabels } from "./access-log";
import { firstSegmentOf } from "./app-build";
import type { ServerConfig } from "./config";
import type { HttpMetrics } from "./http-metrics";
import { forwardedClientAddress } from "./remix-adapter";
import { FAST_PROXY_PATH } from "./remix-dispatch";
import { bodyIsCredential, maxBodyBytesOf, pathOf, setStateOf, type RequestState } from "./request-state";

const APP_LOG_FIELDS = ["shop", "channel", "operation", "code", "platformPoints", "platformRequests", "cache"] as const;
const ERROR_CODE = /^[A-Z][A-Z_]{0,39}$/;
const FORWARDING_HEADERS = ["x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "forwarded"];

interface RequestLifecycleOptions {
  config: ServerConfig;
  routeLabels: RouteLabels;
  metrics: HttpMetrics;
  writeLine: (line: string) => void;
  /** Told when a socket's request headers have all arrived (connection-limits.ts). */
  headersArrived: (socket: Socket) => void;
  /** Watches the request's body and connection (body-guard.ts). */
  guardConnection: (req: IncomingMessage, res: ServerResponse, state: RequestState) => void;
}

/** What begins every request, before anything else: id, state, access log and metrics, the body deadline, clean closes. */
export function requestLifecycle({
  config,
  routeLabels,
  metrics,
  writeLine,
  headersArrived,
  guardConnection,
}: RequestLifecycleOptions): (req: IncomingMessage, res: ServerResponse) => RequestState {
  /** The fast path's path as the access log keeps it: the same on every request, so judged once. */
  const fastProxyLoggedPath = loggedPath(FAST_PROXY_PATH, routeLabels.match(FAST_PROXY_PATH));

  function beginRequest(req: IncomingMessage, res: ServerResponse): RequestState {
    headersArrived(req.socket);
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
    setStateOf(res, state);
    guardConnection(req, res, state);
    res.once("close", () => finishRequest(req, res, state));
    return state;
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

  return beginRequest;
}
