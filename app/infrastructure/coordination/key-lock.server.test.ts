import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { LockUnavailableError } from "~/infrastructure/coordination/coordinator.server";
import { createKeyLocks } from "~/infrastructure/coordination/key-lock.server";

// The waits are read from performance.now() and bounded with setTimeout: both run on the test's clock.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
});
afterEach(() => {
  vi.useRealTimers();
});

function holding(withKeyLocks: ReturnType<typeof createKeyLocks>, key: string) {
  let release!: () => void;
  const done = withKeyLocks([key], () => new Promise<void>((resolve) => (release = resolve)));
  return { release: () => (release(), done) };
}

/** Whether the promise has settled once everything due by now has run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  await vi.advanceTimersByTimeAsync(0);
  return done;
}

test("a waiter that gives up leaves its place to the next in line, who still waits for the holder", async () => {
  const withKeyLocks = createKeyLocks();
  const order: string[] = [];
  const holder = holding(withKeyLocks, "k");
  const impatient = withKeyLocks(["k"], async () => order.push("impatient"), 30);
  const patient = withKeyLocks(["k"], async () => order.push("patient"));
  const refused = expect(impatient).rejects.toBeInstanceOf(LockUnavailableError);
  await vi.advanceTimersByTimeAsync(30);
  await refused;
  await vi.advanceTimersByTimeAsync(1_000);
  expect(order).toEqual([]);
  await holder.release();
  await patient;
  expect(order).toEqual(["patient"]);
});

test("a waiter arriving after the last in line gave up still waits for the holder", async () => {
  const withKeyLocks = createKeyLocks();
  const order: string[] = [];
  const holder = holding(withKeyLocks, "k");
  const refused = expect(withKeyLocks(["k"], async () => order.push("impatient"), 30)).rejects.toBeInstanceOf(
    LockUnavailableError,
  );
  await vi.advanceTimersByTimeAsync(30);
  await refused;
  const late = withKeyLocks(["k"], async () => order.push("late"));
  await vi.advanceTimersByTimeAsync(1_000);
  expect(order).toEqual([]);
  await holder.release();
  await late;
  expect(order).toEqual(["late"]);
});

test("the wait is bounded over all keys together, and a free key is taken even at the deadline", async () => {
  const withKeyLocks = createKeyLocks();
  const holderOfA = holding(withKeyLocks, "a");
  const holderOfB = holding(withKeyLocks, "b");
  const both = withKeyLocks(["a", "b"], async () => "both", 50);
  // "a" is free after 30 ms; "b" then has what is left of the 50, not 50 of its own.
  await vi.advanceTimersByTimeAsync(30);
  await holderOfA.release();
  await vi.advanceTimersByTimeAsync(19);
  expect(await settled(both)).toBe(false);
  await vi.advanceTimersByTimeAsync(1);
  expect(await settled(both)).toBe(true);
  await expect(both).rejects.toBeInstanceOf(LockUnavailableError);
  await holderOfB.release();
  await expect(withKeyLocks(["a", "b"], async () => "both", 0)).resolves.toBe("both");
});
