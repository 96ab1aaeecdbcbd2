import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Prisma } from "@prisma/client";
import pg from "pg";
import { repoRoot } from "@saved-items/sandbox/config";
import { afterAll, afterEach, beforeEach, describe, expect, inject, test, vi } from "vitest";
import { createTestDatabase, everyKindOfTestDatabases, type TestDatabase } from "@saved-items/sandbox/test-databases";
import { KEPT_TABLES } from "./kept-tables";
import { DEFAULT_DATABASE_URL, parseDatabaseUrl } from "~/config/database-url";
import db from "~/db.server";
import { CONNECT_TIMEOUT_MS, createPool } from "~/infrastructure/database/pool.server";

const scratch = mkdtempSync(path.join(tmpdir(), "saved-items-database-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("DATABASE_URL", () => {
  test("postgres:// and postgresql:// name a server; pglite: names the embedded database, in a directory or in memory", () => {
    expect(parseDatabaseUrl("postgres://app:secret@db.internal:5432/saved_items")).toEqual({
      kind: "postgres",
      url: "postgres://app:secret@db.internal:5432/saved_items",
    });
    expect(parseDatabaseUrl("postgresql://app@db/saved_items?sslmode=require").kind).toBe("postgres");
    expect(parseDatabaseUrl("pglite:memory")).toEqual({ kind: "embedded", dataDir: "memory" });
    expect(parseDatabaseUrl("pglite:/var/lib/saved-items")).toEqual({
      kind: "embedded",
      dataDir: "/var/lib/saved-items",
    });
    expect(parseDatabaseUrl(DEFAULT_DATABASE_URL)).toEqual({ kind: "embedded", dataDir: path.resolve(".data/pglite") });
  });

  test.each([
    ["file:./prisma/dev.sqlite", 'uses the scheme "file:", which is neither postgres: nor pglite:'],
    ["mysql://app@db/saved_items", 'uses the scheme "mysql:"'],
    ["localhost:5432", 'uses the scheme "localhost:"'],
    ["postgres:///saved_items", "names no host"],
    ["pglite:", "names no data directory"],
    ["db.internal", "is not a URL"],
  ])("%s is refused at start, saying what to set instead", async (url, problem) => {
    vi.resetModules();
    vi.stubEnv("DATABASE_URL", url);
    try {
      const { getEnv } = await import("~/config/env.server");
      const message = (() => {
        try {
          getEnv();
        } catch (error) {
          return (error as Error).message;
        }
      })();
      expect(message).toContain(`DATABASE_URL: ${problem}`);
      expect(message).toContain("set DATABASE_URL to postgres://USER:PASSWORD@HOST:5432/DATABASE, or to pglite:");
      expect(() => parseDatabaseUrl(url)).toThrow(`DATABASE_URL ${problem}`);
    } finally {
      vi.unstubAllEnvs();
      vi.resetModules();
    }
  });
});

describe("the connection pool", () => {
  test("an unreachable database fails within the connect timeout instead of hanging", async () => {
    // The pool's timers run on the test's clock; the sockets keep real time.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    // Accepts connections and never answers, like a server behind a dropped route.
    const sockets: Socket[] = [];
    let heard!: () => void;
    const startupSent = new Promise<void>((resolve) => (heard = resolve));
    const silent = createServer((socket) => {
      sockets.push(socket);
      socket.once("data", () => heard());
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as { port: number };
    const pool = createPool(`postgres://postgres@127.0.0.1:${port}/postgres`);
    try {
      let settled = false;
      const query = pool.query("SELECT 1");
      query.catch(() => {}).finally(() => (settled = true));
      await startupSent;
      await vi.advanceTimersByTimeAsync(CONNECT_TIMEOUT_MS - 1);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await expect(query).rejects.toThrow(/timeout/i);
    } finally {
      vi.useRealTimers();
      await pool.end();
      sockets.forEach((socket) => socket.destroy());
      silent.close();
    }
  });
});

describe("the test database", () => {
  const counts = async () =>
    Promise.all(
      Prisma.dmmf.datamodel.models.map(async (model) => {
        const rows = await db.$queryRawUnsafe<{ count: number }[]>(
          `SELECT count(*)::int AS count FROM "${model.dbName ?? model.name}"`,
        );
        return [model.name, rows[0]!.count] as const;
      }),
    );

  test("(one test writes a row into every model's table)", async () => {
    await db.shop.create({ data: { domain: "reset.myshopify.com" } });
    await db.usageCounter.create({ data: { shopDomain: "reset.myshopify.com", period: "2026-11", count: 3 } });
    await db.session.create({
      data: { id: "offline_reset", shop: "reset.myshopify.com", state: "", accessToken: "t" },
    });
    await db.pendingCustomerRedaction.create({
      data: { shopDomain: "reset.myshopify.com", customerGid: "gid://shopify/Customer/1" },
    });
    await db.customerUsage.create({
      data: { shopDomain: "reset.myshopify.com", customerGid: "gid://shopify/Customer/1", period: "2026-11", count: 1 },
    });
    await db.flowTriggerUse.create({
      data: { shopDomain: "reset.myshopify.com", handle: "item-saved", enabled: true, reportedAt: new Date() },
    });
    await db.reachFanOut.create({
      data: {
        shopDomain: "reset.myshopify.com",
        webhookId: "webhook-1",
        productGid: "gid://shopify/Product/1",
        changes: [],
        runAfter: new Date(),
      },
    });
    await db.overageSetting.create({ data: { shopDomain: "reset.myshopify.com", capCents: 1_000 } });
    await db.overageUsage.create({ data: { shopDomain: "reset.myshopify.com", period: "2026-11", count: 1 } });
    await db.overageBlock.create({
      data: {
        shopDomain: "reset.myshopify.com",
        period: "2026-11",
        block: 1,
        idempotencyKey: "k",
        priceCents: 200,
        attemptedAt: new Date(),
      },
    });
    await db.savedByProduct.create({
      data: { shopDomain: "reset.myshopify.com", productGid: "gid://shopify/Product/1" },
    });
    await db.savedByRecount.create({ data: { shopDomain: "reset.myshopify.com", runAfter: new Date() } });
    await db.listRetention.create({ data: { shopDomain: "reset.myshopify.com", runAfter: new Date() } });
    await db.backgroundJob.create({ data: { name: "reset", runAfter: new Date() } });
    await db.coordinationMode.create({ data: { scope: "reset", epoch: 1, mode: "redis", changedAt: new Date() } });
    await db.coordinationInstance.create({
      data: { scope: "reset", instanceId: "a", seenAt: new Date(), redisReachable: true },
    });
    await db.fallbackLock.create({
      data: { scope: "reset", key: "list", token: "t", fence: 1, expiresAt: new Date() },
    });
    expect((await counts()).every(([, count]) => count > 0)).toBe(true);
  });

  test("is emptied before every test, every model's table included but the coordinator's registration", async () => {
    expect(Object.fromEntries(await counts())).toEqual(
      Object.fromEntries(
        Prisma.dmmf.datamodel.models.map((model) => [model.name, KEPT_TABLES.has(model.name) ? 1 : 0]),
      ),
    );
  });
});

const kinds = await everyKindOfTestDatabases(inject("testDatabases"));

describe.each(kinds.map((databases) => [databases.kind, databases] as const))(
  "a test database (%s)",
  (_, databases) => {
    let database: TestDatabase;
    let pool: pg.Pool;
    beforeEach(async () => {
      database = await createTestDatabase(databases);
      pool = new pg.Pool({ connectionString: database.url, max: 8 });
    });
    afterEach(async () => {
      await pool.end();
      await database.drop();
    });

    test("serves concurrent parameterized queries and transactions from several connections, each kept to itself", async () => {
      const echoes = await Promise.all(
        Array.from(
          { length: 200 },
          async (_, i) => (await pool.query("SELECT $1::int AS n, $2::text AS s", [i, `s${i}`])).rows[0],
        ),
      );
      expect(echoes).toEqual(Array.from({ length: 200 }, (_, i) => ({ n: i, s: `s${i}` })));

      await pool.query(`INSERT INTO "Shop" (domain) VALUES ('tx.myshopify.com')`);
      await pool.query(`INSERT INTO "UsageCounter" ("shopDomain", period) VALUES ('tx.myshopify.com', '2026-11')`);
      // Read-modify-write in transactions: a lost update or another connection's statement inside
      // a transaction would show in the total.
      await Promise.all(
        Array.from({ length: 40 }, async () => {
          const client = await pool.connect();
          try {
            await client.query("BEGIN");
            const { rows } = await client.query(
              `SELECT count FROM "UsageCounter" WHERE "shopDomain" = $1 AND period = $2 FOR UPDATE`,
              ["tx.myshopify.com", "2026-11"],
            );
            await client.query(`UPDATE "UsageCounter" SET count = $1 WHERE "shopDomain" = $2 AND period = $3`, [
              rows[0].count + 1,
              "tx.myshopify.com",
              "2026-11",
            ]);
            await client.query("COMMIT");
          } finally {
            client.release();
          }
        }),
      );
      const { rows } = await pool.query(`SELECT count FROM "UsageCounter" WHERE "shopDomain" = 'tx.myshopify.com'`);
      expect(rows).toEqual([{ count: 40 }]);
    });

    test("a connection that goes away inside a transaction has it rolled back, and blocks no one", async () => {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      await client.query("BEGIN");
      await client.query(`INSERT INTO "Shop" (domain) VALUES ('abandoned.myshopify.com')`);
      await client.end();

      await pool.query(`INSERT INTO "Shop" (domain) VALUES ('next.myshopify.com')`);
      const { rows } = await pool.query(`SELECT domain FROM "Shop"`);
      expect(rows).toEqual([{ domain: "next.myshopify.com" }]);
    });
  },
);

describe("the embedded database (pglite: DATABASE_URL)", () => {
  interface Run {
    report: { health: boolean; migrations: { ok: boolean; missing: string[]; unknown: string[] }; shops: number };
    exit: { code: number | null; signal: NodeJS.Signals | null };
  }

  /** The app's database module in a process of its own, opened as the server opens it. */
  function startApp(dataDir: string, newShop = "") {
    return spawn(process.execPath, ["--import", "tsx", "tests/setup/fixtures/embedded-app.ts", newShop], {
      cwd: repoRoot,
      env: { ...process.env, DATABASE_URL: `pglite:${dataDir}` },
      stdio: ["ignore", "pipe", "pipe"],
    });
  }

  /** Runs the app until it has reported, then sends it SIGTERM. */
  function runApp(dataDir: string, newShop = ""): Promise<Run> {
    const child = startApp(dataDir, newShop);
    let output = "";
    child.stderr.on("data", (chunk) => (output += chunk));
    return new Promise((resolve, reject) => {
      let report: Run["report"] | undefined;
      child.stdout.on("data", (chunk) => {
        output += chunk;
        const line = output.split("\n").find((candidate) => candidate.startsWith("{"));
        if (line && !report) {
          report = JSON.parse(line);
          child.kill("SIGTERM");
        }
      });
      child.once("exit", (code, signal) =>
        report ? resolve({ report, exit: { code, signal } }) : reject(new Error(output)),
      );
    });
  }

  test("is created and migrated at start, closed cleanly on SIGTERM, and kept in its directory", async () => {
    const dataDir = path.join(scratch, "pglite");
    // A lock left by a process that died without stopping the database does not keep it shut.
    const dead = spawn(process.execPath, ["-e", ""]);
    await new Promise((resolve) => dead.once("exit", resolve));
    writeFileSync(`${dataDir}.lock`, String(dead.pid));

    const first = await runApp(dataDir, "kept.myshopify.com");
    expect(first.report).toEqual({ health: true, migrations: { ok: true, missing: [], unknown: [] }, shops: 0 });
    // Ended by the signal, as a process with no database would have been, and after letting go of it.
    expect(first.exit).toEqual({ code: null, signal: "SIGTERM" });
    expect(existsSync(`${dataDir}.lock`)).toBe(false);

    const second = await runApp(dataDir);
    expect(second.report.shops).toBe(1);
    // Two starts of the embedded database, each over a minute beside another run of the suite.
  }, 240_000);

  test("is refused to a second process while one owns it", async () => {
    const dataDir = path.join(scratch, "owned");
    writeFileSync(`${dataDir}.lock`, String(process.pid));
    await expect(runApp(dataDir)).rejects.toThrow(
      `The embedded database in ${dataDir} is open in process ${process.pid}, and one process owns it`,
    );
  }, 60_000);
});
