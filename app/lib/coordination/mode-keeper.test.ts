import { afterEach, expect, test, vi } from "vitest";
import { LockUnavailableError } from "./coordinator.server";
import type { FallbackStore } from "./fallback-store.server";
import { createModeKeeper } from "./mode-keeper.server";

afterEach(() => {
  vi.useRealTimers();
});

test("a database that never answers leaves the instance without a permit, refusing locks within their wait, not hanging", async () => {
  vi.useFakeTimers();
  const never = () => new Promise<never>(() => {});
  const store = { ensureMode: never, renew: never, leave: async () => {} } as unknown as FallbackStore;
  const keeper = createModeKeeper({
    store,
    instanceId: "a",
    redisReachable: () => true,
    onNewRedisEpoch: async () => {},
    inFlightBoundMs: 6_000,
  });
  const settled = keeper.settle(performance.now() + 8_000).catch((error: unknown) => error);
  await vi.advanceTimersByTimeAsync(8_100);
  expect(await settled).toBeInstanceOf(LockUnavailableError);
  expect(keeper.redisLocksAllowed()).toBe(false);
  const closed = keeper.close();
  await vi.advanceTimersByTimeAsync(2_000);
  await closed;
});
