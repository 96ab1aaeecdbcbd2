const tails = new Map<string, Promise<void>>();

async function acquire(key: string): Promise<() => void> {
  const previous = tails.get(key) ?? Promise.resolve();
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const tail = previous.then(() => held);
  tails.set(key, tail);
  await previous;
  return () => {
    release();
    if (tails.get(key) === tail) tails.delete(key);
  };
}

/**
 * Runs fn while holding an in-process lock on every key. Keys are taken in sorted order so two
 * callers with overlapping key sets cannot deadlock; this serializes read-decide-write per item.
 */
export async function withKeyLocks<T>(keys: string[], fn: () => Promise<T>): Promise<T> {
  const releases: (() => void)[] = [];
  try {
    for (const key of [...new Set(keys)].sort()) releases.push(await acquire(key));
    return await fn();
  } finally {
    for (const release of releases.reverse()) release();
  }
}
