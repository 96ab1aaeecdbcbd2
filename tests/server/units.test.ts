// The server's pure parts: configuration, route labels, request ids, redaction.
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { errorFields, redactSecrets } from "~/lib/json-log";
import {
  batchedLineWriter,
  LOG_WINDOW_MS,
  loggedPath,
  methodLabel,
  normaliseAddress,
  requestIdFrom,
  RouteLabels,
} from "../../server/access-log";
import { ConfigError } from "~/config/env.server";
import { missingNodeFlags, SERVER_NODE_FLAGS, serverConfigOf } from "../../server/config";
import { testEnv } from "../support/test-env";

const serverConfig = (variables: Record<string, string>) => serverConfigOf(testEnv(variables));

describe("the server's configuration", () => {
  test("defaults: port 3000 on every interface, 1024 connections (128 open and 64 pending per client), 5 s headers / 30 s request / 10 s body at 16 KiB/s where the body is the credential, 32 MiB of such bodies, 5 s keep-alive", () => {
    expect(serverConfig({})).toEqual({
      port: 3000,
      host: undefined,
      maxConnections: 1024,
      maxPendingPerClient: 64,
      maxConnectionsPerClient: 128,
      minBodyBytesPerSecond: 16_384,
      unauthenticatedBodyBudgetBytes: 32 * 1024 * 1024,
      headersTimeoutMs: 5_000,
      requestTimeoutMs: 30_000,
      bodyTimeoutMs: 10_000,
      keepAliveTimeoutMs: 5_000,
      lingerMs: 2_000,
      shutdownTimeoutMs: 10_000,
      metricsToken: undefined,
      trustProxy: 0,
    });
  });

  test("reads seconds as fractions, and empty values as unset", () => {
    const config = serverConfig({
      BODY_TIMEOUT_SECONDS: "0.5",
      HEADERS_TIMEOUT_SECONDS: "",
      METRICS_TOKEN: "",
      TRUST_PROXY: "2",
      HOST: "127.0.0.1",
    });
    expect(config).toMatchObject({
      bodyTimeoutMs: 500,
      headersTimeoutMs: 5_000,
      metricsToken: undefined,
      trustProxy: 2,
      host: "127.0.0.1",
    });
  });

  test("names every variable to fix at once", () => {
    let error: unknown;
    try {
      serverConfig({
        PORT: "http",
        MAX_CONNECTIONS: "0",
        KEEP_ALIVE_TIMEOUT_SECONDS: "abc",
        METRICS_TOKEN: "has space in it 1234",
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).issues.map((issue) => issue.split(":")[0])).toEqual([
      "PORT",
      "MAX_CONNECTIONS",
      "KEEP_ALIVE_TIMEOUT_SECONDS",
      "METRICS_TOKEN",
    ]);
    expect((error as Error).message).toMatch(/^Invalid configuration; set these environment variables:\n {2}- PORT: /);
  });

  test("refuses a budget of unauthenticated bodies smaller than one webhook's bound", () => {
    expect(() => serverConfig({ UNAUTHENTICATED_BODY_BUDGET_MIB: "3" })).toThrow(
      "UNAUTHENTICATED_BODY_BUDGET_MIB: set UNAUTHENTICATED_BODY_BUDGET_MIB to a whole number from 4",
    );
  });

  test("refuses deadlines node would refuse: headers or body longer than the whole request", () => {
    expect(() => serverConfig({ HEADERS_TIMEOUT_SECONDS: "60" })).toThrow(
      "HEADERS_TIMEOUT_SECONDS: must not be longer than REQUEST_TIMEOUT_SECONDS",
    );
    expect(() => serverConfig({ BODY_TIMEOUT_SECONDS: "31" })).toThrow(
      "BODY_TIMEOUT_SECONDS: must not be longer than REQUEST_TIMEOUT_SECONDS",
    );
  });
});

describe("RouteLabels", () => {
  const labels = new RouteLabels([
    "/",
    "/proxy/api/:operation",
    "/api/headless/:operation",
    "/api/headless/auth/exchange",
    "/api/openapi.json",
    "/app",
    "/app/plans",
    "/auth/*",
  ]);

  test.each([
    ["/", "/"],
    ["/proxy/api/save", "/proxy/api/:operation"],
    ["/proxy/api/anything-at-all", "/proxy/api/:operation"],
    ["/api/headless/auth/exchange", "/api/headless/auth/exchange"],
    ["/api/headless/list", "/api/headless/:operation"],
    ["/API/OpenAPI.json", "/api/openapi.json"],
    ["/app/", "/app"],
    ["/app/plans", "/app/plans"],
    ["/auth/login", "/auth/*"],
    ["/auth/callback/x/y", "/auth/*"],
  ])("%s → %s", (pathname, pattern) => {
    expect(labels.match(pathname)).toBe(pattern);
  });

  test("anything else matches nothing (the server labels it other), malformed escapes included", () => {
    for (const pathname of ["/proxy/api/save/extra", "/app/unknown", "/wp-login.php", "/%E0%A4%A", "/proxy"]) {
      expect(labels.match(pathname), pathname).toBeUndefined();
    }
  });
});

describe("loggedPath", () => {
  const jwt = [
    Buffer.from('{"alg":"HS256","typ":"JWT"}').toString("base64url"),
    Buffer.from('{"iss":"https://demo.myshopify.com/admin","sub":"1"}').toString("base64url"),
    "c2lnbmF0dXJlLXNpZ25hdHVyZS1zaWduYXR1cmU",
  ].join(".");

  test.each([
    [`/app/${jwt}`, "/app/h:"],
    [`/app/${jwt}/plans`, "/app/h:"],
    [`/api/${encodeURIComponent(jwt)}`, "/api/h:"],
    [`/${jwt}${"x".repeat(300)}.y`, "/h:"],
    ["/api/shpat_0123456789abcdef0123456789abcdef", "/api/h:"],
    ["/x/dGhpcyBpcyBhIGxvbmcgb3BhcXVlIHRva2VuIDEyMzQ1Njc4", "/x/h:"],
  ])("hashes a token-shaped segment: %s", (path, start) => {
    const logged = loggedPath(path, undefined);
    expect(logged.startsWith(start)).toBe(true);
    expect(logged).toMatch(/\/h:[0-9a-f]{8}(\/|$)/);
    expect(logged).not.toContain(jwt.slice(0, 20));
    expect(logged).not.toContain("0123456789abcdef");
  });

  test.each([
    "/proxy/api/is-saved",
    "/api/headless/toggle",
    "/products/the-very-long-handle-of-a-snowboard-2024-edition",
    "/app/plans",
    "/assets/entry.client-BZ3kQ9aW.js",
  ])("keeps %s", (path) => {
    expect(loggedPath(path, undefined)).toBe(path);
  });
});

describe("request ids and labels", () => {
  test("a short safe X-Request-Id is kept; anything else gets a new UUID", () => {
    expect(requestIdFrom("abc-DEF_1.2")).toBe("abc-DEF_1.2");
    expect(requestIdFrom(["first-id", "second"])).toBe("first-id");
    for (const unsafe of [undefined, "", "a b", "x".repeat(65), "a/b", "<script>", "id\n{json}"]) {
      expect(requestIdFrom(unsafe)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    }
  });

  test("addresses and methods", () => {
    expect(normaliseAddress("::ffff:10.0.0.1")).toBe("10.0.0.1");
    expect(normaliseAddress("::1")).toBe("::1");
    expect(methodLabel("PATCH")).toBe("PATCH");
    expect(methodLabel("PROPFIND")).toBe("other");
  });
});

describe("the server's node flags", () => {
  test("missingNodeFlags reads the command line and NODE_OPTIONS", () => {
    expect(missingNodeFlags([], "")).toEqual([...SERVER_NODE_FLAGS]);
    expect(missingNodeFlags([...SERVER_NODE_FLAGS], "")).toEqual([]);
    expect(missingNodeFlags([], ` --max-old-space-size=512 ${SERVER_NODE_FLAGS.join(" ")}`)).toEqual([]);
  });
});

describe("batchedLineWriter", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  test("the lines of one window go out in one write, at its end", () => {
    const writes: string[] = [];
    const writeLine = batchedLineWriter(
      (text) => writes.push(text),
      () => {},
    );
    writeLine("a\n");
    vi.advanceTimersByTime(LOG_WINDOW_MS - 1);
    writeLine("b\n");
    expect(writes).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(writes).toEqual(["a\nb\n"]);
    writeLine("c\n");
    vi.advanceTimersByTime(LOG_WINDOW_MS);
    expect(writes).toEqual(["a\nb\n", "c\n"]);
  });

  test("a window that gets many lines writes them in bounded batches", () => {
    const writes: string[] = [];
    const writeLine = batchedLineWriter(
      (text) => writes.push(text),
      () => {},
    );
    for (let i = 0; i < 600; i++) writeLine(`${i}\n`);
    expect(writes.map((text) => text.split("\n").length - 1)).toEqual([256, 256]);
    vi.advanceTimersByTime(LOG_WINDOW_MS);
    expect(writes.join("").split("\n").length - 1).toBe(600);
  });

  test("what is pending is written when the process exits", () => {
    const writes: string[] = [];
    let exit = () => {};
    const writeLine = batchedLineWriter(
      (text) => writes.push(text),
      (flush) => (exit = flush),
    );
    writeLine("last words\n");
    exit();
    expect(writes).toEqual(["last words\n"]);
  });
});

describe("redactSecrets", () => {
  test("takes query strings, secret parameters, bearer credentials, platform tokens and JWTs out of free text", () => {
    const text = [
      "GET https://shop.example/apps/saved-items/api/list?shop=a&signature=abc123&timestamp=1",
      'No route matches URL "/app?id_token=tok.en.value&host=x"',
      "retrying with signature=deadbeef and hmac=cafe",
      "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig",
      "token shpat_0123456789abcdef leaked",
      "jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl inline",
    ].join("\n");
    const redacted = redactSecrets(text);
    for (const secret of [
      "abc123",
      "tok.en.value",
      "deadbeef",
      "cafe",
      "eyJzdWIiOiIxIn0",
      "0123456789abcdef",
      "c2lnbmF0dXJl",
    ]) {
      expect(redacted).not.toContain(secret);
    }
    expect(redacted).toContain("https://shop.example/apps/saved-items/api/list?[redacted]");
    expect(redacted).toContain('"/app?[redacted]"');
  });

  test("inputs built to make a pattern backtrack come out redacted and bounded", () => {
    const slashes = `/app${"/".repeat(15_000)}`;
    const error = new TypeError(`Invalid URL: http://a b${slashes}?signature=s3cret`);
    const fields = errorFields(error);
    expect(String(fields.message).length).toBeLessThanOrEqual(2000);
    expect(String(fields.stack).length).toBeLessThanOrEqual(8000);
    expect(redactSecrets(`${slashes}?signature=s3cret "x"`)).toBe(`${slashes}?[redacted] "x"`);
    expect(redactSecrets(`${"eyJ-".repeat(5000)}`)).toBe(`${"eyJ-".repeat(5000)}`);
    expect(redactSecrets(`see /proxy/shared/${"A".repeat(43)} and a/b?c=1`)).toBe(
      "see /proxy/shared/[redacted] and a/b?[redacted]",
    );
  });

  test("error fields carry name, message and stack redacted, and causes", () => {
    const error = new Error("outer https://x.test/a?token=1", { cause: new Error("inner signature=2") });
    const fields = errorFields(error);
    expect(fields).toMatchObject({
      name: "Error",
      message: "outer https://x.test/a?[redacted]",
      cause: { message: "inner signature=[redacted]" },
    });
    expect(String(fields.stack)).not.toContain("token=1");
  });
});
