import { afterEach, expect, test, vi } from "vitest";
import { LockUnavailableError } from "./coordinator.server";
import type { FallbackStore } from "./fallback-store.server";
import { createModeKeeper } from "./mode-keeper.server";

afterEach(() => {
  vi.useRealTimers();
});

const never = () => new Promise<never>(() => {});

/** A keeper over `store` whose instance always reaches Redis. */
const keeperOver = (store: Partial<FallbackStore>) =>
  createModeKeeper({
    store: store as FallbackStore,
    instanceId: "a",
    redisReachable: () => true,
    onNewRedisEpoch: async () => {},
    inFlightBoundMs: 6_000,
  });

test("a database that never answers leaves the instance without a permit, refusing locks within their wait, not hanging", async () => {
  vi.useFakeTimers();
  const keeper = keeperOver({ ensureMode: never, renew: never, leave: async () => {} });
  const settled = keeper.settle(performance.now() + 8_000).catch((error: unknown) => error);
  await vi.advanceTimersByTimeAsync(8_100);
  expect(await settled).toBeInstanceOf(LockUnavailableError);
  expect(keeper.redisLocksAllowed()).toBe(false);
  const closed = keeper.close();
  await vi.advanceTimersByTimeAsync(2_000);
  await closed;
});

test("closing twice waits once: the second close (a shutdown hook run again) does not wait on a renewal that cannot finish", async () => {
  vi.useFakeTimers();
  let left = 0;
  const keeper = keeperOver({ ensureMode: async () => {}, renew: never, leave: async () => void (left += 1) });
  const first = keeper.close();
  await vi.advanceTimersByTimeAsync(2_000);
  await first;
  // No timer advanced: a second close that waited for the hung renewal again would not settle.
  let settled = false;
  void keeper.close().then(() => (settled = true));
  for (let turn = 0; turn < 10; turn++) await Promise.resolve();
  expect(settled).toBe(true);
  expect(left).toBe(1);
});
