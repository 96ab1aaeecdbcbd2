// The server's own endpoints, for probes and operators: /healthz, /readyz and /metrics.
import type { Express, Request, RequestHandler, Response } from "express";
import { ENVELOPE_HEADERS } from "../app/lib/envelope";
import { errorFields, type LogFields, type LogLevel } from "../app/lib/json-log";
import type { AppEntry } from "./app-build";
import type { ServerConfig } from "./config";
import { bearerMatches, type HttpMetrics } from "./http-metrics";
import { envelope } from "./refusals";
import { stateOf } from "./request-state";

/** How long one readiness result answers /readyz: a probe every second costs the database nothing. */
const READINESS_CACHE_MS = 2_000;

interface OpsEndpointsOptions {
  config: ServerConfig;
  entry: AppEntry;
  metrics: HttpMetrics;
  log: (level: LogLevel, msg: string, fields?: LogFields) => void;
  /** True once shutdown has begun: /readyz then answers 503. */
  isDraining: () => boolean;
}

export function mountOpsEndpoints(
  app: Express,
  { config, entry, metrics, log, isDraining }: OpsEndpointsOptions,
): void {
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
      const result: Readiness = isDraining()
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
}
