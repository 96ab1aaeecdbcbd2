/**
 * The pure decisions of where list locks are taken (docs/decisions/0026-redis-locks-with-a-postgresql-fallback.md).
 * The mode and the permits live in PostgreSQL; what an instance knows of them, and what it may do
 * with that knowledge, is decided here from that knowledge and its own monotonic clock.
 */

export type LockMode = "redis" | "postgres";

/** The mode row as the instance last read it. */
export interface ModeView {
  epoch: number;
  mode: LockMode;
}

/** The instance's Redis permit: the epoch it was granted in, and until when (this instance's monotonic clock) it may be used. */
export interface Permit {
  epoch: number;
  usableUntilMs: number;
}

export interface PermitTiming {
  /** How long the database keeps a permit after its last renewal. */
  validityMs: number;
  /** What the instance takes off for clocks that run at different rates (the database's and its own). */
  driftMarginMs: number;
}

/**
 * Until when a permit renewed by a statement sent at `sentAtMs` may be used: the database set its
 * expiry at its own time of the statement plus the validity, which is later than the send, so
 * counting from the send (minus the drift margin) ends the use before the database lets the
 * permit go.
 */
export function permitUsableUntil(sentAtMs: number, timing: PermitTiming): number {
  return sentAtMs + timing.validityMs - timing.driftMarginMs;
}

/**
 * Whether Redis locks may be granted and confirmed now: the instance holds a permit of the epoch it
 * knows, that epoch is in mode "redis", and the permit outlasts `aheadMs` (a write sent now may land
 * that much later: it must land while the permit still keeps PostgreSQL locks away).
 */
export function permitUsable(
  view: ModeView | undefined,
  permit: Permit | undefined,
  nowMs: number,
  aheadMs: number,
): boolean {
  return (
    view !== undefined &&
    view.mode === "redis" &&
    permit !== undefined &&
    permit.epoch === view.epoch &&
    nowMs + aheadMs < permit.usableUntilMs
  );
}

/** What an instance asks of the database at a renewal of its row. */
export interface RenewalIntent {
  /** Grant or renew the permit for this epoch (only granted while it is the current one, in mode "redis"). */
  permitFor: number | undefined;
  /** Leave a permit of an earlier epoch as it is (not renewed): Redis-locked work of this instance is still running. */
  keepOldPermit: boolean;
}

/**
 * Renewing: an instance that believes the mode is "redis" asks for a permit of that epoch. Whatever
 * it believes, while work under Redis locks it granted is still running it keeps the permit it has
 * (unrenewed, so it still expires) when no permit is granted: the renewal that first finds the
 * mode moved must not drop it under that work.
 */
export function renewalIntent(view: ModeView | undefined, redisWorkInFlight: number): RenewalIntent {
  return {
    permitFor: view === undefined || view.mode === "redis" ? view?.epoch : undefined,
    keepOldPermit: redisWorkInFlight > 0,
  };
}

/** How long the mode stays "postgres" at least, so a Redis that flickers does not make it flap. */
export const MIN_POSTGRES_MODE_MS = 3_000;

/**
 * Whether this instance proposes the return to "redis": the mode is "postgres" and it reaches
 * Redis. The database decides the rest (every instance seen lately reaches it too, the mode has
 * lasted MIN_POSTGRES_MODE_MS) in the same statement that makes the change.
 */
export function proposesReturn(view: ModeView | undefined, redisReachable: boolean): boolean {
  return view?.mode === "postgres" && redisReachable;
}
