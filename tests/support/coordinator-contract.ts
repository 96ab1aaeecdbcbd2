// What every Coordinator promises, run against each implementation so they cannot drift apart.
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Coordinator } from "~/infrastructure/coordination/coordinator.server";
import { holdClock } from "./time";

export function describeCoordinatorContract(name: string, create: () => Coordinator): void {
  describe(`${name}: the Coordinator contract`, () => {
    let coordinator: Coordinator;
    beforeAll(() => {
      coordinator = create();
    });
    afterAll(() => coordinator.close());
    // Every test has keys of its own, so a Redis shared by the file's tests carries nothing over.
    const fresh = () => randomUUID();

    test("withLocks runs fn under the locks and returns what it returns", async () => {
      await expect(coordinator.withLocks([fresh()], async () => "done")).resolves.toBe("done");
    });

    test("holders of one key run one after the other, each seeing the previous one's write", async () => {
      const key = fresh();
      let value = 0;
      let inside = 0;
      let mostInside = 0;
      await Promise.all(
        Array.from({ length: 20 }, () =>
          coordinator.withLocks([key], async () => {
            mostInside = Math.max(mostInside, ++inside);
            const read = value;
            await sleep(1);
            value = read + 1;
            inside--;
          }),
        ),
      );
      expect(value).toBe(20);
      expect(mostInside).toBe(1);
    });

    test("holders of different keys run at the same time", async () => {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      // The first holder waits for the second one to run: it would wait forever if they were serialized.
      await Promise.all([
        coordinator.withLocks([fresh()], () => released),
        coordinator.withLocks([fresh()], async () => release()),
      ]);
    });

    test("overlapping key sets given in opposite orders do not deadlock", async () => {
      const [a, b, c] = [fresh(), fresh(), fresh()];
      let runs = 0;
      await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          coordinator.withLocks(i % 2 ? [a, b, c] : [c, b, a], async () => {
            await sleep(1);
            runs++;
          }),
        ),
      );
      expect(runs).toBe(10);
    });

    test("a repeated key is one lock", async () => {
      const key = fresh();
      await expect(coordinator.withLocks([key, key], async () => "once")).resolves.toBe("once");
    });

    test("fn's error reaches the caller and the lock is free again", async () => {
      const key = fresh();
      await expect(coordinator.withLocks([key], async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
      await expect(coordinator.withLocks([key], async () => "next")).resolves.toBe("next");
    });

    test("each holder gets a greater fence, and assertHeld resolves while it holds the locks", async () => {
      const key = fresh();
      const fences: number[] = [];
      for (let i = 0; i < 3; i++) {
        await coordinator.withLocks([key], async (held) => {
          await held.assertHeld();
          fences.push(held.fence);
        });
      }
      expect(fences[1]).toBeGreaterThan(fences[0]!);
      expect(fences[2]).toBeGreaterThan(fences[1]!);
    });

    test("a bucket allows its burst, then refuses with the time until the next token", async () => {
      holdClock();
      const key = fresh();
      const rule = { capacity: 3, refillPerSecond: 1 };
      for (let i = 0; i < 3; i++) expect(await coordinator.takeTokens(key, rule)).toEqual({ allowed: true });
      const refused = await coordinator.takeTokens(key, rule);
      expect(refused.allowed).toBe(false);
      // One token at one per second.
      expect((refused as { retryAfterMs: number }).retryAfterMs).toBe(1000);
    });

    test("a cost takes that many tokens, and a refusal takes none", async () => {
      holdClock();
      const key = fresh();
      const rule = { capacity: 5, refillPerSecond: 0.5 };
      expect(await coordinator.takeTokens(key, rule, 3)).toEqual({ allowed: true });
      const refused = await coordinator.takeTokens(key, rule, 3);
      expect(refused).toMatchObject({ allowed: false });
      // One token short at half a token per second.
      expect((refused as { retryAfterMs: number }).retryAfterMs).toBe(2000);
      expect(await coordinator.takeTokens(key, rule, 2)).toEqual({ allowed: true });
    });

    test("a spend takes its cost past zero: the debt refills before a take of nothing is allowed", async () => {
      holdClock();
      const key = fresh();
      const rule = { capacity: 4, refillPerSecond: 2 };
      await coordinator.spendTokens(key, rule, 10);
      const refused = await coordinator.takeTokens(key, rule, 0);
      expect(refused).toMatchObject({ allowed: false });
      // Six tokens owed at two a second.
      expect((refused as { retryAfterMs: number }).retryAfterMs).toBe(3000);
      expect(await coordinator.takeTokens(fresh(), rule, 0)).toEqual({ allowed: true });
    });

    test("a bucket refills over time, and buckets are per key", async () => {
      const time = holdClock();
      const key = fresh();
      const rule = { capacity: 2, refillPerSecond: 2 };
      await coordinator.takeTokens(key, rule, 2);
      expect(await coordinator.takeTokens(key, rule)).toMatchObject({ allowed: false });
      expect(await coordinator.takeTokens(fresh(), rule)).toEqual({ allowed: true });
      time.advance(999);
      expect(await coordinator.takeTokens(key, rule, 2)).toMatchObject({ allowed: false });
      time.advance(1);
      expect(await coordinator.takeTokens(key, rule, 2)).toEqual({ allowed: true });
    });

    test("versions start at 0 and each bump adds one to its own key", async () => {
      const [a, b] = [fresh(), fresh()];
      expect(await coordinator.readVersions([a, b])).toEqual([0, 0]);
      await coordinator.bumpVersion(a);
      await coordinator.bumpVersion(a);
      await coordinator.bumpVersion(b);
      expect(await coordinator.readVersions([b, a])).toEqual([1, 2]);
      expect(await coordinator.readVersions([])).toEqual([]);
    });
  });
}
