import { Redis } from "ioredis";

/**
 * The Redis several sandbox instances share: REDIS_URL, or this machine's default server. Keys go
 * under a prefix of this sandbox's own, so sandboxes side by side do not meet, and are deleted
 * when it stops.
 */
export async function connectSharedRedis(
  redisUrl: string | undefined,
  keyPrefix: string,
): Promise<{ url: string; keyPrefix: string; clear(): Promise<void> }> {
  const url = redisUrl || "redis://127.0.0.1:6379";
  const redis = new Redis(url, {
    connectTimeout: 2_000,
    maxRetriesPerRequest: 0,
    lazyConnect: true,
    retryStrategy: () => null,
  });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    throw new Error(
      `SANDBOX_INSTANCES above 1 needs Redis and none answers at ${url} (${error instanceof Error ? error.message : error}): ` +
        "start one (redis-server) or set REDIS_URL.",
    );
  }
  return {
    url,
    keyPrefix,
    async clear() {
      let cursor = "0";
      do {
        const [next, keys] = await redis.scan(cursor, "MATCH", `${keyPrefix}:*`, "COUNT", 1000);
        if (keys.length > 0) await redis.del(...keys);
        cursor = next;
      } while (cursor !== "0");
      redis.disconnect();
    },
  };
}
