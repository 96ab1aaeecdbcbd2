// Both list-state stores keep the promise readers rely on: an install lands only on the state its
// reader looked at, never over a write made since, nor over a state that was dropped meanwhile.
import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, test } from "vitest";
import { createRedisCoordinator } from "~/infrastructure/coordination/redis-coordinator.server";
import { clearProcessCaches } from "~/lib/process-caches.server";
import { currentState, type ListState } from "~/services/saved-items/list-state";
import {
  createLocalListStateStore,
  createSharedListStateStore,
  type ListStateStore,
} from "~/services/saved-items/list-state-store.server";
import { REDIS_URL, redisTestsRun, uniquePrefix } from "../support/redis";

const state = (complete: boolean): ListState => ({ ...currentState(undefined, 0, Date.now()), complete });

function describeStore(name: string, create: () => ListStateStore) {
  describe(`${name} list-state store`, () => {
    const key = () => ({
      shop: "demo.myshopify.com",
      customerGid: `gid://shopify/Customer/${randomUUID()}`,
      context: "w",
    });

    test("an install on the version read lands; after any update it does not", async () => {
      const store = create();
      const at = key();
      const empty = await store.read(at);
      expect(empty.state).toBeUndefined();
      expect(await store.install(at, empty.token, state(true))).toBe(true);
      const filled = await store.read(at);
      expect(filled.state?.complete).toBe(true);

      await store.update(at, () => state(false));
      expect(await store.install(at, filled.token, state(true))).toBe(false);
      expect((await store.read(at)).state?.complete).toBe(false);
    });

    test("a state dropped and written again after a reader looked is not the one it looked at", async () => {
      const store = create();
      const at = key();
      const before = await store.read(at);
      await store.update(at, () => state(false));
      await store.forgetCustomer(at.shop, at.customerGid);
      expect(await store.install(at, before.token, state(true))).toBe(false);
    });
  });
}

describeStore("local", createLocalListStateStore);

test("the local store's states dropped with the process caches are not installed over", async () => {
  const store = createLocalListStateStore();
  const at = { shop: "demo.myshopify.com", customerGid: "gid://shopify/Customer/1", context: "w" };
  const before = await store.read(at);
  await store.update(at, () => state(false));
  clearProcessCaches();
  expect(await store.install(at, before.token, state(true))).toBe(false);
});

describe.skipIf(!redisTestsRun)("with Redis", () => {
  const coordinator = createRedisCoordinator({ url: REDIS_URL, keyPrefix: uniquePrefix(import.meta.filename) });
  afterAll(() => coordinator.close());
  describeStore("shared", () => createSharedListStateStore(coordinator.sharedHashes!));
});
