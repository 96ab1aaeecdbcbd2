// getCoordinator() and the shop version on top of it, under each configuration. Each test loads
// the modules afresh, since the coordinator and the parsed environment are per process.
import { createServer, type AddressInfo } from "node:net";
import { Redis } from "ioredis";
import { afterEach, describe, expect, test, vi } from "vitest";
import { dropKeys, REDIS_URL, redisTestsRun, uniquePrefix } from "../support/redis";
import { loggedLines } from "../support/logs";

const VARIABLES = ["REDIS_URL", "REDIS_KEY_PREFIX", "REDIS_COMMAND_TIMEOUT_MS"] as const;
const saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));

async function load(env: Partial<Record<(typeof VARIABLES)[number], string>>) {
  vi.resetModules();
  for (const name of VARIABLES) delete process.env[name];
  Object.assign(process.env, env);
  const shared = await import("~/infrastructure/coordination/shared-coordinator.server");
  const versions = await import("~/infrastructure/coordination/shop-version.server");
  // Gives the coordinator its database, as when the app opens it.
  await import("~/db.server");
  return { coordinator: shared.getCoordinator(), ...versions };
}

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  vi.useRealTimers();
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
    loggedLines();
    const first = await readShopVersion("a.myshopify.com");
    const second = await readShopVersion("a.myshopify.com");
    expect(first).toBeLessThan(0);
    expect(second).toBeLessThan(0);
    expect(second).not.toBe(first);
    await expect(bumpShopVersion("a.myshopify.com")).rejects.toThrow("Redis is unreachable");
  });

  test("REDIS_COMMAND_TIMEOUT_MS bounds each command: a Redis that accepts and never answers is down when it runs out", async () => {
    // Reads what the client sends and never answers: the connection is made, so only the command's
    // own timer (ioredis's commandTimeout, a setTimeout the test advances) can end the wait.
    let commandsSent = 0;
    const silent = createServer((socket) => socket.on("data", () => commandsSent++));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as AddressInfo;
    const logged = loggedLines();
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { coordinator, bumpShopVersion } = await load({
      REDIS_URL: `redis://127.0.0.1:${port}`,
      REDIS_COMMAND_TIMEOUT_MS: "100",
    });
    close = async () => {
      await coordinator.close();
      silent.close();
    };
    let settled = false;
    const bumped = bumpShopVersion("a.myshopify.com").catch((error: unknown) => error);
    void bumped.finally(() => (settled = true));
    // The client's first command (its ready check) is out, its timer started.
    await expect.poll(() => commandsSent).toBeGreaterThan(0);

    await vi.advanceTimersByTimeAsync(99);
    expect(settled, "still waiting 99 ms in").toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect.poll(() => settled, { message: "refused once 100 ms have passed" }).toBe(true);
    expect(await bumped).toMatchObject({ message: expect.stringMatching(/Redis/) });
    expect(logged({ level: "warn", text: "Redis unreachable (Command timed out)" })).toHaveLength(1);
  });

  test("a REDIS_COMMAND_TIMEOUT_MS out of range stops the start with what to set", async () => {
    await expect(load({ REDIS_URL, REDIS_COMMAND_TIMEOUT_MS: "5" })).rejects.toThrow(
      "REDIS_COMMAND_TIMEOUT_MS: set REDIS_COMMAND_TIMEOUT_MS to a whole number from 100 to 30000",
    );
  });
});
