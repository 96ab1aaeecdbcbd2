// Who answers a request once it is admitted: is-saved's fast path, Remix directly for a path only
// resource routes can match, else Express (its endpoints, static files, then Remix); and the one
// place a failure the app did not answer becomes the error envelope.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ServerBuild } from "@remix-run/node";
import type { ErrorRequestHandler, Express, Request, RequestHandler, Response } from "express";
import { operationPath } from "../app/edge/route-table";
import { asServiceError, ENVELOPE_HEADERS, errorEnvelope } from "../app/lib/envelope";
import { errorFields, type LogFields, type LogLevel } from "../app/lib/json-log";
import { loggedPath, type RouteLabels } from "./access-log";
import { firstSegmentOf, narrowedBuilds, type AppEntry } from "./app-build";
import { refuseBody } from "./refusals";
import { createRemixResponder, type RemixResponder } from "./remix-adapter";
import { stateOf, type RequestState } from "./request-state";
import { FILE_NAME } from "./static-files";

/** The one path the server answers through the app without Remix (serveProxyQuery), and its operation. */
const FAST_PROXY_OPERATION = "is-saved";
export const FAST_PROXY_PATH = operationPath("online-store", FAST_PROXY_OPERATION);

interface RemixDispatchOptions {
  build: ServerBuild;
  entry: AppEntry;
  /** Compression, as Express applies it, for the requests answered without Express. */
  compress: RequestHandler;
  routeLabels: RouteLabels;
  log: (level: LogLevel, msg: string, fields?: LogFields) => void;
}

/**
 * Mounts Remix as `app`'s last handler and its error handler (after the server's endpoints and
 * static files); returns what serves an admitted request.
 */
export function dispatchToRemix(
  app: Express,
  { build, entry, compress, routeLabels, log }: RemixDispatchOptions,
): (req: IncomingMessage, res: ServerResponse, state: RequestState) => void {
  const fastProxyRoute = routeLabels.match(FAST_PROXY_PATH);

  // The app, on the build narrowed to the routes a path's first segment can match, its resource
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

  function serve(req: IncomingMessage, res: ServerResponse, state: RequestState): void {
    if (req.method === "GET" && state.path === FAST_PROXY_PATH) serveProxyQuery(req, res, state);
    else serveRemixOrExpress(req, res, state);
  }

  function serveRemixOrExpress(req: IncomingMessage, res: ServerResponse, state: RequestState): void {
    const direct = directResponderFor(state.path);
    if (direct) serveDirectly(req, res, state, direct);
    else app(req, res);
  }

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

  return serve;
}
