import { writeLog } from "~/lib/json-log";
import { randomUUID } from "node:crypto";
import { clock } from "~/lib/clock";
import { sleep } from "~/lib/sleep";
import {
  CoordinatorUnavailableError,
  LockLostError,
  LockUnavailableError,
  type Coordinator,
  type HeldLocks,
  type TokenBucketRule,
  type TokenDecision,
} from "./coordinator.server";
import type { FallbackStore } from "./fallback-store.server";
import { createKeyLocks } from "./key-lock.server";
import { createLocalCoordinator } from "./local-coordinator.server";
import { createModeKeeper } from "./mode-keeper.server";
import { createRedisLink } from "./redis-link.server";
import { createReleaseNotices, type ReleaseWatch } from "./release-notices.server";
import * as scripts from "./redis-scripts.server";

export interface RedisCoordinatorOptions {
  /** redis:// or rediss:// URL of one Redis (a primary). Not Cluster: a lock script touches keys in several slots. */
  url: string;
  /** Starts every key and channel, so several apps or sandboxes can share one Redis. */
  keyPrefix: string;
  /** How long a lock outlives a holder that stops renewing it (crashed, cut off, or paused). */
  lockTtlMs?: number;
  /** How long withLocks waits for its locks before LockUnavailableError. */
  lockWaitMs?: number;
  /** Bounds connecting and every command. */
  commandTimeoutMs?: number;
  /** The longest a waiter sleeps between attempts when no release notice wakes it. */
  maxPollMs?: number;
  /**
   * Called when Redis comes back without the data it had (restarted without persistence, or a
   * failover to a replica that lagged). Version bumps may have been lost with it, so anything
   * cached against a version must be dropped.
   */
  onDataLoss?: () => void;
  /**
   * The longest a write sent under a lock may still land after the holder last confirmed its lock:
   * one platform request's timeout (5 s, app/platform/platform-fetch.server.ts) with a margin. When
   * Redis loses its data, locks and cache fills wait until this long after it went away.
   */
  inFlightBoundMs?: number;
  /**
   * Where list locks go while Redis is away (decision 0026): with it, this instance grants Redis
   * locks only under a permit kept in PostgreSQL, and takes them there once every instance gave its
   * permit up. Without it, locks are refused while Redis is away.
   */
  fallback?: FallbackStore;
  /** Permit timing, for tests (defaults in mode-keeper.server.ts). */
  permitRenewEveryMs?: number;
  permitValidityMs?: number;
}

const DEFAULTS = {
  lockTtlMs: 10_000,
  lockWaitMs: 5_000,
  commandTimeoutMs: 1_000,
  maxPollMs: 100,
  inFlightBoundMs: 6_000,
};
const FALLBACK_NOTICE_INTERVAL_MS = 60_000;
/** How long a PostgreSQL lock waiter sleeps between attempts (there are no release notices there). */
const POSTGRES_LOCK_POLL_MS = 40;

/**
 * The coordinator every instance shares through one Redis.
 *
 * Locks are leases: `SET NX PX` per key, renewed every third of the lease while fn runs, released
 * by compare-and-delete, so only the holder's token can release or extend them. While the holder
 * keeps renewing, no one else gets the lock. What is not guaranteed: a holder that stops renewing
 * for longer than the lease (a process paused by GC or a blocked event loop, an instance cut off
 * from Redis, Redis restarted without persistence) loses the lock while fn may still be running,
 * and another instance can then take it. assertHeld() right before a write narrows that window to
 * the time between its answer and the write reaching the platform; only a store that checks the
 * fence could close it, and the platform's metaobjects do not.
 *
 * Waiting: within an instance waiters queue first come, first served, so at most one per key
 * waits in Redis; it sleeps until the holder's release notice (pub/sub) or the lease's end,
 * capped at maxPollMs (100 ms). Every waiter gives up after lockWaitMs in all. There is no queue across
 * instances: an instance whose own queue for a key is long tends to keep the key until that
 * queue drains, and another instance's waiter may run out of time meanwhile.
 *
 * When Redis is unreachable every call fails fast: withLocks throws LockUnavailableError (the
 * guarded work never runs without its locks) unless `fallback` is given: then it moves the
 * locks to PostgreSQL behind a mode switch every instance respects (decision 0026: Redis locks
 * only under a permit renewed in PostgreSQL, PostgreSQL locks only once no permit is left, and the
 * shared list-state cache unused while they are there); takeTokens falls back to this instance's own
 * buckets, readVersions and bumpVersion throw CoordinatorUnavailableError. A bump that failed is
 * made again when Redis is back, so other instances do not keep a stale cache of a change this
 * one recorded while cut off. Redis that comes back without its data (an epoch key tells)
 * calls onDataLoss, since bumps may have been lost with it.
 *
 * Redis must not evict keys (maxmemory-policy noeviction): an evicted lock or version is a lost
 * lock or a lost bump.
 */
/** How long a removed hash is remembered, so an install read before the removal cannot land: far longer than a read. */
const REMOVAL_REMEMBERED_MS = 10 * 60_000;

/** Tries before an update of a shared field that others keep changing gives up. */
const MAX_FIELD_UPDATE_ATTEMPTS = 10;

export function createRedisCoordinator(options: RedisCoordinatorOptions): Coordinator {
  const { lockTtlMs, lockWaitMs, commandTimeoutMs, maxPollMs, inFlightBoundMs } = { ...DEFAULTS, ...options };
  const key = (kind: string, name: string) => `${options.keyPrefix}:${kind}:${name}`;
  const fenceKey = `${options.keyPrefix}:lock-fence`;
  const epochKey = `${options.keyPrefix}:epoch`;
  const embargoKey = `${options.keyPrefix}:embargo`;
  const versionCounterKey = `${options.keyPrefix}:field-version`;
  const instanceId = randomUUID();
  let acquisitions = 0;
  let knownEpoch: string | undefined;
  const unsentBumps = new Set<string>();
  const fallback = createLocalCoordinator();
  // Waiters in this process queue here before they wait in Redis, so a release there wakes one
  // waiter per instance rather than every request waiting in every instance.
  const queueInProcess = createKeyLocks();
  let fallbackNoticeAtMs = -Infinity;

  const link = createRedisLink({
    url: options.url,
    commandTimeoutMs,
    async onConnected(client, downSinceMs) {
      const embargoMs =
        downSinceMs === undefined ? 0 : Math.ceil(Math.max(0, downSinceMs + inFlightBoundMs - performance.now()));
      const epoch = String(
        await scripts.readEpoch(client, [epochKey, embargoKey], [randomUUID(), knownEpoch ?? "", embargoMs]),
      );
      if (knownEpoch !== undefined && epoch !== knownEpoch) {
        writeLog(
          "warn",
          "[coordination] Redis came back without its data; dropping what was cached against its versions",
        );
        options.onDataLoss?.();
      }
      knownEpoch = epoch;
      for (const versionKey of unsentBumps) {
        await client.incr(versionKey);
        unsentBumps.delete(versionKey);
      }
    },
  });
  const notices = createReleaseNotices(link.subscriber);
  const fallbackStore = options.fallback;
  const keeper =
    fallbackStore &&
    createModeKeeper({
      store: fallbackStore,
      instanceId,
      redisReachable: link.isUp,
      inFlightBoundMs,
      ...(options.permitRenewEveryMs === undefined ? {} : { renewEveryMs: options.permitRenewEveryMs }),
      ...(options.permitValidityMs === undefined ? {} : { permitValidityMs: options.permitValidityMs }),
      async onNewRedisEpoch(nowMicros, afterPostgres) {
        // Fences drawn in Redis from now on stay above those PostgreSQL drew meanwhile.
        await link.run((client) => scripts.raiseCounter(client, [fenceKey], [nowMicros]));
        // Bumps an instance could not send while the locks were in PostgreSQL were sent before it
        // voted for Redis, but one that died meanwhile took its own with it.
        if (afterPostgres) options.onDataLoss?.();
      },
    });

  async function acquire(lockKeys: readonly string[], token: string, deadline: number): Promise<number> {
    let taken = 0;
    let watch: ReleaseWatch | undefined;
    try {
      for (;;) {
        const heardBefore = watch?.heard;
        const [count, fenceOrLeaseLeft] = integers(
          await link.run((client) =>
            scripts.acquireLocks(client, [fenceKey, embargoKey, ...lockKeys.slice(taken)], [token, lockTtlMs]),
          ),
        );
        taken += count;
        if (taken === lockKeys.length) return fenceOrLeaseLeft;
        const blocking = lockKeys[taken]!;
        if (watch?.channel !== blocking) {
          // Subscribed only now, so the release may have come before: try again before sleeping.
          watch?.close();
          watch = await notices.watch(blocking);
          continue;
        }
        if (watch.heard !== heardBefore) continue;
        const left = deadline - performance.now();
        if (left <= 0)
          throw new LockUnavailableError(`Waited ${lockWaitMs} ms for the lock on ${blocking}; retry shortly`);
        // A lease that has less left than the cap is a holder that may have crashed: try as it ends.
        const sleep = Math.min(fenceOrLeaseLeft > 0 ? fenceOrLeaseLeft : maxPollMs, maxPollMs);
        await watch.next(Math.min(left, sleep * (0.8 + Math.random() * 0.4)));
      }
    } catch (error) {
      // All the keys, not just those taken: an attempt that timed out may still have run on the server.
      await release(lockKeys, token);
      if (error instanceof LockUnavailableError) throw error;
      throw new LockUnavailableError("The locks could not be taken: Redis is unreachable; retry shortly", {
        cause: error,
      });
    } finally {
      watch?.close();
    }
  }

  async function release(lockKeys: readonly string[], token: string): Promise<number> {
    try {
      return Number(await link.attempt((client) => scripts.releaseLocks(client, lockKeys, [token])));
    } catch {
      // The link has said Redis went away; the locks end with their lease.
      return 0;
    }
  }

  async function assertHeld(lockKeys: readonly string[], token: string): Promise<void> {
    if (keeper && !keeper.redisLocksAllowed()) {
      throw new LockLostError("This instance's Redis permit lapsed or the locks moved to PostgreSQL");
    }
    let held: number;
    try {
      held = Number(await link.attempt((client) => scripts.extendLocks(client, lockKeys, [token, lockTtlMs])));
    } catch (error) {
      throw new LockLostError("Could not confirm the locks are still held: Redis is unreachable", { cause: error });
    }
    if (held < lockKeys.length) {
      throw new LockLostError(`${lockKeys.length - held} of ${lockKeys.length} locks lapsed and may be someone else's`);
    }
  }

  /** Renews the leases while fn runs; a failed renewal is retried at the next tick. */
  function keepRenewing(lockKeys: readonly string[], token: string): () => void {
    let timer: NodeJS.Timeout;
    let stopped = false;
    const schedule = () => {
      timer = setTimeout(async () => {
        await link.attempt((client) => scripts.extendLocks(client, lockKeys, [token, lockTtlMs])).catch(() => {});
        if (!stopped) schedule();
      }, lockTtlMs / 3).unref();
    };
    schedule();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }

  type Outcome<T> = { ran: true; value: T } | { ran: false; redisUnreachable: boolean };

  /**
   * fn under Redis locks; not run (and nothing held) when Redis could not be reached for them, or
   * when the mode moved while they were being taken.
   */
  async function withRedisLocks<T>(
    lockKeys: readonly string[],
    token: string,
    deadline: number,
    fn: (held: HeldLocks) => Promise<T>,
  ): Promise<Outcome<T>> {
    let fence: number;
    try {
      fence = await acquire(lockKeys, token, deadline);
    } catch (error) {
      if (keeper && error instanceof LockUnavailableError && error.cause instanceof CoordinatorUnavailableError) {
        return { ran: false, redisUnreachable: true };
      }
      throw error;
    }
    const takenAtMs = performance.now();
    try {
      // Taken while the permit lapsed or the mode moved: granted by no one.
      if (keeper && !keeper.redisLocksAllowed()) return { ran: false, redisUnreachable: false };
      const stopRenewing = keepRenewing(lockKeys, token);
      try {
        return { ran: true, value: await fn({ fence, assertHeld: () => assertHeld(lockKeys, token) }) };
      } finally {
        stopRenewing();
      }
    } finally {
      const released = await release(lockKeys, token);
      if (released < lockKeys.length) {
        writeLog(
          "warn",
          `[coordination] ${lockKeys.length - released} of ${lockKeys.length} locks (${lockKeys.join(", ")}) lapsed or ` +
            `could not be released after ${Math.round(performance.now() - takenAtMs)} ms; writes under them may have interleaved`,
        );
      }
    }
  }

  /**
   * fn under PostgreSQL locks, taken in sorted order (so waiting while holding some cannot
   * deadlock) in the epoch the keeper knows; not run when the mode moved meanwhile.
   */
  async function withPostgresLocks<T>(
    lockKeys: readonly string[],
    token: string,
    deadline: number,
    fn: (held: HeldLocks) => Promise<T>,
  ): Promise<Outcome<T>> {
    const store = fallbackStore!;
    const epoch = keeper!.epoch()!;
    let fence = 0;
    try {
      for (const lockKey of lockKeys) {
        for (;;) {
          const taken = await store.takeLock(epoch, lockKey, token, lockTtlMs);
          if (taken !== undefined) {
            fence = Math.max(fence, taken);
            break;
          }
          if (keeper!.epoch() !== epoch) {
            await releaseInPostgres(lockKeys, token);
            return { ran: false, redisUnreachable: false };
          }
          const left = deadline - performance.now();
          if (left <= 0)
            throw new LockUnavailableError(`Waited ${lockWaitMs} ms for the lock on ${lockKey}; retry shortly`);
          await sleep(Math.min(left, POSTGRES_LOCK_POLL_MS * (0.5 + Math.random())));
        }
      }
    } catch (error) {
      await releaseInPostgres(lockKeys, token);
      if (error instanceof LockUnavailableError) throw error;
      throw new LockUnavailableError("The locks could not be taken: Redis and PostgreSQL unreachable; retry shortly", {
        cause: error,
      });
    }
    const confirm = async (): Promise<void> => {
      const sentAtMs = performance.now();
      let held: number;
      try {
        held = await store.renewLocks(epoch, lockKeys, token, lockTtlMs);
      } catch (error) {
        throw new LockLostError("Could not confirm the locks are still held: PostgreSQL is unreachable", {
          cause: error,
        });
      }
      if (held < lockKeys.length) {
        throw new LockLostError(`${lockKeys.length - held} of ${lockKeys.length} locks lapsed or the mode moved`);
      }
      // The lease was renewed at some time after the send: a write sent now lands within
      // inFlightBoundMs, before it ends, only if the answer did not take the rest of it.
      if (performance.now() - sentAtMs > lockTtlMs - inFlightBoundMs) {
        throw new LockLostError("The locks were confirmed too late to write under them");
      }
    };
    const timer = setInterval(() => void confirm().catch(() => {}), lockTtlMs / 3).unref();
    try {
      return { ran: true, value: await fn({ fence, assertHeld: confirm }) };
    } finally {
      clearInterval(timer);
      await releaseInPostgres(lockKeys, token);
    }
  }

  async function releaseInPostgres(lockKeys: readonly string[], token: string): Promise<void> {
    // Unreachable: the locks end with their lease.
    await fallbackStore!.releaseLocks(lockKeys, token).catch(() => {});
  }

  /** Both takes of a bucket: in Redis, or in this instance's own buckets while Redis is unreachable. */
  async function takeFromBucket(
    name: string,
    rule: TokenBucketRule,
    cost: number,
    spend: boolean,
  ): Promise<TokenDecision> {
    try {
      const waitMs = Number(
        await link.run((client) =>
          scripts.takeTokens(
            client,
            [key("bucket", name)],
            [rule.capacity, rule.refillPerSecond, cost, clock.now().getTime(), spend ? "spend" : ""],
          ),
        ),
      );
      return waitMs === 0 ? { allowed: true } : { allowed: false, retryAfterMs: waitMs };
    } catch {
      const nowMs = performance.now();
      if (nowMs - fallbackNoticeAtMs >= FALLBACK_NOTICE_INTERVAL_MS) {
        fallbackNoticeAtMs = nowMs;
        writeLog("warn", "[coordination] Redis unreachable: rate limits are per instance until it is back");
      }
      if (!spend) return fallback.takeTokens(name, rule, cost);
      await fallback.spendTokens(name, rule, cost);
      return { allowed: true };
    }
  }

  return {
    kind: "redis",

    withLocks<T>(keys: readonly string[], fn: (held: HeldLocks) => Promise<T>): Promise<T> {
      const deadline = performance.now() + lockWaitMs;
      return queueInProcess(
        keys,
        async () => {
          const names = [...new Set(keys)].sort();
          const lockKeys = names.map((name) => key("lock", name));
          const token = `${instanceId}:${++acquisitions}`;
          const inRedis = () => withRedisLocks(lockKeys, token, deadline, fn);
          for (;;) {
            const mode = keeper ? await keeper.settle(deadline) : "redis";
            const outcome =
              mode === "postgres"
                ? await withPostgresLocks(lockKeys, token, deadline, fn)
                : await (keeper ? keeper.trackRedisWork(inRedis) : inRedis());
            if (outcome.ran) return outcome.value;
            if (outcome.redisUnreachable) await keeper!.fallBack(deadline);
          }
        },
        lockWaitMs,
      );
    },

    takeTokens: (name, rule, cost = 1) => takeFromBucket(name, rule, cost, false),
    async spendTokens(name, rule, cost) {
      await takeFromBucket(name, rule, cost, true);
    },

    async readVersions(names) {
      if (names.length === 0) return [];
      if (keeper) {
        await keeper.started;
        // Without a permit, writes may be going on under PostgreSQL locks whose bumps wait for Redis.
        if (!keeper.redisLocksAllowed()) throw new CoordinatorUnavailableError("List locks are not in Redis now");
      }
      const values = await link.run((client) => client.mget(names.map((name) => key("version", name))));
      return values.map((value) => Number(value ?? 0));
    },

    async bumpVersion(name) {
      const versionKey = key("version", name);
      try {
        await link.run((client) => client.incr(versionKey));
      } catch (error) {
        unsentBumps.add(versionKey);
        // No instance reads versions while the locks are in PostgreSQL, and each sends what it
        // could not before it votes for Redis again: the bump is as good as made.
        if (keeper?.postgresReady()) return;
        throw error;
      }
    },

    sharedHashes: {
      async cacheGeneration() {
        if (!keeper) return "";
        await keeper.started;
        return keeper.redisLocksAllowed() ? String(keeper.epoch()) : undefined;
      },
      async read(name, field) {
        return (await link.run((client) => client.hget(key("hash", name), field))) ?? undefined;
      },
      async update(name, field, change, ttlMs) {
        const hashKey = key("hash", name);
        for (let attempt = 0; attempt < MAX_FIELD_UPDATE_ATTEMPTS; attempt++) {
          const [current, version] = await link.run((client) => client.hmget(hashKey, field, `${field}#v`));
          const next = change(current ?? undefined);
          const written = await link.run((client) =>
            scripts.compareAndSetField(client, [hashKey, versionCounterKey], [field, version ?? "", next ?? "", ttlMs]),
          );
          if (Number(written) === 1) return;
        }
        throw new CoordinatorUnavailableError(
          `${hashKey} ${field} kept changing under ${MAX_FIELD_UPDATE_ATTEMPTS} updates`,
        );
      },
      async remove(name) {
        await link.run((client) =>
          scripts.removeHash(client, [key("hash", name), versionCounterKey], [REMOVAL_REMEMBERED_MS]),
        );
      },
      async readVersioned(name, field) {
        const reply = await link.run((client) =>
          scripts.readVersionedField(client, [key("hash", name), epochKey], [field, randomUUID()]),
        );
        const [value, token] = reply as [string | null, string];
        return { value: value ?? undefined, token };
      },
      async install(name, field, token, value, ttlMs) {
        const written = await link.run((client) =>
          scripts.installField(
            client,
            [key("hash", name), epochKey, embargoKey, versionCounterKey],
            [field, token, value, ttlMs],
          ),
        );
        return Number(written) === 1;
      },
    },

    async close() {
      await keeper?.close();
      await link.close();
    },
  };
}

function integers(reply: unknown): [number, number] {
  if (!Array.isArray(reply) || reply.length !== 2 || !reply.every(Number.isSafeInteger)) {
    throw new Error(`Unexpected lock script reply: ${JSON.stringify(reply)}`);
  }
  return [reply[0], reply[1]];
}
