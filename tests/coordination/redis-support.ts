import { randomUUID } from "node:crypto";
import net from "node:net";
import path from "node:path";
import { Redis } from "ioredis";

/** The Redis the tests use: REDIS_URL, or the local one. */
export const REDIS_URL = process.env.REDIS_URL || "redis://127.0.0.1:6379";

async function answers(url: string): Promise<boolean> {
  const client = new Redis(url, { lazyConnect: true, connectTimeout: 1_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
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

/**
 * A TCP relay in front of Redis that can be cut and restored, to take Redis away from a
 * coordinator and give it back without touching the server the other tests use.
 */
export async function createRelay(target: string): Promise<{ url: string; cut(): Promise<void>; restore(): Promise<void> }> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((inbound) => {
    const outbound = net.connect(Number(port || 6379), hostname);
    for (const socket of [inbound, outbound]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => {
        inbound.destroy();
        outbound.destroy();
      });
    }
    inbound.pipe(outbound).pipe(inbound);
  });
  const listen = (listenPort: number) =>
    new Promise<number>((resolve) => server.listen(listenPort, "127.0.0.1", () => resolve((server.address() as net.AddressInfo).port)));
  const relayPort = await listen(0);
  const url = new URL(target);
  url.hostname = "127.0.0.1";
  url.port = String(relayPort);
  return {
    url: url.toString(),
    async cut() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
    async restore() {
      await listen(relayPort);
    },
  };
}
