// Faults survived: the production server (build/server.js) with its database and Redis behind
// relays that a test can cut and restore, and the platform emulated over HTTP.
import pg from "pg";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createPlatformEmulator } from "@saved-items/platform-emulator";
import { startEmulatorServer } from "@saved-items/platform-emulator/http-server";
import { freshDatabaseUrl, serverBuildDir, startBuiltServer, type ChildServer } from "../server/support";
import { signedProxyUrl } from "@saved-items/sandbox/proxy-signature";
import { createRelay } from "../support/relay";
import { TEST_ENV } from "../setup/test-env";
import { describeWithRedis } from "./support";

const SHOP = "outage.myshopify.com";
/** /readyz names its checks only to a caller with the metrics token. */
const METRICS_TOKEN = "outages-metrics-token-0123456789";

type Relay = Awaited<ReturnType<typeof createRelay>>;
let server: ChildServer;
let database: Relay;
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
  const databaseUrl = await freshDatabaseUrl();
  await seed(databaseUrl, adminCredentials!);
  database = await createRelay(databaseUrl);
  redis = await createRelay(process.env.REDIS_URL!);
  server = await startBuiltServer(await serverBuildDir(), {
    DATABASE_URL: database.url,
    REDIS_URL: redis.url,
    REDIS_KEY_PREFIX: `outages-${process.pid}-${Date.now()}`,
    SANDBOX_PLATFORM_URL: platform.url,
    METRICS_TOKEN,
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

/** Why the server's last failed request failed, as its log says (its lines are written in batches: poll). */
const lastFailureCause = () =>
  (server.lines().findLast((line) => line.msg === "request failed")?.cause as { message?: string } | undefined)
    ?.message;

const item = { context: "wishlist", entityType: "product", entityGid: "gid://shopify/Product/1" };
/** /readyz once its 2 s cache has let go of the answer given before the fault (or its repair). */
const readiness = async () => {
  await new Promise((resolve) => setTimeout(resolve, 2_100));
  const response = await fetch(`${server.url}/readyz`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
  return { status: response.status, body: await response.json() };
};

describeWithRedis("faults survived", () => {
  test("PostgreSQL unreachable: INTERNAL_ERROR (retryable) at once, readiness red, and back by itself", async () => {
    expect((await call("/proxy/api/is-saved", "1", { query: item })).status).toBe(200);
    await database.cut();
    try {
      // A customer this instance has not counted yet needs the database for their share of the budget.
      const refused = await call("/proxy/api/is-saved", "2", { query: item });
      expect(refused.status).toBe(500);
      expect(refused.body.error).toMatchObject({ code: "INTERNAL_ERROR", retryable: true });
      // Within a bound: refused because the database cannot be reached, not after a query waited on it.
      await expect.poll(lastFailureCause).toMatch(/Can't reach database server/);
      const ready = await readiness();
      expect(ready.status).toBe(503);
      expect(ready.body.checks.database.ok).toBe(false);
    } finally {
      await database.restore();
    }
    expect((await call("/proxy/api/is-saved", "2", { query: item })).status).toBe(200);
    expect((await readiness()).status).toBe(200);
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
      expect((await readiness()).status).toBe(503);
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
