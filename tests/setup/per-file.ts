// The emulator's interception must be installed before anything imports app/shopify.server.ts:
// the platform's node adapter captures globalThis.fetch on first import.
import { emulator, platformServer, resetPlatformClock } from "../support/platform";
import { Prisma } from "@prisma/client";
import { afterAll, afterEach, beforeEach, expect, inject, vi } from "vitest";
import { createTestDatabase } from "@saved-items/sandbox/test-databases";
import { TEST_ENV } from "../support/test-env";
import { KEPT_TABLES } from "./kept-tables";

// vi.waitFor's default bound as expect.poll's (vite.config.ts, which has no setting for it).
const waitTimeoutMs = inject("waitTimeoutMs");
const waitFor = vi.waitFor;
vi.waitFor = ((callback, options) =>
  waitFor(callback, typeof options === "number" ? options : { timeout: waitTimeoutMs, ...options })) as typeof waitFor;

Object.assign(process.env, TEST_ENV);
// Taken before any test file can install fake timers: the wait below must end in real time.
const realSetTimeout = globalThis.setTimeout;
// With a real Redis (npm run test:services), each test file coordinates under a prefix of its own,
// emptied before every test like the database.
const redisPrefix = `saved-items-test-${process.pid}-${Math.random().toString(36).slice(2)}`;
if (process.env.REDIS_URL) process.env.REDIS_KEY_PREFIX = redisPrefix;
// Before any app module is imported: app/db.server.ts connects to DATABASE_URL when first loaded.
const database = await createTestDatabase(inject("testDatabases"));
process.env.DATABASE_URL = database.url;

// Every model's table, from the schema itself, so a new model is never left out of the reset; but
// the coordinator's registration (kept-tables.ts).
const tables = Prisma.dmmf.datamodel.models
  .filter((model) => !KEPT_TABLES.has(model.name))
  .map((model) => `"${model.dbName ?? model.name}"`)
  .join(", ");

// Taken at the first test: the instance the file's own imports (its request handler) use. A test
// that calls vi.resetModules makes a later import another instance, whose caches are not the
// handler's, so the handler's would outlive the test (a cached plan of the last test's shop).
let clearProcessCaches: (() => void) | undefined;

beforeEach(async () => {
  emulator.reset();
  resetPlatformClock();
  clearProcessCaches ??= (await import("~/lib/process-caches.server")).clearProcessCaches;
  clearProcessCaches();
  const { default: db } = await import("~/db.server");
  await db.$executeRawUnsafe(`TRUNCATE ${tables}`);
  if (process.env.REDIS_URL) await deleteRedisKeys(`${redisPrefix}:*`);
});

async function deleteRedisKeys(pattern: string): Promise<void> {
  const { Redis } = await import("ioredis");
  const redis = new Redis(process.env.REDIS_URL!);
  try {
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", pattern, "COUNT", 1000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== "0");
  } finally {
    redis.disconnect();
  }
}

afterEach(() => {
  // Every document the app sent must exist in the real published schema.
  expect(emulator.schemaViolations).toEqual([]);
  platformServer.resetHandlers();
});

afterAll(async () => {
  // Work a test's requests started after answering (saved-by marks, Flow triggers) ends before the
  // database closes under it; bounded, since a test may have left the platform hanging on purpose.
  const { afterAnswerSettled } = await import("~/lib/after-answer.server");
  await Promise.race([afterAnswerSettled(), new Promise((resolve) => realSetTimeout(resolve, 10_000))]);
  platformServer.close();
  if (process.env.REDIS_URL) await deleteRedisKeys(`${redisPrefix}:*`);
  const { closeDatabase } = await import("~/db.server");
  await closeDatabase();
  await database.drop();
});
