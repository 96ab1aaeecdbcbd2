// getCoordinator() and the shop version on top of it, under each configuration. Each test loads
// the modules afresh, since the coordinator and the parsed environment are per process.
import { Redis } from "ioredis";
import { afterEach, describe, expect, test, vi } from "vitest";
import { dropKeys, REDIS_URL, redisTestsRun, uniquePrefix } from "./redis-support";

const saved = { REDIS_URL: process.env.REDIS_URL, REDIS_KEY_PREFIX: process.env.REDIS_KEY_PREFIX };

async function load(env: { REDIS_URL?: string; REDIS_KEY_PREFIX?: string }) {
  vi.resetModules();
  delete process.env.REDIS_URL;
  delete process.env.REDIS_KEY_PREFIX;
  Object.assign(process.env, env);
  const shared = await import("~/lib/coordination/shared-coordinator.server");
  const versions = await import("~/lib/coordination/shop-version.server");
  return { coordinator: shared.getCoordinator(), ...versions };
}

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe("getCoordinator", () => {
  test("without REDIS_URL (or with it empty) it is the local one", async () => {
    for (const env of [{}, { REDIS_URL: "" }]) {
      const { coordinator } = await load(env);
      expect(coordinator.kind).toBe("local");
      await coordinator.close();
    }
  });

  test.skipIf(!redisTestsRun)("with REDIS_URL it is the Redis one, under REDIS_KEY_PREFIX", async () => {
    const prefix = uniquePrefix(import.meta.filename);
    const { coordinator, bumpShopVersion, readShopVersion } = await load({ REDIS_URL, REDIS_KEY_PREFIX: prefix });
    close = async () => {
      await coordinator.close();
      const raw = new Redis(REDIS_URL);
      await dropKeys(raw, prefix);
      await raw.quit();
    };
    expect(coordinator.kind).toBe("redis");
    await bumpShopVersion("a.myshopify.com");
    expect(await readShopVersion("a.myshopify.com")).toBe(1);
    expect(await coordinator.readVersions(["shop:a.myshopify.com"])).toEqual([1]);
  });

  test("while Redis is unreachable, every read of a shop version is a new negative number, so no cache entry matches", async () => {
    const { coordinator, bumpShopVersion, readShopVersion } = await load({ REDIS_URL: "redis://127.0.0.1:1" });
    close = () => coordinator.close();
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const first = await readShopVersion("a.myshopify.com");
    const second = await readShopVersion("a.myshopify.com");
    expect(first).toBeLessThan(0);
    expect(second).toBeLessThan(0);
    expect(second).not.toBe(first);
    await expect(bumpShopVersion("a.myshopify.com")).rejects.toThrow("Redis is unreachable");
  });
});
