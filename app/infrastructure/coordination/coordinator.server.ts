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
   * fn may ignore its argument; a holder whose writes must not outlive the locks checks them
   * with `held.assertHeld()` right before each write.
   */
  withLocks<T>(keys: readonly string[], fn: (held: HeldLocks) => Promise<T>): Promise<T>;
  /** Takes `cost` tokens from the bucket at `key` (created full), or says how long until it could. */
  takeTokens(key: string, rule: TokenBucketRule, cost?: number): Promise<TokenDecision>;
  /**
   * Takes `cost` tokens whatever the bucket holds, for a cost known only once it was spent (the
   * platform's points of an answer): the bucket may go below zero, a debt its refill pays off
   * before `takeTokens` allows anything again.
   */
  spendTokens(key: string, rule: TokenBucketRule, cost: number): Promise<void>;
  /**
   * The current version of `key` (0 when never bumped). Throws CoordinatorUnavailableError when
   * the shared store cannot say: the caller must then treat whatever it cached as stale.
   */
  readVersions(keys: readonly string[]): Promise<number[]>;
  /** Increments the version of `key`; every instance sees the new value on its next read. */
  bumpVersion(key: string): Promise<void>;
  /**
   * State every instance reads and changes, in hashes that expire; only the Redis coordinator has
   * it (one process on its own keeps such state in its own memory).
   */
  readonly sharedHashes?: SharedHashes;
  close(): Promise<void>;
}

/** Fields of hashes shared by every instance; throws CoordinatorUnavailableError when they cannot be reached. */
export interface SharedHashes {
  /**
   * The generation cached state is kept under: hashes of one generation are never read in another.
   * Undefined while a cache of list states must not be used at all (list locks are in PostgreSQL,
   * whose writers do not keep such a cache current); see decision 0026.
   */
  cacheGeneration(): Promise<string | undefined>;
  read(key: string, field: string): Promise<string | undefined>;
  /**
   * Replaces the field with change(current) atomically (retried when another instance changed it
   * in between), or deletes it when change gives undefined; the hash expires ttlMs after its last change.
   */
  update(
    key: string,
    field: string,
    change: (current: string | undefined) => string | undefined,
    ttlMs: number,
  ): Promise<void>;
  /** Empties the hash; a version token read before it no longer matches. */
  remove(key: string): Promise<void>;
  /** The field's value and a token of its version, for install. */
  readVersioned(key: string, field: string): Promise<{ value: string | undefined; token: string }>;
  /**
   * Writes the field only if it is still at the version `token` was read at (and the store kept its
   * data since, and no embargo holds); says whether it wrote. For a reader filling a cache with what
   * it read: it must never replace what a writer installed after the reader looked.
   */
  install(key: string, field: string, token: string, value: string, ttlMs: number): Promise<boolean>;
}

/** What fn of withLocks holds. */
export interface HeldLocks {
  /**
   * Greater than the fence of every earlier holder of any of these keys. A store that keeps the
   * highest fence it has accepted can refuse the late write of a holder whose locks lapsed.
   */
  readonly fence: number;
  /**
   * Resolves when every lock is still this holder's (and extends them by a full lease); throws
   * LockLostError otherwise, or when that cannot be confirmed. It narrows the window in which a
   * lapsed holder can write, it does not close it: see redis-coordinator.server.ts.
   */
  assertHeld(): Promise<void>;
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

/**
 * A lock that was taken but is no longer (or no longer provably) the holder's; thrown by
 * assertHeld, so the write it guards did not run. A LockUnavailableError, so callers that answer
 * those with a retryable error do the same here.
 */
export class LockLostError extends LockUnavailableError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "LockLostError";
  }
}

/** The shared store did not answer (or refused); what was asked of it did not happen. */
export class CoordinatorUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "CoordinatorUnavailableError";
  }
}
