/**
 * The arithmetic of pacing background platform work on the shop's cost bucket, pure: how full the
 * bucket is now, extrapolated from the last throttle status the platform reported, and how long
 * to wait before a request so that what shoppers' requests find is never less than a reserve.
 * The I/O around it is in bucket-pacer.server.ts.
 */

/**
 * The share of the shop's bucket that background work (the saved-by flush's counts) leaves to shoppers:
 * it sends a request only when the bucket holds this share of its maximum plus the request's cost,
 * so a count page (about 200 points) goes only into a full bucket. The share does not slow the
 * work down for long: once the bucket is down to the reserve, it runs at the restore rate (less
 * what shoppers spend) whatever the share. What the share decides is the burst shoppers find: 1,800
 * of a Standard shop's 2,000 points carry 200 page views a second (240 points a second against a
 * restore of 100) for about 11 s, half the bucket for about 6 s (decision 0010).
 */
export const BACKGROUND_RESERVE_SHARE = 0.9;

/**
 * A shop's bucket before any of its answers said what it is: the Standard plan's, the smallest
 * (2,000 points, restored at 100 a second; shopify.dev/docs/api/usage/limits).
 */
export const STANDARD_BUCKET = { maximumAvailable: 2_000, restoreRate: 100 } as const;

/** The platform's `extensions.cost.throttleStatus`, and when it was read. */
export interface BucketObservation {
  maximumAvailable: number;
  currentlyAvailable: number;
  /** Points restored a second. */
  restoreRate: number;
  atMs: number;
}

/** What the bucket holds at nowMs if nothing else spent from it: restored at its rate, capped at its maximum. */
export function availableAt(observation: BucketObservation, nowMs: number): number {
  const restored = (Math.max(0, nowMs - observation.atMs) / 1000) * observation.restoreRate;
  return Math.min(observation.maximumAvailable, observation.currentlyAvailable + restored);
}

/** The points that must be in the bucket before background work sends a request of this cost. */
export function pointsBeforeSending(observation: BucketObservation, cost: number, reserveShare: number): number {
  // A cost beyond what the reserve leaves room for waits for a full bucket, not forever.
  return Math.min(observation.maximumAvailable, observation.maximumAvailable * reserveShare + cost);
}

/**
 * How long background work waits before sending a request of this cost: 0 with no observation
 * (nothing known yet; the answer will say) or when the bucket already holds the reserve and the
 * cost, else until the restore rate has filled it that far.
 */
export function waitBeforeSendingMs(
  observation: BucketObservation | undefined,
  nowMs: number,
  cost: number,
  reserveShare = BACKGROUND_RESERVE_SHARE,
): number {
  if (!observation || observation.restoreRate <= 0) return 0;
  const missing = pointsBeforeSending(observation, cost, reserveShare) - availableAt(observation, nowMs);
  return missing <= 0 ? 0 : Math.ceil((missing / observation.restoreRate) * 1000);
}
