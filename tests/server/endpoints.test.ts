// The server module on the production build, over real HTTP: its own endpoints, static files, the
// access log and request id, the load context, unknown paths and errors.
import { readdirSync } from "node:fs";
import path from "node:path";
import type { ServerBuild } from "@remix-run/node";
import type { Registry } from "prom-client";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { errorResponse } from "~/edge/envelope.server";
import { ServiceError } from "~/lib/errors";
import { platformServer } from "../support/platform";
import {
  loadBuild,
  send,
  serverBuildDir,
  startInProcess,
  withTestRoutes,
  type InProcessServer,
} from "../support/server";

const METRICS_TOKEN = "metrics-token-for-tests-0123456789";
let dir: string;
let wantSecondChunk!: () => void;
const secondChunkWanted = new Promise<void>((resolve) => (wantSecondChunk = resolve));
let build: ServerBuild;
let server: InProcessServer;
let behindProxy: InProcessServer;

/** Everything the process prints meanwhile: the app's own log lines go to stdout, not to the server's writer. */
let printed: string[] = [];

beforeAll(async () => {
  platformServer.close();
  dir = await serverBuildDir();
  build = await loadBuild(dir);
  const testBuild = withTestRoutes(build, {
    "test/context": ({ request, context }) =>
      Response.json({
        requestId: context.requestId,
        clientAddress: context.clientAddress,
        hasLog: typeof context.log === "object",
        url: new URL(request.url).origin,
        forwardedFor: request.headers.get("x-forwarded-for"),
        search: new URL(request.url).search,
        sentSearch: typeof context.requestUrl === "string" ? new URL(context.requestUrl).search : undefined,
      }),
    "test/cookies": () => {
      const headers = new Headers({ "Cache-Control": "no-store" });
      headers.append("Set-Cookie", "a=1; Path=/; HttpOnly");
      headers.append("Set-Cookie", "b=2; Path=/; HttpOnly");
      return Response.json(
        { items: Array.from({ length: 200 }, (_, n) => ({ n, gid: `gid://shopify/Product/${n}` })) },
        {
          headers,
        },
      );
    },
    "test/stream": () =>
      new Response(
        new ReadableStream({
          async pull(controller) {
            controller.enqueue(new TextEncoder().encode("first\n"));
            await secondChunkWanted;
            controller.enqueue(new TextEncoder().encode("second\n"));
            controller.close();
          },
        }),
        { headers: { "Content-Type": "text/plain" } },
      ),
    "test/envelope-error": () =>
      errorResponse(
        new Error("upstream said no to shpat_0123456789abcdef at https://x.test/graphql?signature=sig-value-456", {
          cause: new Error("Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl"),
        }),
      ),
    "test/throws": () => {
      throw new Error(
        "boom calling https://example.test/callback?signature=sig-value-123&id_token=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln",
      );
    },
  });
  server = await startInProcess(testBuild, path.join(dir, "client"), { METRICS_TOKEN });
  behindProxy = await startInProcess(testBuild, path.join(dir, "client"), { TRUST_PROXY: "1" });
}, 240_000);

afterAll(async () => {
  await server?.stop();
  await behindProxy?.stop();
});

beforeEach(() => {
  printed = [];
  const capture = (chunk: unknown) => {
    printed.push(String(chunk));
    return true;
  };
  vi.spyOn(process.stdout, "write").mockImplementation(capture);
  vi.spyOn(process.stderr, "write").mockImplementation(capture);
});

afterEach(() => {
  vi.restoreAllMocks();
});

const json = (body: string) => JSON.parse(body);

describe("GET /healthz and /readyz", () => {
  test("/healthz says the process is alive", async () => {
    const response = await send(`${server.url}/healthz`);
    expect(response.status).toBe(200);
    expect(json(response.body)).toEqual({ ok: true });
    expect(response.headers["cache-control"]).toBe("no-store");
    const post = await send(`${server.url}/healthz`, { method: "POST" });
    expect(post.status).toBe(405);
    expect(json(post.body).error.code).toBe("VALIDATION_ERROR");
  });

  test("/readyz tells anyone only whether the instance is ready; with a wrong token too", async () => {
    for (const headers of [{}, { Authorization: "Bearer not-the-metrics-token-at-all" }]) {
      const response = await send(`${server.url}/readyz`, { headers });
      expect(response.status).toBe(200);
      expect(json(response.body)).toEqual({ ok: true });
    }
  });

  test("/readyz asks the app once per 2 s, however many probes ask", async () => {
    let asked = 0;
    const module = build.entry.module as unknown as { readiness: () => Promise<unknown> };
    const counting = {
      ...build,
      entry: {
        ...build.entry,
        // Its stop must not shut the process's app down: `server` goes on using its connections.
        module: { ...build.entry.module, readiness: () => (asked++, module.readiness()), shutdown: async () => {} },
      },
    } as ServerBuild;
    const probed = await startInProcess(counting, path.join(dir, "client"));
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      const answers = await Promise.all(Array.from({ length: 20 }, () => send(`${probed.url}/readyz`)));
      for (let index = 0; index < 20; index++) answers.push(await send(`${probed.url}/readyz`));
      expect(answers.map((answer) => answer.status)).toEqual(Array(40).fill(200));
      expect(asked).toBe(1);
      vi.setSystemTime(Date.now() + 2_000);
      expect((await send(`${probed.url}/readyz`)).status).toBe(200);
      expect(asked).toBe(2);
    } finally {
      vi.useRealTimers();
      await probed.stop();
    }
  });

  test("/readyz with the metrics token names each check: database answering, every migration applied, and Redis when configured, and the dependencies away (none)", async () => {
    const readyz = async () => {
      const response = await send(`${server.url}/readyz`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
      return { status: response.status, body: json(response.body) as unknown };
    };
    // Redis counts as answering once the instance's coordinator holds its permit (readVersions
    // refuses before), which its first /readyz starts: on a loaded machine that start, or one
    // answer, can outlast the check's 2 s, and /readyz keeps the answer 2 s. Asked until it holds.
    await expect.poll(readyz, { timeout: 30_000, interval: 500 }).toEqual({
      status: 200,
      body: {
        ok: true,
        away: [],
        checks: {
          database: { ok: true },
          migrations: { ok: true, detail: expect.stringMatching(/^\d+ applied$/) },
          ...(process.env.REDIS_URL ? { redis: { ok: true } } : {}),
        },
      },
    });
  }, 60_000);
});

describe("GET /metrics", () => {
  test("is not there without METRICS_TOKEN, and wants the bearer token with it", async () => {
    expect((await send(`${behindProxy.url}/metrics`)).status).toBe(404);
    const missing = await send(`${server.url}/metrics`);
    expect(missing.status).toBe(401);
    expect(json(missing.body).error.code).toBe("AUTH_REQUIRED");
    const wrong = await send(`${server.url}/metrics`, { headers: { Authorization: "Bearer not-the-token-at-all" } });
    expect(wrong.status).toBe(401);
    expect(json(wrong.body).error.code).toBe("INVALID_TOKEN");
  });

  test("exports requests by route pattern (never a raw path), durations, process metrics and the app's own registry", async () => {
    await send(`${server.url}/api/openapi.json`);
    await send(`${server.url}/proxy/api/no-such-operation?shop=x&signature=y`);
    await send(`${server.url}/some/unknown/path/12345?token=abc`);
    // The registry the build's entry module exports is the one the app's code counts in.
    const appRegistry = (build.entry.module as unknown as { metricsRegistry: Registry }).metricsRegistry;
    (appRegistry.getSingleMetric("cache_lookups_total") as unknown as { inc(labels: object): void }).inc({
      cache: "shop-state",
      result: "hit",
    });

    const response = await send(`${server.url}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
    const body = response.body;
    expect(body).toContain('http_requests_total{route="/api/openapi.json",method="GET",status="200",code=""} 1');
    expect(body).toContain(
      'http_requests_total{route="/proxy/api/:operation",method="GET",status="404",code="NOT_FOUND"} 1',
    );
    expect(body).toContain('http_requests_total{route="other",method="GET",status="404",code=""}');
    expect(body).toMatch(/^http_request_duration_seconds_bucket\{le="0\.1",route="\/api\/openapi\.json"\} \d+$/m);
    expect(body).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(body).toMatch(/^nodejs_heap_size_used_bytes \d/m);
    for (const name of [
      "platform_points_total",
      "platform_throttled_total",
      "cache_lookups_total",
      "budget_units_total",
    ]) {
      expect(body).toContain(`# TYPE ${name} counter`);
    }
    expect(body).toContain('cache_lookups_total{cache="shop-state",result="hit"} 1');
    expect(body).not.toContain("12345");
    expect(body).not.toContain("no-such-operation");
  });
});

describe("static files, as remix-serve serves them", () => {
  test("fingerprinted /assets for a year, immutable; other build/client files for an hour", async () => {
    const asset = readdirSync(path.join(dir, "client/assets")).find((file) => file.endsWith(".js"))!;
    const fingerprinted = await send(`${server.url}/assets/${asset}`);
    expect(fingerprinted.status).toBe(200);
    expect(fingerprinted.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const robots = await send(`${server.url}/robots.txt`);
    expect(robots.status).toBe(200);
    expect(robots.headers["cache-control"]).toBe("public, max-age=3600");
    const routes = server
      .requestLines()
      .slice(-2)
      .map((line) => line.route);
    expect(routes).toEqual(["/assets/*", "static"]);
  });

  test("compressed for clients that accept it, as remix-serve does", async () => {
    const stylesheet = readdirSync(path.join(dir, "client/assets")).find((file) => file.endsWith(".css"))!;
    const gzipped = await send(`${server.url}/assets/${stylesheet}`, { headers: { "Accept-Encoding": "gzip" } });
    expect(gzipped.headers["content-encoding"]).toBe("gzip");
    const plain = await send(`${server.url}/assets/${stylesheet}`);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(Number(plain.headers["content-length"])).toBeGreaterThan(Buffer.byteLength(gzipped.body));
  });
});

describe("paths only resource routes can match", () => {
  test("are answered by Remix without Express; the rest goes through it", async () => {
    // Express's own entry point (untyped): every request it serves goes through it.
    const expressApp = server.appServer.app as unknown as { handle: (...args: unknown[]) => void };
    const viaExpress = vi.spyOn(expressApp, "handle");
    expect((await send(`${server.url}/test/cookies`)).status).toBe(200);
    expect((await send(`${server.url}/api/no-such-thing`)).status).toBe(404);
    expect(viaExpress).not.toHaveBeenCalled();
    expect((await send(`${server.url}/healthz`)).status).toBe(200);
    expect((await send(`${server.url}/no/such/page`)).status).toBe(404);
    expect(viaExpress).toHaveBeenCalledTimes(2);
  });

  test("compressed for clients that accept it, with every Set-Cookie and header of the route's response", async () => {
    const gzipped = await fetch(`${server.url}/test/cookies`, { headers: { "Accept-Encoding": "gzip" } });
    expect(gzipped.headers.get("content-encoding")).toBe("gzip");
    expect(gzipped.headers.get("vary")).toBe("Accept-Encoding");
    expect(gzipped.headers.getSetCookie()).toEqual(["a=1; Path=/; HttpOnly", "b=2; Path=/; HttpOnly"]);
    expect(gzipped.headers.get("cache-control")).toBe("no-store");
    expect(((await gzipped.json()) as { items: unknown[] }).items).toHaveLength(200);
    const plain = await send(`${server.url}/test/cookies`);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(plain.body).items).toHaveLength(200);
  });

  test("a method a resource route does not take is 405 with Allow (app/edge/resource-methods.server.ts)", async () => {
    const webhook = await send(`${server.url}/webhooks/app/uninstalled`);
    expect([webhook.status, webhook.headers.allow]).toEqual([405, "POST"]);
    const document = await send(`${server.url}/api/openapi.json`, { method: "POST", body: "{}" });
    expect([document.status, document.headers.allow]).toEqual([405, "GET, HEAD"]);
  });

  test("a streamed body goes out as it is produced", async () => {
    const response = await fetch(`${server.url}/test/stream`);
    const reader = response.body!.getReader();
    // The route produces its second chunk only once the first has reached the client.
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("first\n");
    wantSecondChunk();
    let rest = "";
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      rest += new TextDecoder().decode(chunk.value);
    expect(rest).toBe("second\n");
  });
});

describe("the access log", () => {
  test("one JSON line per request: path without its query, no credentials, the request id echoed", async () => {
    const response = await send(
      `${server.url}/app?shop=demo.myshopify.com&host=aG9zdA&id_token=eyJhbGciOiJIUzI1NiJ9.secret-id-token.sig&embedded=1`,
      {
        headers: {
          Authorization: "Bearer secret-bearer-value",
          Cookie: "session=secret-cookie-value",
          "X-Request-Id": "req-abc_123.x",
        },
      },
    );
    expect(response.headers["x-request-id"]).toBe("req-abc_123.x");
    const line = server.requestLines().find((entry) => entry.requestId === "req-abc_123.x");
    expect(line).toEqual({
      t: expect.any(String),
      level: "info",
      msg: "request",
      requestId: "req-abc_123.x",
      method: "GET",
      route: "/app",
      path: "/app",
      status: response.status,
      durationMs: expect.any(Number),
      clientAddress: "127.0.0.1",
    });
    const everything = server.output() + printed.join("");
    for (const secret of ["secret-id-token", "secret-bearer-value", "secret-cookie-value", "aG9zdA", "id_token"]) {
      expect(everything).not.toContain(secret);
    }
  });

  test("an X-Request-Id that is not a short safe token is replaced by a generated one", async () => {
    for (const unsafe of ["has spaces", "x".repeat(65), 'quote"d', "../../etc"]) {
      const response = await send(`${server.url}/healthz`, { headers: { "X-Request-Id": unsafe } });
      expect(response.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});

describe("the load context", () => {
  test("carries the request id and the client address; forwarding headers count only with TRUST_PROXY", async () => {
    const spoofed = {
      "X-Forwarded-For": "203.0.113.9",
      "X-Forwarded-Host": "evil.example:8443",
      "X-Forwarded-Proto": "https",
    };
    const direct = await send(`${server.url}/test/context`, { headers: { ...spoofed, "X-Request-Id": "ctx-1" } });
    expect(json(direct.body)).toEqual({
      requestId: "ctx-1",
      clientAddress: "127.0.0.1",
      hasLog: true,
      url: server.url,
      forwardedFor: null,
      search: "",
      sentSearch: "",
    });
    const proxied = await send(`${behindProxy.url}/test/context`, {
      // A proxy that keeps the Host header, as most do (the adapter takes the port from Host).
      headers: {
        Host: "app.example",
        "X-Forwarded-For": "198.51.100.7, 203.0.113.9",
        "X-Forwarded-Host": "app.example",
        "X-Forwarded-Proto": "https",
      },
    });
    expect(json(proxied.body)).toMatchObject({ clientAddress: "203.0.113.9", url: "https://app.example" });
    expect(behindProxy.requestLines().at(-1)).toMatchObject({ clientAddress: "203.0.113.9" });
  });

  test("carries the URL as sent, whose malformed escapes Remix rewrites in the loader's request", async () => {
    const response = await send(`${server.url}/test/context?context=wish%zzlist&bytes=%FF`);
    expect(json(response.body)).toMatchObject({
      search: "?context=wish%25zzlist&bytes=%EF%BF%BD",
      sentSearch: "?context=wish%zzlist&bytes=%FF",
    });
  });
});

describe("unknown paths and errors", () => {
  test("a failure turned into the envelope is logged as one JSON line, its message and causes redacted", async () => {
    const response = await send(`${server.url}/test/envelope-error`);
    expect(response.status).toBe(500);
    expect(json(response.body).error.code).toBe("INTERNAL_ERROR");
    const lines = printed.join("").split("\n").filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: "error",
      msg: "request failed",
      code: "INTERNAL_ERROR",
      cause: { message: expect.stringContaining("shpat_[redacted]"), cause: { message: expect.any(String) } },
    });
    for (const secret of ["0123456789abcdef", "sig-value-456", "eyJzdWIiOiIxIn0", "c2lnbmF0dXJl"])
      expect(lines[0]).not.toContain(secret);
  });

  test("a failure that escapes the app is answered by the server with the envelope of its ServiceError, else INTERNAL_ERROR", async () => {
    let thrown: unknown;
    const failing = {
      ...build,
      entry: { ...build.entry, module: { ...build.entry.module, runInRequestScope: () => Promise.reject(thrown) } },
    } as ServerBuild;
    const escaped = await startInProcess(failing, path.join(dir, "client"));
    try {
      thrown = new ServiceError("RATE_LIMITED", "Too many requests");
      const limited = await send(`${escaped.url}/api/headless/list`);
      expect([limited.status, json(limited.body)]).toEqual([
        429,
        { ok: false, error: { code: "RATE_LIMITED", message: "Too many requests", retryable: true } },
      ]);
      thrown = new Error("a bug");
      const unknown = await send(`${escaped.url}/api/headless/list`);
      expect([unknown.status, json(unknown.body)]).toEqual([
        500,
        { ok: false, error: { code: "INTERNAL_ERROR", message: "Unexpected failure", retryable: true } },
      ]);
    } finally {
      await escaped.stop();
    }
  });

  test("an unknown path is a plain 404 (JSON under /api/ and /proxy/), with nothing logged but its access line", async () => {
    const page = await send(`${server.url}/no/such/page?token=abc`);
    expect(page.status).toBe(404);
    expect(page.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(page.body).toBe("404 Not Found\n");
    const api = await send(`${server.url}/api/no-such-thing`);
    expect(api.status).toBe(404);
    expect(json(api.body)).toEqual({
      ok: false,
      error: { code: "NOT_FOUND", message: "No route for this path", retryable: false },
    });
    const data = await send(`${server.url}/no/such/page?_data=root`);
    expect(data.status).toBe(404);
    expect(printed.join("")).toBe("");
    expect(server.lines().filter((line) => line.level !== "info")).toEqual([]);
    expect(
      server
        .requestLines()
        .slice(-3)
        .map((line) => [line.route, line.path, line.status]),
    ).toEqual([
      ["other", "/no/such/page", 404],
      ["other", "/api/no-such-thing", 404],
      ["other", "/no/such/page", 404],
    ]);
  });

  test("a real error is logged once, as one JSON line with the request id, its secrets redacted", async () => {
    const response = await send(`${server.url}/test/throws?signature=query-sig`, {
      headers: { "X-Request-Id": "err-1" },
    });
    expect(response.status).toBe(500);
    const lines = printed.join("").split("\n").filter(Boolean);
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!);
    expect(line).toMatchObject({
      level: "error",
      msg: "unhandled error",
      requestId: "err-1",
      method: "GET",
      path: "/test/throws",
    });
    expect(line.error.message).toBe("boom calling https://example.test/callback?[redacted]");
    for (const secret of ["sig-value-123", "c2ln", "query-sig"]) expect(lines[0]).not.toContain(secret);
    expect(server.requestLines().find((entry) => entry.requestId === "err-1")).toMatchObject({ status: 500 });
  });
});
