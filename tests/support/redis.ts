import { randomUUID } from "node:crypto";
import path from "node:path";
import { Redis } from "ioredis";

/** The Redis the tests use: REDIS_URL, or the local one. */
export const REDIS_URL = process.env.REDIS_URL || "redis://127.0.0.1:6379";

async function answers(url: string): Promise<boolean> {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 1_000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on("error", () => {});
  try {
    await client.connect();
    return (await client.ping()) === "PONG";
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

/**
 * Whether the Redis tests run. Only a machine without REDIS_URL and without a local Redis skips
 * them; with REDIS_URL set they run, and fail if it does not answer.
 */
export const redisTestsRun = Boolean(process.env.REDIS_URL) || (await answers(REDIS_URL));
if (!redisTestsRun) {
  console.warn("[tests/coordination] Redis tests skipped: REDIS_URL is not set and nothing answers at 127.0.0.1:6379");
}

/** A key prefix no other run or test file uses, so runs side by side do not collide. */
export function uniquePrefix(testFile: string): string {
  return `saved-items-test:${path.basename(testFile, ".test.ts")}:${randomUUID()}`;
}

/** Deletes everything under the prefix. */
export async function dropKeys(client: Redis, prefix: string): Promise<void> {
  for await (const keys of client.scanStream({ match: `${prefix}:*`, count: 1000 })) {
    if ((keys as string[]).length) await client.del(...(keys as string[]));
  }
}
