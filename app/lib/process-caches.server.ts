const clears = new Set<() => void>();

/** Registers how to drop one of this process's in-memory caches. */
export function registerProcessCache(clear: () => void): void {
  clears.add(clear);
}

/**
 * Drops everything this process holds in memory about shops and customers. For when the stores
 * behind the caches were replaced wholesale (the tests' per-test reset), which no version bump
 * announces; during normal work every change goes through a bump instead.
 */
export function clearProcessCaches(): void {
  for (const clear of clears) clear();
}
