// `npm start` as built: node build/server.js, a bundle of server/ next to the Remix build.
import { readdirSync } from "node:fs";
import { connect, type Socket } from "node:net";
import path from "node:path";
import pg from "pg";
import { afterEach, beforeAll, describe, expect, test } from "vitest";
import { platformServer } from "../support/platform";
import { repoRoot } from "@saved-items/sandbox/config";
import { freshDatabaseUrl, send, serverBuildDir, sleep, startBuiltServer, type ChildServer } from "../support/server";

let dir: string;
const children: ChildServer[] = [];

beforeAll(async () => {
  platformServer.close();
  dir = await serverBuildDir();
}, 240_000);

afterEach(async () => {
  await Promise.all(children.splice(0).map((child) => child.stop()));
});

async function start(env: Record<string, string>) {
  const child = await startBuiltServer(dir, env);
  children.push(child);
  return child;
}

describe("the bundle", () => {
  test("npm start runs it with the server's node flags, and its /metrics holds the build's metrics beside its own", async () => {
    const token = "metrics-token-0123456789abcdef";
    const child = await startBuiltServer(
      dir,
      { DATABASE_URL: await freshDatabaseUrl(), METRICS_TOKEN: token },
      { npmStart: true },
    );
    children.push(child);
    const metrics = await send(`${child.url}/metrics`, { headers: { Authorization: `Bearer ${token}` } });
    expect(metrics.status).toBe(200);
    expect(metrics.body).toMatch(/^# TYPE http_requests_total counter$/m);
    // Defined in the app's modules: the server reads the build's registry, not a copy of its own.
    expect(metrics.body).toMatch(/^# TYPE platform_points_total counter$/m);
    expect(child.output()).toContain('"msg":"listening"');
    expect(child.output()).not.toContain("started without the server's node flags");
  });

  test("the app's annotations reach the access log: the handlers run in the build's own request scope", async () => {
    const child = await start({ DATABASE_URL: await freshDatabaseUrl() });
    const response = await send(`${child.url}/api/headless/auth/exchange?debug=secret-query-value`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Request-Id": "built-1" },
      body: JSON.stringify({ shop: "demo.myshopify.com", customerAccountAccessToken: "cat-secret-value" }),
    });
    expect(response.status).toBe(403);
    // Written by the child within its log window.
    await expect
      .poll(() => child.lines().find((line) => line.requestId === "built-1"))
      .toEqual({
        t: expect.any(String),
        level: "info",
        msg: "request",
        requestId: "built-1",
        method: "POST",
        route: "/api/headless/auth/exchange",
        path: "/api/headless/auth/exchange",
        status: 403,
        durationMs: expect.any(Number),
        clientAddress: "127.0.0.1",
        code: "SHOP_NOT_INSTALLED",
      });
    expect(child.output()).not.toContain("secret-query-value");
    expect(child.output()).not.toContain("cat-secret-value");
  });
});

describe("the listen backlog", () => {
  // Node's default backlog (511): past it the kernel drops new connections' SYNs.
  const NODE_DEFAULT_BACKLOG = 511;

  test("a burst of connections from one address longer than node's default backlog waits to be accepted, and another address still gets in", async () => {
    const child = await start({ DATABASE_URL: await freshDatabaseUrl() });
    const sockets: Socket[] = [];
    let connected = 0;
    const open = (localAddress: string) => {
      const socket = connect({ port: child.port, host: "127.0.0.1", localAddress });
      sockets.push(socket);
      socket.on("error", () => {});
      return new Promise<void>((resolve) =>
        socket.once("connect", () => {
          connected++;
          resolve();
        }),
      );
    };
    // Stopped, the server accepts nothing: the kernel completes handshakes only while its queue has room.
    child.child.kill("SIGSTOP");
    try {
      const burst = NODE_DEFAULT_BACKLOG + 40;
      for (let index = 0; index < burst; index++) void open("127.0.0.2");
      await expect.poll(() => connected, { timeout: 20_000 }).toBeGreaterThanOrEqual(NODE_DEFAULT_BACKLOG);
      const probe = open("127.0.0.1");
      // A dropped SYN is resent after 1, 3 and 7 s, each dropped again while the server is stopped:
      // the probe gets in at once or not at all, so the wait is long only for a slow machine's sake.
      const outcome = await Promise.race([probe.then(() => "connected"), sleep(10_000).then(() => "dropped")]);
      expect(outcome).toBe("connected");
      expect(connected).toBe(burst + 1);
    } finally {
      child.child.kill("SIGCONT");
      for (const socket of sockets) socket.destroy();
    }
  }, 60_000);
});

describe("configuration", () => {
  test.each([
    [
      "MAX_CONNECTIONS",
      { MAX_CONNECTIONS: "lots" },
      "MAX_CONNECTIONS: set MAX_CONNECTIONS to a whole number from 1 to 1000000 (default 1024)",
    ],
    [
      "BODY_TIMEOUT_SECONDS",
      { BODY_TIMEOUT_SECONDS: "-1" },
      "BODY_TIMEOUT_SECONDS: set BODY_TIMEOUT_SECONDS to a number of seconds",
    ],
    [
      "METRICS_TOKEN",
      { METRICS_TOKEN: "short" },
      "METRICS_TOKEN: set METRICS_TOKEN to at least 16 printable characters",
    ],
    ["TRUST_PROXY", { TRUST_PROXY: "true" }, "TRUST_PROXY: set TRUST_PROXY to a whole number from 0 to 10"],
    ["the app's own variables", { DIRECT_API_JWT_SECRET: "" }, "DIRECT_API_JWT_SECRET"],
    ["SKIP_MIGRATIONS", { SKIP_MIGRATIONS: "yes" }, "SKIP_MIGRATIONS: set SKIP_MIGRATIONS to 1, or leave it unset"],
  ])("a bad %s stops the server at start with a message naming what to set", async (_name, env, message) => {
    const child = await start({ DATABASE_URL: await freshDatabaseUrl(), ...env });
    const { code } = await child.exited;
    expect(code).toBe(1);
    expect(child.output()).toContain(message);
    expect(child.output()).not.toContain('"msg":"listening"');
  });
});

describe("GET /readyz", () => {
  test("503 naming the failed check when a shipped migration is not applied", async () => {
    const url = await freshDatabaseUrl();
    const migrations = readdirSync(path.join(repoRoot, "prisma/migrations"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    const latest = migrations.at(-1)!;
    const database = new pg.Client({ connectionString: url });
    await database.connect();
    await database.query(`DELETE FROM "_prisma_migrations" WHERE migration_name = $1`, [latest]);
    await database.end();

    // Started without migrating, as an instance whose deploy runs the migrations separately.
    const token = "metrics-token-0123456789abcdef";
    const child = await start({ DATABASE_URL: url, SKIP_MIGRATIONS: "1", METRICS_TOKEN: token });
    const response = await send(`${child.url}/readyz`, { headers: { Authorization: `Bearer ${token}` } });
    expect(response.status).toBe(503);
    expect(JSON.parse(response.body)).toEqual({
      ok: false,
      away: [],
      checks: { database: { ok: true }, migrations: { ok: false, detail: `pending: ${latest}` } },
    });
    // Without the token: the same status, and nothing about the migrations.
    const anyone = await send(`${child.url}/readyz`);
    expect(anyone.status).toBe(503);
    expect(JSON.parse(anyone.body)).toEqual({ ok: false });
    expect((await send(`${child.url}/healthz`)).status).toBe(200);
  });
});
