import { createHash, timingSafeEqual } from "node:crypto";
import type { Server } from "node:http";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

/**
 * The server's own metrics (requests, durations, connections, process), kept in a registry of the
 * server's; a scrape exports them together with the app's registry from the Remix build.
 */
export class HttpMetrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: "http_requests_total",
    help: "HTTP requests answered, by route pattern, method, status and error code",
    labelNames: ["route", "method", "status", "code"] as const,
    registers: [this.registry],
  });
  private readonly duration = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time from a request's arrival to the end of its response, by route pattern",
    labelNames: ["route"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  private readonly dropped = new Counter({
    name: "http_connections_dropped_total",
    help: "Connections closed on arrival because MAX_CONNECTIONS were open, or one address's share of them",
    registers: [this.registry],
  });

  constructor(server: Server, unauthenticatedBodyBytes: () => number) {
    collectDefaultMetrics({ register: this.registry });
    new Gauge({
      name: "http_unauthenticated_body_bytes",
      help: "Body bytes reserved now by requests whose credential is a signature over their body (UNAUTHENTICATED_BODY_BUDGET_MIB)",
      registers: [this.registry],
      collect() {
        this.set(unauthenticatedBodyBytes());
      },
    });
    new Gauge({
      name: "http_open_connections",
      help: "Connections open now",
      registers: [this.registry],
      async collect() {
        this.set(
          await new Promise<number>((resolve) => server.getConnections((error, count) => resolve(error ? 0 : count))),
        );
      },
    });
  }

  // prom-client hashes a label object on every call; the label sets are few (bounded routes,
  // methods, statuses and codes), so each one's child is looked up once and kept.
  private readonly counted = new Map<string, { inc(): void }>();
  private readonly timed = new Map<string, { observe(seconds: number): void }>();

  observeRequest(labels: { route: string; method: string; status: number; code: string }, seconds: number): void {
    const { route, method, status, code } = labels;
    const key = `${route} ${method} ${status} ${code}`;
    let counter = this.counted.get(key);
    if (!counter)
      this.counted.set(key, (counter = this.requests.labels({ route, method, status: String(status), code })));
    counter.inc();
    let histogram = this.timed.get(route);
    if (!histogram) this.timed.set(route, (histogram = this.duration.labels({ route })));
    histogram.observe(seconds);
  }

  connectionDropped(): void {
    this.dropped.inc();
  }

  /** The exposition of this registry and the app's, in one document. */
  async exposition(appRegistry: Registry): Promise<{ contentType: string; body: string }> {
    const merged = Registry.merge([this.registry, appRegistry]);
    return { contentType: merged.contentType, body: await merged.metrics() };
  }
}

/** Compares a presented bearer token with the configured one in constant time. */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  if (!match) return false;
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(match[1]!), digest(token));
}
