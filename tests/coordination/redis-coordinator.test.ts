// The Redis coordinator against a real Redis: two coordinators with their own connections stand
// for two instances of the app.
import { randomUUID } from "node:crypto";
import net from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import {
  CoordinatorUnavailableError,
  LockLostError,
  LockUnavailableError,
  type Coordinator,
} from "~/infrastructure/coordination/coordinator.server";
import { clock } from "~/lib/clock";
import {
  createRedisCoordinator,
  type RedisCoordinatorOptions,
} from "~/infrastructure/coordination/redis-coordinator.server";
import { describeCoordinatorContract } from "../support/coordinator-contract";
import { createRelay } from "../support/relay";
import { dropKeys, REDIS_URL, redisTestsRun, uniquePrefix } from "../support/redis";
import { loggedLines } from "../support/logs";
import { holdClock } from "../support/time";

const prefix = uniquePrefix(import.meta.filename);
const opened: Coordinator[] = [];

function instance(options: Partial<RedisCoordinatorOptions> = {}): Coordinator {
  const coordinator = createRedisCoordinator({ url: REDIS_URL, keyPrefix: prefix, ...options });
  opened.push(coordinator);
  return coordinator;
}

/** Runs fn under the lock on key in the background; resolves once fn holds it. */
async function holdInBackground(coordinator: Coordinator, key: string) {
  let entered!: () => void;
  let release!: () => void;
  const holding = new Promise<void>((resolve) => (entered = resolve));
  const done = coordinator.withLocks([key], () => {
    entered();
    return new Promise<void>((resolve) => (release = resolve));
  });
  await holding;
  return {
    release: () => {
      release();
      return done;
    },
  };
}

describe.skipIf(!redisTestsRun)("Redis coordinator", () => {
  let raw: Redis;
  beforeAll(() => {
    raw = new Redis(REDIS_URL);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });
  afterAll(async () => {
    await Promise.all(opened.map((coordinator) => coordinator.close()));
    await dropKeys(raw, prefix);
    await raw.quit();
  });

  describeCoordinatorContract("redis", () => instance());

  describe("locks across instances", () => {
    async function increments(lock: boolean): Promise<number> {
      const [a, b] = [instance(), instance()];
      const counter = `${prefix}:counter:${randomUUID()}`;
      const increment = async () => {
        const value = Number((await raw.get(counter)) ?? 0);
        await sleep(Math.random() * 2);
        await raw.set(counter, value + 1);
      };
      const key = randomUUID();
      await Promise.all(
        Array.from({ length: 50 }, (_, i) => {
          const coordinator = i % 2 ? a : b;
          return lock ? coordinator.withLocks([key], increment) : increment();
        }),
      );
      return Number(await raw.get(counter));
    }

    test("50 read-modify-write increments of a shared counter, split over two instances, end exact", async () => {
      expect(await increments(true)).toBe(50);
    });

    test("(the same increments without the lock lose updates, so the test above can fail)", async () => {
      expect(await increments(false)).toBeLessThan(50);
    });

    test("a lock held elsewhere for longer than lockWaitMs is LockUnavailableError once lockWaitMs has passed, and fn does not run", async () => {
      const key = randomUUID();
      const holder = await holdInBackground(instance(), key);
      // The waiter's deadline is read from performance.now(), which the test moves; its polls and
      // Redis's answers keep real time.
      vi.useFakeTimers({ toFake: ["performance"] });
      const waiter = instance({ lockWaitMs: 300 });
      let ran = false;
      let settled = false;
      const waiting = waiter.withLocks([key], async () => void (ran = true));
      waiting.catch(() => {}).finally(() => (settled = true));
      // Several polls go by while its clock stands still: it keeps waiting.
      await sleep(400);
      expect(settled).toBe(false);
      vi.advanceTimersByTime(300);
      await expect(waiting).rejects.toBeInstanceOf(LockUnavailableError);
      expect(ran).toBe(false);
      vi.useRealTimers();
      await holder.release();
      await expect(waiter.withLocks([key], async () => "now")).resolves.toBe("now");
    });

    test("a waiter takes the lock once it is released, woken by the release notice rather than a poll", async () => {
      const key = randomUUID();
      // Neither the holder's lease nor the waiter's poll ends within the test: only the notice can
      // wake the waiter.
      const [a, b] = [instance({ lockTtlMs: 600_000 }), instance({ maxPollMs: 600_000, lockWaitMs: 600_000 })];
      for (let round = 0; round < 5; round++) {
        const holder = await holdInBackground(a, key);
        const waiting = b.withLocks([key], async () => "handed over");
        // Time for the waiter to subscribe and go to sleep, so the release is what wakes it.
        await sleep(150);
        await holder.release();
        await expect(waiting).resolves.toBe("handed over");
      }
    });

    test("the watchdog keeps a holder's lock for longer than its lease", async () => {
      const key = randomUUID();
      const holder = await holdInBackground(instance({ lockTtlMs: 600 }), key);
      const waiter = instance({ lockWaitMs: 1_500 });
      await expect(waiter.withLocks([key], async () => {})).rejects.toBeInstanceOf(LockUnavailableError);
      await holder.release();
      await expect(waiter.withLocks([key], async () => "mine")).resolves.toBe("mine");
    });

    test("a crashed holder's lock ends with its lease and another instance takes it", async () => {
      const key = randomUUID();
      const crashing = instance({ lockTtlMs: 400 });
      await holdInBackground(crashing, key);
      // Its connections go without a release, and its renewals fail from now on: the lock is still
      // there, with its lease running.
      await crashing.close();
      expect(await raw.pttl(`${prefix}:lock:${key}`)).toBeGreaterThan(0);
      const next = instance();
      await expect(next.withLocks([key], async () => "taken")).resolves.toBe("taken");
    });

    test("a holder paused past its lease loses the lock: the next holder has a greater fence and assertHeld throws", async () => {
      const key = randomUUID();
      const [a, b] = [instance({ lockTtlMs: 200 }), instance()];
      const logged = loggedLines();
      await a.withLocks([key], async (heldByA) => {
        // A blocked event loop (a long GC pause, a synchronous loop): the watchdog cannot renew.
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 400);
        await b.withLocks([key], async (heldByB) => {
          expect(heldByB.fence).toBeGreaterThan(heldByA.fence);
          await expect(heldByA.assertHeld()).rejects.toBeInstanceOf(LockLostError);
          await expect(heldByB.assertHeld()).resolves.toBeUndefined();
        });
      });
      expect(logged({ level: "warn", text: "lapsed" }).length).toBe(1);
    });
  });

  describe("buckets, versions", () => {
    test("two instances draw on one bucket, refused with a sane retryAfterMs, refilled over time", async () => {
      const time = holdClock();
      const [a, b] = [instance(), instance()];
      const key = randomUUID();
      const rule = { capacity: 3, refillPerSecond: 2 };
      expect(await a.takeTokens(key, rule, 2)).toEqual({ allowed: true });
      expect(await b.takeTokens(key, rule)).toEqual({ allowed: true });
      const refused = await b.takeTokens(key, rule);
      // One token at two a second.
      expect(refused).toEqual({ allowed: false, retryAfterMs: 500 });
      expect(await a.takeTokens(key, rule)).toMatchObject({ allowed: false });
      time.advance(500);
      expect(await a.takeTokens(key, rule)).toEqual({ allowed: true });
    });

    test("a bucket's key expires once it would be full again", async () => {
      const key = randomUUID();
      await instance().takeTokens(key, { capacity: 3, refillPerSecond: 1 });
      const pttl = await raw.pttl(`${prefix}:bucket:${key}`);
      expect(pttl).toBeGreaterThan(0);
      expect(pttl).toBeLessThanOrEqual(1_000);
    });

    test("a version bumped by one instance is read by the other at once", async () => {
      const [a, b] = [instance(), instance()];
      const key = randomUUID();
      await a.bumpVersion(key);
      expect(await b.readVersions([key])).toEqual([1]);
    });
  });

  describe("installs", () => {
    test("an install lands only on the version its token was read at: any write in between wins", async () => {
      const [one, two] = [instance(), instance()];
      const key = randomUUID();
      const empty = await one.sharedHashes!.readVersioned(key, "f");
      expect(empty.value).toBeUndefined();
      await two.sharedHashes!.update(key, "f", () => "written", 60_000);
      expect(await one.sharedHashes!.install(key, "f", empty.token, "read before", 60_000)).toBe(false);
      const current = await one.sharedHashes!.readVersioned(key, "f");
      expect(await one.sharedHashes!.install(key, "f", current.token, "read after", 60_000)).toBe(true);
      expect(await two.sharedHashes!.install(key, "f", current.token, "again", 60_000)).toBe(false);
      expect((await two.sharedHashes!.readVersioned(key, "f")).value).toBe("read after");
    });

    test("a field deleted and written again never takes a version it had before", async () => {
      const coordinator = instance();
      const key = randomUUID();
      await coordinator.sharedHashes!.update(key, "f", () => "first", 60_000);
      const first = await coordinator.sharedHashes!.readVersioned(key, "f");
      await coordinator.sharedHashes!.remove(key);
      await coordinator.sharedHashes!.update(key, "f", () => "second", 60_000);
      expect(await coordinator.sharedHashes!.install(key, "f", first.token, "stale", 60_000)).toBe(false);
    });
  });

  describe("failures that are not Redis's", () => {
    test("the app's own code failing inside a command leaves Redis in use for the next call", async () => {
      const coordinator = instance();
      const key = randomUUID();
      await coordinator.bumpVersion(key);
      loggedLines();
      vi.spyOn(clock, "now").mockImplementationOnce(() => {
        throw new Error("a bug in the caller");
      });
      // The bucket's script reads the clock: it fails before reaching Redis, and counts locally.
      expect(await coordinator.takeTokens(key, { capacity: 1, refillPerSecond: 1 })).toEqual({ allowed: true });
      await coordinator.bumpVersion(key);
      expect(await coordinator.readVersions([key])).toEqual([2]);
    });
  });

  describe("when Redis cannot be reached", () => {
    test("nothing answers: withLocks refuses fast, takeTokens counts locally, versions throw; logged once", async () => {
      const logged = loggedLines();
      // No timeout ends a call within the test: each must be refused without waiting for one.
      const down = instance({ url: "redis://127.0.0.1:1", commandTimeoutMs: 600_000, lockWaitMs: 600_000 });
      let ran = false;
      await expect(down.withLocks(["item"], async () => void (ran = true))).rejects.toBeInstanceOf(
        LockUnavailableError,
      );
      expect(ran).toBe(false);

      const rule = { capacity: 2, refillPerSecond: 1 };
      expect(await down.takeTokens("client", rule)).toEqual({ allowed: true });
      expect(await down.takeTokens("client", rule)).toEqual({ allowed: true });
      expect(await down.takeTokens("client", rule)).toMatchObject({ allowed: false });

      await expect(down.readVersions(["shop:a"])).rejects.toBeInstanceOf(CoordinatorUnavailableError);
      await expect(down.bumpVersion("shop:a")).rejects.toBeInstanceOf(CoordinatorUnavailableError);
      await expect(down.withLocks(["item"], async () => {})).rejects.toBeInstanceOf(LockUnavailableError);

      expect(logged({ level: "warn", text: "Redis unreachable (" }).length).toBe(1);
      expect(logged({ level: "warn", text: "rate limits are per instance" }).length).toBe(1);
    });

    test("Redis goes away and comes back: refused meanwhile, resumes by itself, a failed bump is made then; logged per transition", async () => {
      const relay = await createRelay(REDIS_URL);
      const cutOff = instance({ url: relay.url });
      const other = instance();
      const key = randomUUID();
      await cutOff.bumpVersion(key);
      const logged = loggedLines();

      await relay.cut();
      await vi.waitFor(() => expect(cutOff.readVersions([key])).rejects.toBeInstanceOf(CoordinatorUnavailableError));
      await expect(cutOff.bumpVersion(key)).rejects.toBeInstanceOf(CoordinatorUnavailableError);
      await expect(cutOff.withLocks([key], async () => {})).rejects.toBeInstanceOf(LockUnavailableError);
      expect(await other.readVersions([key])).toEqual([1]);

      await relay.restore();
      await vi.waitFor(async () => expect(await cutOff.readVersions([key])).toEqual([2]), { interval: 50 });
      expect(await other.readVersions([key])).toEqual([2]);
      await expect(cutOff.withLocks([key], async () => "again")).resolves.toBe("again");
      expect(logged({ level: "warn", text: "Redis unreachable (" }).length).toBe(1);
      expect(logged({ level: "info", text: "Redis reachable again" }).length).toBe(1);
    });

    test("Redis comes back without its data: onDataLoss is called so caches keyed by versions are dropped", async () => {
      const relay = await createRelay(REDIS_URL);
      const onDataLoss = vi.fn();
      const coordinator = instance({ url: relay.url, onDataLoss });
      await coordinator.readVersions(["shop:a"]);
      await relay.cut();
      await dropKeys(raw, prefix); // what a restart without persistence does
      await relay.restore();
      await vi.waitFor(() => expect(onDataLoss).toHaveBeenCalledOnce(), { interval: 50 });

      // A reconnection that finds the data where it was is not a loss.
      await relay.cut();
      await relay.restore();
      await vi.waitFor(async () => expect(await coordinator.readVersions(["shop:a"])).toEqual([0]), { interval: 50 });
      expect(onDataLoss).toHaveBeenCalledOnce();
    });

    test("Redis comes back without its data: locks and cache installs wait out the writes that may still be in flight", async () => {
      const relay = await createRelay(REDIS_URL);
      // A bound far longer than the test, so the embargo is certainly still on when looked at; the
      // test ends it by deleting its key, as the passing of that time would.
      const coordinator = instance({ url: relay.url, inFlightBoundMs: 120_000, lockWaitMs: 300 });
      const hashes = coordinator.sharedHashes!;
      const key = randomUUID();
      await hashes.update(key, "state", () => "before", 60_000);
      const beforeLoss = await hashes.readVersioned(key, "state");
      expect(beforeLoss.value).toBe("before");

      await relay.cut();
      await dropKeys(raw, prefix);
      await relay.restore();
      await vi.waitFor(async () => expect(await coordinator.readVersions([key])).toEqual([0]), { interval: 50 });

      expect(await raw.pttl(`${prefix}:embargo`)).toBeGreaterThan(60_000);
      await expect(coordinator.withLocks([key], async () => {})).rejects.toBeInstanceOf(LockUnavailableError);
      // What was read before the loss never installs, whatever the field holds now.
      expect(await hashes.install(key, "state", beforeLoss.token, "stale", 60_000)).toBe(false);
      const afterLoss = await hashes.readVersioned(key, "state");
      expect(await hashes.install(key, "state", afterLoss.token, "during", 60_000)).toBe(false);

      await raw.del(`${prefix}:embargo`);
      await expect(coordinator.withLocks([key], async () => "taken")).resolves.toBe("taken");
      expect(await hashes.install(key, "state", beforeLoss.token, "stale", 60_000)).toBe(false);
      expect(await hashes.install(key, "state", afterLoss.token, "filled", 60_000)).toBe(true);
      expect((await hashes.readVersioned(key, "state")).value).toBe("filled");
    });

    test("a fresh instance's first connection sets no embargo", async () => {
      const coordinator = instance({ inFlightBoundMs: 120_000, lockWaitMs: 300 });
      await expect(coordinator.withLocks([randomUUID()], async () => "taken")).resolves.toBe("taken");
    });

    test("a server that accepts connections and never answers: calls fail within the command timeout", async () => {
      const accepted: net.Socket[] = [];
      const silent = net.createServer((socket) => accepted.push(socket));
      await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
      try {
        // Nothing else ends these calls within the test: only the command timeout can.
        const hung = instance({
          url: `redis://127.0.0.1:${(silent.address() as net.AddressInfo).port}`,
          commandTimeoutMs: 300,
          lockWaitMs: 600_000,
        });
        await expect(hung.withLocks(["item"], async () => {})).rejects.toBeInstanceOf(LockUnavailableError);
        await expect(hung.readVersions(["shop:a"])).rejects.toBeInstanceOf(CoordinatorUnavailableError);
      } finally {
        silent.close();
        for (const socket of accepted) socket.destroy();
      }
    });
  });
});
