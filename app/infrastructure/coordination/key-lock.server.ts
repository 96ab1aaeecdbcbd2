import { LockUnavailableError } from "./coordinator.server";

export type KeyLocks = <T>(keys: readonly string[], fn: () => Promise<T>, waitMs?: number) => Promise<T>;

/**
 * In-process locks: fn runs while holding a lock on every key. Keys are taken in sorted order so
 * two callers with overlapping key sets cannot deadlock; this serializes read-decide-write per
 * item. Waiters are served first come, first served; with waitMs, one that waited that long in
 * all throws LockUnavailableError without running fn.
 */
export function createKeyLocks(): KeyLocks {
  const tails = new Map<string, Promise<void>>();
  return async (keys, fn, waitMs = Infinity) => {
    const deadline = performance.now() + waitMs;
    const releases: (() => void)[] = [];
    try {
      for (const key of [...new Set(keys)].sort()) releases.push(await acquire(tails, key, deadline));
      return await fn();
    } finally {
      for (const release of releases.reverse()) release();
    }
  };
}

async function acquire(tails: Map<string, Promise<void>>, key: string, deadline: number): Promise<() => void> {
  const previous = tails.get(key) ?? Promise.resolve();
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const tail = previous.then(() => held);
  tails.set(key, tail);
  const forget = () => {
    if (tails.get(key) === tail) tails.delete(key);
  };
  if (await settlesBy(previous, deadline)) {
    return () => {
      release();
      forget();
    };
  }
  // Whoever queued behind this waiter still waits for `previous`, through this released link.
  release();
  void tail.then(forget);
  throw new LockUnavailableError(`Timed out waiting in this process for the lock on ${key}; retry shortly`);
}

async function settlesBy(promise: Promise<void>, deadline: number): Promise<boolean> {
  if (deadline === Infinity) return promise.then(() => true);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>(
    (resolve) => (timer = setTimeout(() => resolve(false), deadline - performance.now())),
  );
  try {
    return await Promise.race([promise.then(() => true), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
