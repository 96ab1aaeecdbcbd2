// List locks that fall back to PostgreSQL while Redis is away (decision 0026), against a real
// Redis and the test file's database. Each coordinator stands for an instance: it reaches Redis and
// PostgreSQL through relays of its own, so a test can cut one instance off from one store only.
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type pg from "pg";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { LockLostError, LockUnavailableError, type HeldLocks } from "~/infrastructure/coordination/coordinator.server";
import { createFallbackStore } from "~/infrastructure/coordination/fallback-store.server";
import { createRedisCoordinator } from "~/infrastructure/coordination/redis-coordinator.server";
import { createPool } from "~/infrastructure/database/pool.server";
import { createSharedListStateStore } from "~/services/saved-items/list-state-store.server";
import { createRelay } from "../support/relay";
import { dropKeys, REDIS_URL, redisTestsRun, uniquePrefix } from "../support/redis";
import { loggedLines } from "../support/logs";

const prefix = uniquePrefix(import.meta.filename);
// Each test under a prefix of its own: a lock an earlier test could not release lasts its lease.
let testPrefix = prefix;
const opened: { close(): Promise<void> }[] = [];

/**
 * An instance with short timings: its permit lasts 2.5 s and is renewed every 200 ms, a write may
 * land 300 ms after its lock was confirmed, and withLocks waits `lockWaitMs` (3 s by default).
 */
async function instance(lockWaitMs = 3_000) {
  const redis = await createRelay(REDIS_URL);
  const database = await createRelay(process.env.DATABASE_URL!);
  const pool: pg.Pool = createPool(database.url, { max: 4 });
  const coordinator = createRedisCoordinator({
    url: redis.url,
    keyPrefix: testPrefix,
    commandTimeoutMs: 1_000,
    lockWaitMs,
    inFlightBoundMs: 300,
    permitValidityMs: 2_500,
    permitRenewEveryMs: 200,
    fallback: createFallbackStore(pool, testPrefix),
  });
  opened.push({
    async close() {
      await redis.restore().catch(() => {});
      await database.restore().catch(() => {});
      await coordinator.close();
      await pool.end();
    },
  });
  return { coordinator, redis, database };
}

/** Counts the holders whose locks were confirmed and who are still inside; the most at once is what matters. */
function holders() {
  let inside = 0;
  let most = 0;
  const runs: string[] = [];
  return {
    body: (name: string) => async (held: HeldLocks) => {
      await held.assertHeld();
      inside += 1;
      most = Math.max(most, inside);
      runs.push(name);
      await sleep(20);
      inside -= 1;
    },
    most: () => most,
    runs,
  };
}

/** Keeps taking the lock on key until `done` says so; failures are counted, not thrown. */
async function keepTaking(take: () => Promise<unknown>, done: () => boolean): Promise<{ ok: number; refused: number }> {
  const counts = { ok: 0, refused: 0 };
  while (!done()) {
    try {
      await take();
      counts.ok += 1;
    } catch (error) {
      if (!(error instanceof LockUnavailableError)) throw error;
      counts.refused += 1;
      await sleep(20);
    }
  }
  return counts;
}

const noop = async () => {};

describe.skipIf(!redisTestsRun)("list locks with a PostgreSQL fallback (needs Redis)", () => {
  beforeEach(() => {
    testPrefix = `${prefix}:${randomUUID()}`;
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((instance) => instance.close()));
    vi.restoreAllMocks();
  });
  afterAll(async () => {
    const raw = new Redis(REDIS_URL);
    await dropKeys(raw, prefix);
    await raw.quit();
  });

  test("with Redis gone for both instances writes go on in PostgreSQL, once the holder of a Redis lock has let go", async () => {
    loggedLines();
    const [a, b] = [await instance(), await instance()];
    await a.coordinator.withLocks(["k"], noop);
    await b.coordinator.withLocks(["k"], noop);

    let releaseA!: () => void;
    let aHolds!: () => void;
    const aHolding = new Promise<void>((resolve) => (aHolds = resolve));
    const order: string[] = [];
    const aDone = a.coordinator.withLocks(["k"], async (held) => {
      aHolds();
      await new Promise<void>((resolve) => (releaseA = resolve));
      // The locks moved meanwhile: the write this would guard is not sent.
      await expect(held.assertHeld()).rejects.toThrow(LockLostError);
      order.push("a ends");
    });
    await aHolding;
    await a.redis.cut();
    await b.redis.cut();

    const bDone = b.coordinator.withLocks(["k"], async (held) => {
      await held.assertHeld();
      order.push("b holds");
      return held.fence;
    });
    // B moved the mode; A's Redis-locked work still runs, so A keeps its permit and B waits.
    await sleep(800);
    expect(order).toEqual([]);
    releaseA();
    await aDone;
    const fence = await bDone;
    expect(order).toEqual(["a ends", "b holds"]);
    expect(fence).toBeGreaterThan(0);

    // A, still without Redis, takes its locks in PostgreSQL too; assertHeld checks them there.
    await a.coordinator.withLocks(["k", "other"], async (held) => {
      await held.assertHeld();
      expect(held.fence).toBeGreaterThan(fence);
    });
  });

  test("a partial partition (A reaches Redis but not PostgreSQL, B the reverse): B gets no lock while A's permit lasts, never both", async () => {
    loggedLines();
    const [a, b] = [await instance(500), await instance(500)];
    await a.coordinator.withLocks(["k"], noop);
    await b.coordinator.withLocks(["k"], noop);
    await a.database.cut();
    await b.redis.cut();

    const seen = holders();
    // At least 5 s (what the next test's return to Redis relies on: no instance seen lately that
    // cannot reach it), and until a second after B's first lock, however slow the machine; 30 s at most.
    const startedAt = performance.now();
    let stopAt = startedAt + 30_000;
    const done = () => {
      if (stopAt === startedAt + 30_000 && seen.runs.includes("b"))
        stopAt = Math.max(startedAt + 5_000, performance.now() + 1_000);
      return performance.now() >= stopAt;
    };
    const [fromA, fromB] = await Promise.all([
      keepTaking(() => a.coordinator.withLocks(["k"], seen.body("a")), done),
      keepTaking(() => b.coordinator.withLocks(["k"], seen.body("b")), done),
    ]);
    expect(seen.most()).toBe(1);
    // A granted Redis locks under its permit, then its permit lapsed (2.5 s at most) and B took over.
    expect(fromA.ok).toBeGreaterThan(0);
    expect(fromB.ok).toBeGreaterThan(0);
    const lastA = seen.runs.lastIndexOf("a");
    const firstB = seen.runs.indexOf("b");
    expect(lastA).toBeLessThan(firstB);
    await expect(a.coordinator.withLocks(["k"], noop)).rejects.toThrow(LockUnavailableError);
  });

  test("back in Redis, nothing cached before the fallback is read: writers in PostgreSQL did not keep it current", async () => {
    loggedLines();
    const [a, b] = [await instance(), await instance()];
    const store = createSharedListStateStore(a.coordinator.sharedHashes!);
    const key = { shop: "fallback.myshopify.com", customerGid: "gid://shopify/Customer/1", context: "wishlist" };
    const cached = { shopVersion: 0, complete: true, items: {}, expiresAtMs: Date.now() + 60_000 };
    await a.coordinator.withLocks(["k"], noop);
    const before = await a.coordinator.sharedHashes!.cacheGeneration();
    await store.update(key, () => cached);
    expect((await store.read(key)).state).toEqual(cached);
    const { token } = await store.read(key);

    await a.redis.cut();
    await b.redis.cut();
    await b.coordinator.withLocks(["k"], noop);
    // In PostgreSQL mode the cache holds nothing, for every instance.
    expect(await a.coordinator.sharedHashes!.cacheGeneration()).toBeUndefined();
    expect((await store.read(key)).state).toBeUndefined();
    await expect(a.coordinator.readVersions(["v"])).rejects.toThrow("not in Redis");

    await a.redis.restore();
    await b.redis.restore();
    await expect.poll(() => a.coordinator.sharedHashes!.cacheGeneration(), { timeout: 15_000 }).toBeDefined();
    expect(await a.coordinator.sharedHashes!.cacheGeneration()).not.toBe(before);
    expect((await store.read(key)).state).toBeUndefined();
    // A fill read before the fallback does not land after it.
    expect(await store.install(key, token, cached)).toBe(false);
    await a.coordinator.withLocks(["k"], async (held) => held.assertHeld());
  });

  test("PostgreSQL away alone: Redis locks go on under the permit", async () => {
    loggedLines();
    const a = await instance();
    await a.coordinator.withLocks(["k"], noop);
    await a.database.cut();
    for (let i = 0; i < 5; i++) await a.coordinator.withLocks(["k"], async (held) => held.assertHeld());
    expect(await a.coordinator.readVersions(["v"])).toEqual([0]);
  });
});

describe("the fallback store's grants (PostgreSQL only)", () => {
  test("a PostgreSQL lock only in mode postgres and once no permit is alive; a permit only once no such lock is", async () => {
    const pool = createPool(process.env.DATABASE_URL!, { max: 2 });
    const store = createFallbackStore(pool, `${prefix}:store:${randomUUID()}`);
    const renew = (instanceId: string, permitFor: number | undefined, keepOldPermit = false) =>
      store.renew({ instanceId, permitFor, keepOldPermit, permitValidityMs: 60_000, redisReachable: true });
    try {
      await store.ensureMode();
      expect((await renew("a", 1)).permitEpoch).toBe(1);
      expect(await store.takeLock(1, "k", "t", 10_000)).toBeUndefined();
      await store.toPostgres(1);
      // A's permit of epoch 1 is alive: no lock yet, and A keeps it while its Redis-locked work runs.
      expect(await store.takeLock(2, "k", "t", 10_000)).toBeUndefined();
      expect(await renew("a", undefined, true)).toMatchObject({ epoch: 2, mode: "postgres", permitEpoch: 1 });
      expect((await renew("a", undefined)).permitsAlive).toBe(false);
      const fence = await store.takeLock(2, "k", "t", 10_000);
      expect(fence).toBeGreaterThan(0);
      expect(await store.takeLock(2, "k", "u", 10_000)).toBeUndefined();
      expect(await store.renewLocks(2, ["k"], "t", 10_000)).toBe(1);

      expect(await store.toRedis(2, 0, 5_000)).toBe(true);
      // The lock no longer renews in a later epoch, and no permit is granted while it is unexpired.
      expect(await store.renewLocks(2, ["k"], "t", 10_000)).toBe(0);
      expect((await renew("a", 3)).permitEpoch).toBeUndefined();
      await store.releaseLocks(["k"], "t");
      expect((await renew("a", 3)).permitEpoch).toBe(3);
      // A sweep leaves what is alive.
      await store.sweep();
      expect((await renew("a", 3, true)).permitEpoch).toBe(3);
    } finally {
      await store.leave("a");
      await pool.end();
    }
  });

  test("the return to Redis waits while an instance seen lately cannot reach it", async () => {
    const pool = createPool(process.env.DATABASE_URL!, { max: 2 });
    const store = createFallbackStore(pool, `${prefix}:store:${randomUUID()}`);
    try {
      await store.ensureMode();
      await store.toPostgres(1);
      const base = { permitFor: undefined, keepOldPermit: false, permitValidityMs: 60_000 };
      await store.renew({ ...base, instanceId: "a", redisReachable: true });
      await store.renew({ ...base, instanceId: "b", redisReachable: false });
      expect(await store.toRedis(2, 0, 5_000)).toBe(false);
      await store.renew({ ...base, instanceId: "b", redisReachable: true });
      // Nor before the mode has lasted long enough.
      expect(await store.toRedis(2, 60_000, 5_000)).toBe(false);
      expect(await store.toRedis(2, 0, 5_000)).toBe(true);
    } finally {
      await store.leave("a");
      await store.leave("b");
      await pool.end();
    }
  });
});
