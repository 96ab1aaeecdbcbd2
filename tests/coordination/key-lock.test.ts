import { setTimeout as sleep } from "node:timers/promises";
import { expect, test } from "vitest";
import { LockUnavailableError } from "~/lib/coordination/coordinator.server";
import { createKeyLocks } from "~/lib/coordination/key-lock.server";

function holding(withKeyLocks: ReturnType<typeof createKeyLocks>, key: string) {
  let release!: () => void;
  const done = withKeyLocks([key], () => new Promise<void>((resolve) => (release = resolve)));
  return { release: () => (release(), done) };
}

test("a waiter that gives up leaves its place to the next in line, who still waits for the holder", async () => {
  const withKeyLocks = createKeyLocks();
  const order: string[] = [];
  const holder = holding(withKeyLocks, "k");
  const impatient = withKeyLocks(["k"], async () => order.push("impatient"), 30);
  const patient = withKeyLocks(["k"], async () => order.push("patient"));
  await expect(impatient).rejects.toBeInstanceOf(LockUnavailableError);
  await sleep(20);
  expect(order).toEqual([]);
  await holder.release();
  await patient;
  expect(order).toEqual(["patient"]);
});

test("a waiter arriving after the last in line gave up still waits for the holder", async () => {
  const withKeyLocks = createKeyLocks();
  const order: string[] = [];
  const holder = holding(withKeyLocks, "k");
  await expect(withKeyLocks(["k"], async () => order.push("impatient"), 30)).rejects.toBeInstanceOf(
    LockUnavailableError,
  );
  const late = withKeyLocks(["k"], async () => order.push("late"));
  await sleep(20);
  expect(order).toEqual([]);
  await holder.release();
  await late;
  expect(order).toEqual(["late"]);
});

test("the wait is bounded over all keys together, and a free key is taken even at the deadline", async () => {
  const withKeyLocks = createKeyLocks();
  const holder = holding(withKeyLocks, "b");
  const startedAt = performance.now();
  await expect(withKeyLocks(["a", "b"], async () => {}, 50)).rejects.toBeInstanceOf(LockUnavailableError);
  expect(performance.now() - startedAt).toBeLessThan(500);
  await holder.release();
  await expect(withKeyLocks(["a", "b"], async () => "both", 0)).resolves.toBe("both");
});
