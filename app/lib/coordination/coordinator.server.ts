/**
 * What several instances of the app must agree on, behind one interface: exclusive locks for
 * read-decide-write sequences, token buckets for rate limits, and version counters that tell
 * every instance at once that cached state is stale. One process on its own uses the in-process
 * implementation; with REDIS_URL set, every instance shares the Redis one.
 */
export interface Coordinator {
  /** "local" (this process only) or "redis" (shared by every instance). */
  readonly kind: "local" | "redis";
  /**
   * Runs fn while holding an exclusive lock on every key, across all instances. Keys are taken in
   * sorted order so overlapping key sets cannot deadlock. Throws LockUnavailableError when a lock
   * cannot be had in time (or the shared store is unreachable): the caller must not proceed.
   */
  withLocks<T>(keys: readonly string[], fn: () => Promise<T>): Promise<T>;
  /** Takes `cost` tokens from the bucket at `key` (created full), or says how long until it could. */
  takeTokens(key: string, rule: TokenBucketRule, cost?: number): Promise<TokenDecision>;
  /** The current version of `key` (0 when never bumped). */
  readVersions(keys: readonly string[]): Promise<number[]>;
  /** Increments the version of `key`; every instance sees the new value on its next read. */
  bumpVersion(key: string): Promise<void>;
  close(): Promise<void>;
}

export interface TokenBucketRule {
  /** The burst: how many tokens a full bucket holds. */
  capacity: number;
  refillPerSecond: number;
}

export type TokenDecision = { allowed: true } | { allowed: false; retryAfterMs: number };

/** A lock that could not be taken; the work it guards did not run. */
export class LockUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "LockUnavailableError";
  }
}
