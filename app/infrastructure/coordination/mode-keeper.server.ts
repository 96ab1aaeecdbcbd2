import { writeLog } from "~/lib/json-log";
import { sleep } from "~/lib/sleep";
import { LockUnavailableError } from "./coordinator.server";
import {
  MIN_POSTGRES_MODE_MS,
  permitUsable,
  permitUsableUntil,
  proposesReturn,
  renewalIntent,
  type ModeView,
  type Permit,
  type PermitTiming,
} from "./coordination-mode";
import type { FallbackStore } from "./fallback-store.server";

export interface ModeKeeperOptions {
  store: FallbackStore;
  instanceId: string;
  /** Whether this instance's link to Redis is up now. */
  redisReachable(): boolean;
  /**
   * Runs when the instance got a permit of an epoch it had none of, before the permit counts;
   * `afterPostgres` when the epoch before it was a PostgreSQL one. Throwing leaves the permit unused.
   */
  onNewRedisEpoch(nowMicros: number, afterPostgres: boolean): Promise<void>;
  /** The longest a write sent under a lock may still land after the lock was last confirmed. */
  inFlightBoundMs: number;
  renewEveryMs?: number;
  permitValidityMs?: number;
  driftMarginMs?: number;
}

/**
 * What an instance knows of the mode (decision 0026), kept current by renewing its row every
 * second; everything a lock asks of it is answered from memory, except while the mode changes.
 */
export interface ModeKeeper {
  /** Settles once the first renewal was tried. */
  readonly started: Promise<void>;
  /** Whether Redis locks may be granted and confirmed now (in memory). */
  redisLocksAllowed(): boolean;
  /** Whether PostgreSQL locks may be taken now: the mode is "postgres" and no Redis permit is left (in memory). */
  postgresReady(): boolean;
  /** The epoch known now (for PostgreSQL locks taken in it). */
  epoch(): number | undefined;
  /** Runs work under Redis locks this instance granted: its permit is kept (not renewed) until such work ended. */
  trackRedisWork<T>(work: () => Promise<T>): Promise<T>;
  /** Waits until one of the modes may be used; LockUnavailableError at the deadline (performance.now()). */
  settle(deadlineMs: number): Promise<"redis" | "postgres">;
  /** Redis could not be reached for a lock: moves the mode to "postgres" (unless it moved already) and settles. */
  fallBack(deadlineMs: number): Promise<"redis" | "postgres">;
  close(): Promise<void>;
}

const DEFAULTS = { renewEveryMs: 1_000, permitValidityMs: 45_000, driftMarginMs: 1_000 };
/** An instance's vote on the return to Redis counts this long after it was last renewed. */
const VOTE_WINDOW_MS = 5_000;
/** How often a waiter looks again while the mode changes. */
const SETTLE_POLL_MS = 50;
const FAILURE_NOTICE_INTERVAL_MS = 60_000;
/** How long the first renewals are waited for before calls go on with what is known. */
const STARTUP_WAIT_MS = 5_000;
/** How long closing waits for a renewal in flight. */
const CLOSE_WAIT_MS = 2_000;
/** Every this many renewals an instance sweeps what dead instances left in the tables. */
const SWEEP_EVERY_RENEWALS = 600;

export function createModeKeeper(options: ModeKeeperOptions): ModeKeeper {
  const { store, instanceId, inFlightBoundMs } = options;
  const { renewEveryMs, permitValidityMs, driftMarginMs } = { ...DEFAULTS, ...options };
  const timing: PermitTiming = { validityMs: permitValidityMs, driftMarginMs };
  let view: ModeView | undefined;
  let permit: Permit | undefined;
  let readyEpoch: number | undefined;
  let redisWork = 0;
  let renewing: Promise<void> | undefined;
  let closed = false;
  let closing: Promise<void> | undefined;
  let failureNoticeAtMs = -Infinity;

  function learn(next: ModeView): ModeView {
    if (view && (view.epoch !== next.epoch || view.mode !== next.mode)) {
      writeLog(
        "warn",
        `[coordination] list locks now in ${next.mode === "redis" ? "Redis" : "PostgreSQL"} (epoch ${next.epoch})`,
      );
    }
    view = next;
    return next;
  }

  async function renewOnce(): Promise<void> {
    const sentAtMs = performance.now();
    const reachable = options.redisReachable();
    const result = await store.renew({
      instanceId,
      ...renewalIntent(view, redisWork),
      permitValidityMs,
      redisReachable: reachable,
    });
    const before = view;
    let known = learn({ epoch: result.epoch, mode: result.mode });
    if (known.mode === "redis" && result.permitEpoch === known.epoch) {
      if (permit?.epoch !== known.epoch) {
        // Epochs alternate, so any but the first Redis one comes after PostgreSQL's.
        await options.onNewRedisEpoch(result.nowMicros, known.epoch > 1);
      }
      permit = { epoch: known.epoch, usableUntilMs: permitUsableUntil(sentAtMs, timing) };
    }
    if (known.mode === "postgres") {
      if (!result.permitsAlive) readyEpoch = known.epoch;
      if (
        proposesReturn(known, reachable) &&
        (await store.toRedis(known.epoch, MIN_POSTGRES_MODE_MS, VOTE_WINDOW_MS))
      ) {
        known = learn({ epoch: known.epoch + 1, mode: "redis" });
      }
    }
    // A permit to take, or one to drop, is not left for the next tick.
    if (before?.epoch !== known.epoch && !closed) setTimeout(() => void renew(), 0).unref();
  }

  /** One renewal at a time; callers that come meanwhile share it. */
  function renew(): Promise<void> {
    renewing ??= renewOnce()
      .catch((error: unknown) => {
        const nowMs = performance.now();
        if (nowMs - failureNoticeAtMs >= FAILURE_NOTICE_INTERVAL_MS) {
          failureNoticeAtMs = nowMs;
          writeLog(
            "warn",
            `[coordination] could not renew this instance's Redis permit (${(error as Error).message}): ` +
              "Redis locks go on until it lapses",
          );
        }
      })
      .finally(() => (renewing = undefined));
    return renewing;
  }

  /** A renewal sent after now: one in flight may have been sent before what the caller just changed. */
  async function renewAfterNow(): Promise<void> {
    await renewing;
    await renew();
  }

  let renewals = 0;
  const timer = setInterval(() => {
    void renew();
    if (++renewals % SWEEP_EVERY_RENEWALS === 0) void store.sweep().catch(() => {});
  }, renewEveryMs).unref();
  // The first renewal learns the epoch, the second asks for its permit. Waited for at most
  // STARTUP_WAIT_MS: a database that does not answer (or a pool never given) leaves the instance
  // without a permit, refusing locks and bypassing caches, rather than hanging its requests.
  const started = Promise.race([
    store
      .ensureMode()
      .then(renew)
      .then(renew)
      .catch(() => {}),
    new Promise<void>((resolve) => setTimeout(resolve, STARTUP_WAIT_MS).unref()),
  ]);

  const redisLocksAllowed = () => permitUsable(view, permit, performance.now(), inFlightBoundMs);
  const postgresReady = () => view?.mode === "postgres" && readyEpoch === view.epoch;

  async function settle(deadlineMs: number): Promise<"redis" | "postgres"> {
    await started;
    for (;;) {
      if (redisLocksAllowed()) return "redis";
      if (postgresReady()) return "postgres";
      const leftMs = deadlineMs - performance.now();
      if (leftMs <= 0) {
        throw new LockUnavailableError(
          view?.mode === "postgres"
            ? "List locks are moving to PostgreSQL and an instance still holds its Redis permit; retry shortly"
            : "This instance holds no Redis permit (PostgreSQL unreachable for too long?); retry shortly",
        );
      }
      await Promise.race([renew(), sleep(leftMs)]);
      if (!redisLocksAllowed() && !postgresReady()) await sleep(Math.min(SETTLE_POLL_MS, leftMs));
    }
  }

  return {
    started,
    redisLocksAllowed,
    postgresReady,
    epoch: () => view?.epoch,
    async trackRedisWork(work) {
      redisWork += 1;
      try {
        return await work();
      } finally {
        redisWork -= 1;
        // The last of it ended in a mode that moved on: the permit goes now, not at the next tick.
        if (redisWork === 0 && view?.mode === "postgres" && !closed) void renewAfterNow();
      }
    },
    settle,
    async fallBack(deadlineMs) {
      await started;
      if (view?.mode === "redis") {
        try {
          if (await store.toPostgres(view.epoch)) {
            writeLog("warn", "[coordination] Redis unreachable for a lock: moving list locks to PostgreSQL");
          }
        } catch (error) {
          throw new LockUnavailableError("Redis and PostgreSQL are both unreachable; retry shortly", { cause: error });
        }
        await renewAfterNow();
      }
      return settle(deadlineMs);
    },
    // Once: a second close (a process's shutdown hook run again) must not wait on a renewal that
    // can no longer finish.
    close() {
      closing ??= (async () => {
        closed = true;
        clearInterval(timer);
        // A renewal still running could write the row again after the delete; one that hangs is not waited for long.
        await Promise.race([renewing, new Promise((resolve) => setTimeout(resolve, CLOSE_WAIT_MS).unref())]);
        await store.leave(instanceId).catch(() => {});
      })();
      return closing;
    },
  };
}
