// Faults survived: the production server (build/server.js) with its database and Redis behind
// relays that a test can cut and restore, and the platform emulated over HTTP.
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createPlatformEmulator } from "@saved-items/platform-emulator";
import { startEmulatorServer } from "@saved-items/platform-emulator/http-server";
import { freshDatabaseUrl, serverBuildDir, startBuiltServer, type ChildServer } from "../support/server";
import { signedProxyUrl } from "@saved-items/sandbox/proxy-signature";
import { createRelay } from "../support/relay";
import { TEST_ENV } from "../support/test-env";
import { describeWithRedis } from "../support/instances";

const SHOP = "outage.myshopify.com";
/** /readyz names its checks only to a caller with the metrics token. */
const METRICS_TOKEN = "outages-metrics-token-0123456789";
const REDIS_KEY_PREFIX = `outages-${process.pid}-${Date.now()}`;

type Relay = Awaited<ReturnType<typeof createRelay>>;
let server: ChildServer;
let database: Relay;
/** The database itself, not through the relay. */
let databaseUrl: string;
let redis: Relay;
let closeEmulator: (() => Promise<void>) | undefined;

beforeAll(async () => {
  const emulator = createPlatformEmulator({
    clientId: TEST_ENV.SHOPIFY_API_KEY,
    clientSecret: TEST_ENV.SHOPIFY_API_SECRET,
  });
  const platform = await startEmulatorServer({ emulator });
  closeEmulator = platform.close;
  const { adminCredentials } = emulator.addShop({ domain: SHOP, plan: "pro" });
  databaseUrl = await freshDatabaseUrl();
  await seed(databaseUrl, adminCredentials!);
  database = await createRelay(databaseUrl);
  redis = await createRelay(process.env.REDIS_URL!);
  server = await startBuiltServer(await serverBuildDir(), {
    DATABASE_URL: database.url,
    REDIS_URL: redis.url,
    REDIS_KEY_PREFIX,
    SANDBOX_PLATFORM_URL: platform.url,
    METRICS_TOKEN,
    // The suite's bound (scripts/services.sh), not production's 1 s: on a loaded machine a command
    // answered late would read as Redis away too, and with the database away that is refused.
  });
}, 240_000);

afterAll(async () => {
  await server?.stop();
  await closeEmulator?.();
});

async function seed(
  url: string,
  credentials: { accessToken: string; expiresAt: string | null; refreshToken: string | null; scope: string },
) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`INSERT INTO "Shop" ("domain", "plan") VALUES ($1, 'pro')`, [SHOP]);
  await client.query(
    `INSERT INTO "Session" ("id", "shop", "state", "isOnline", "scope", "expires", "accessToken", "refreshToken")
     VALUES ($1, $2, '', false, $3, $4, $5, $6)`,
    [
      `offline_${SHOP}`,
      SHOP,
      credentials.scope,
      credentials.expiresAt,
      credentials.accessToken,
      credentials.refreshToken,
    ],
  );
  await client.end();
}

async function call(path: string, customer: string, options: { query?: Record<string, string>; body?: unknown } = {}) {
  const url = signedProxyUrl(server.url, path, TEST_ENV.SHOPIFY_API_SECRET, {
    shop: SHOP,
    customerId: customer,
    query: options.query,
  });
  const response = await fetch(url, {
    method: options.body === undefined ? "GET" : "POST",
    headers: options.body === undefined ? {} : { "Content-Type": "application/json" },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  return { status: response.status, body: await response.json() };
}

/** The server's last failed request as its log says (its lines are written in batches: poll). */
const lastFailure = () => server.lines().findLast((line) => line.msg === "request failed");
/** Why the server's last failed request failed. */
const lastFailureCause = () => (lastFailure()?.cause as { message?: string } | undefined)?.message;

/** A customer's count of the month, read behind the relay's back. */
async function customerUsage(customerGid: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ count: number }>(
      `SELECT "count" FROM "CustomerUsage" WHERE "shopDomain" = $1 AND "customerGid" = $2`,
      [SHOP, customerGid],
    );
    return rows[0]?.count ?? 0;
  } finally {
    await client.end();
  }
}

/** What another instance's uninstall or plan change does to this one: the shop's version moves on. */
async function bumpShopVersion(): Promise<void> {
  const client = new Redis(process.env.REDIS_URL!, { lazyConnect: true });
  await client.connect();
  try {
    await client.incr(`${REDIS_KEY_PREFIX}:version:shop:${SHOP}`);
  } finally {
    client.disconnect();
  }
}

async function callWithHeaders(path: string, customer: string, options: { query?: Record<string, string> }) {
  const url = signedProxyUrl(server.url, path, TEST_ENV.SHOPIFY_API_SECRET, {
    shop: SHOP,
    customerId: customer,
    query: options.query,
  });
  const response = await fetch(url);
  return { status: response.status, retryAfter: response.headers.get("Retry-After"), body: await response.json() };
}

const item = { context: "wishlist", entityType: "product", entityGid: "gid://shopify/Product/1" };
/** /readyz as the metrics token sees it (an answer up to 2 s old: it caches it). */
const readyz = async () => {
  const response = await fetch(`${server.url}/readyz`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
  return { status: response.status, body: await response.json() };
};
/** /readyz once its 2 s cache has let go of the answer given before the fault (or its repair). */
const readiness = async () => {
  await new Promise((resolve) => setTimeout(resolve, 2_100));
  return readyz();
};

describeWithRedis("faults survived", () => {
  test("PostgreSQL unreachable: reads and writes served from memory, customers counted or not, their units counted once it is back", async () => {
    // Versions read before the instance holds its Redis permit vouch for nothing, so what a request
    // loads then is not kept for an outage (decision 0027 refuses it on purpose): /readyz's Redis
    // check reads a version as requests do, and passes once the permit is there.
    await expect.poll(async () => (await readyz()).body.away, { timeout: 30_000 }).toEqual([]);
    // What the instance must have loaded once to serve without the database: a write loads the
    // shop's pending redactions as well as its install state and session.
    expect((await call("/proxy/api/save", "1", { body: { ...item, source: "outage" } })).status).toBe(200);
    // The first request renewed the shop's offline token, which drops the session every instance holds.
    expect((await call("/proxy/api/is-saved", "1", { query: item })).status).toBe(200);
    // Ready once with the database: only an instance that was stays ready through its outage.
    expect((await readiness()).status).toBe(200);
    await database.cut();
    try {
      // Customer 2 was never counted: their share of the budget is spent on credit (decision 0027).
      expect(await call("/proxy/api/is-saved", "2", { query: item })).toMatchObject({
        status: 200,
        body: { ok: true, data: { saved: false } },
      });
      const saved = await call("/proxy/api/save", "2", { body: { ...item, source: "outage" } });
      expect(saved).toMatchObject({ status: 200, body: { data: { state: "active" } } });
      expect(await call("/proxy/api/list", "2", { query: { context: "wishlist" } })).toMatchObject({
        status: 200,
        body: { data: { items: [{ entityGid: item.entityGid }] } },
      });
      // The log says once which dependency is away; /readyz says it too, and stays 200 while the
      // instance serves from memory, so a load balancer does not take every instance out at once.
      expect(server.output()).toMatch(/PostgreSQL unreachable: serving from memory.*"dependency":"postgres"/);
      const ready = await readiness();
      expect(ready.status).toBe(200);
      expect(ready.body).toMatchObject({ ok: true, away: ["postgres"], checks: { database: { ok: false } } });
    } finally {
      await database.restore();
    }
    // The three units spent on credit are taken from the counter once it answers again.
    await expect
      .poll(() => customerUsage("gid://shopify/Customer/2"), { timeout: 20_000, interval: 500 })
      .toBeGreaterThanOrEqual(3);
    expect((await call("/proxy/api/is-saved", "2", { query: item })).status).toBe(200);
    await expect.poll(() => server.output()).toMatch(/PostgreSQL reachable again/);
    expect((await readiness()).body).toMatchObject({ ok: true, away: [] });
  }, 60_000);

  test("PostgreSQL unreachable and the shop changed meanwhile: refused as retryable, with Retry-After, the log naming postgres", async () => {
    expect((await call("/proxy/api/is-saved", "4", { query: item })).status).toBe(200);
    await database.cut();
    try {
      // An uninstall or a plan change bumps the shop's version: what this instance holds no longer
      // vouches for the shop, and the database cannot say what changed.
      await bumpShopVersion();
      const refused = await callWithHeaders("/proxy/api/is-saved", "4", { query: item });
      expect(refused.status).toBe(500);
      expect(refused.body.error).toMatchObject({ code: "INTERNAL_ERROR", retryable: true });
      expect(refused.retryAfter).toBe("2");
      await expect.poll(lastFailure).toMatchObject({ dependency: "postgres" });
      expect(lastFailureCause()).toMatch(/Can't reach database server/);
    } finally {
      await database.restore();
    }
    expect((await call("/proxy/api/is-saved", "4", { query: item })).status).toBe(200);
  }, 60_000);

  test("Redis unreachable: writes are served with their locks in PostgreSQL, reads still served, and it says so in its log", async () => {
    expect((await call("/proxy/api/save", "3", { body: { ...item, source: "outage" } })).status).toBe(200);
    expect((await call("/proxy/api/is-saved", "3", { query: item })).body.data.saved).toBe(true);
    await redis.cut();
    try {
      const toggled = await call("/proxy/api/toggle", "3", { body: { ...item, source: "outage" } });
      expect(toggled).toMatchObject({ status: 200, body: { ok: true, data: { state: "removed" } } });
      const read = await call("/proxy/api/is-saved", "3", { query: item });
      expect(read).toMatchObject({ status: 200, body: { ok: true, data: { saved: false } } });
      expect(server.output()).toMatch(/Redis unreachable for a lock: moving list locks to PostgreSQL/);
      // Still ready, naming Redis: a load balancer must not take every instance out for it.
      expect(await readiness()).toMatchObject({ status: 200, body: { ok: true, away: ["redis"] } });
    } finally {
      await redis.restore();
    }
    // Back in Redis by itself, in a new cache generation: what was cached before the toggle is not read.
    await expect.poll(() => server.output(), { timeout: 20_000 }).toMatch(/list locks now in Redis/);
    expect((await call("/proxy/api/is-saved", "3", { query: item })).body.data.saved).toBe(false);
    const again = await call("/proxy/api/toggle", "3", { body: { ...item, source: "outage" } });
    expect(again.body.data.state).toBe("active");
    expect((await call("/proxy/api/is-saved", "3", { query: item })).body.data.saved).toBe(true);
  }, 60_000);
});
