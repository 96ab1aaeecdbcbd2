// The app's production HTTP server: `npm start` runs it (server/main.ts, bundled into build/server.js)
// and the sandbox (packages/sandbox/src/start.ts) serves through the same createAppServer, so the two
// cannot drift. It serves the Remix build (server/remix-adapter.ts) and owns what remix-serve left
// out, each concern in its module: connection limits (connection-limits.ts), the request's
// lifecycle and JSON access log without query strings or credentials (request-lifecycle.ts,
// access-log.ts), early refusals and signed bodies (admission.ts), body deadlines and clean closes
// (body-guard.ts), health, readiness and metrics endpoints (ops-endpoints.ts), static files
// (static-files.ts), the dispatch to Remix (remix-dispatch.ts) and a graceful shutdown
// (shutdown.ts). Express serves static files, the server's endpoints and documents; a path that
// can only be a resource route goes to Remix without it (remix-dispatch.ts).
import { createServer, type Server } from "node:http";
import type { ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import { formatLogLine, type LogFields, type LogLevel } from "../app/lib/json-log";
import { batchedLineWriter, RouteLabels } from "./access-log";
import { createAdmission } from "./admission";
import { appEntryOf, routePatternsOf } from "./app-build";
import { createBodyGuard } from "./body-guard";
import type { ServerConfig } from "./config";
import { limitConnections } from "./connection-limits";
import { HttpMetrics } from "./http-metrics";
import { mountOpsEndpoints } from "./ops-endpoints";
import { dispatchToRemix } from "./remix-dispatch";
import { requestLifecycle } from "./request-lifecycle";
import { createShutdown } from "./shutdown";
import { mountStaticFiles } from "./static-files";

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

export function createAppServer(options: AppServerOptions): AppServer {
  const { build, config } = options;
  const entry = appEntryOf(build);
  const writeLine = options.writeLine ?? batchedLineWriter((text) => void process.stdout.write(text));
  const log = (level: LogLevel, msg: string, fields: LogFields = {}) => writeLine(formatLogLine(level, msg, fields));
  const routeLabels = new RouteLabels(routePatternsOf(build));

  const app = express();
  app.disable("x-powered-by");
  // Nothing here reads req.query (the app reads its query from Remix's Request), and parsing it for
  // every request was a few percent of an is-saved's CPU.
  app.set("query parser", false);

  const server = createServer({
    headersTimeout: config.headersTimeoutMs,
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    // How often node checks the two timeouts above (its default, 30 s, would let them overrun by that much).
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(config.headersTimeoutMs / 4))),
  });
  const shutdown = createShutdown({ server, entry, config, log });
  const isDraining = () => shutdown.draining;
  const admission = createAdmission({ config, entry, log });
  const metrics = new HttpMetrics(server, () => admission.unauthenticatedBodyBytes);
  const { headersArrived } = limitConnections({ server, config, metrics, log });
  const beginRequest = requestLifecycle({
    config,
    routeLabels,
    metrics,
    writeLine,
    headersArrived,
    guardConnection: createBodyGuard({ server, config, isDraining }),
  });

  // Express, in order: compression where the client accepts it (as remix-serve does), the server's
  // own endpoints, static files, the app.
  const compress = compression();
  app.use(compress);
  mountOpsEndpoints(app, { config, entry, metrics, log, isDraining });
  mountStaticFiles(app, options.clientDir);
  const serve = dispatchToRemix(app, { build, entry, compress, routeLabels, log });

  server.on("request", (req, res) => {
    const state = beginRequest(req, res);
    if (admission.refusedAtOnce(req, res, state)) return;
    if (state.signature === undefined) serve(req, res, state);
    else
      void admission
        .readSignedBody(req, res, state, state.signature)
        .then((signed) => signed && serve(req, res, state));
  });

  return {
    app,
    server,
    get draining() {
      return shutdown.draining;
    },
    get unauthenticatedBodyBytes() {
      return admission.unauthenticatedBodyBytes;
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
    shutdown: () => shutdown.shutdown(),
  };
}
