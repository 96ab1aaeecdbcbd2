import type { TokenBucketRule } from "~/lib/coordination/coordinator.server";
import { STANDARD_BUCKET } from "~/platform/bucket-pacing";

/**
 * What one caller (a customer of a shop) may spend of the shop's Admin API bucket, in the
 * platform's points (docs/rate-limits.md, "Platform points"): a burst of a quarter of the bucket
 * and a tenth of its restore rate after that. On a Standard shop, 500 points (about 20 saves, or one
 * batch of 50) and 10 a second (a save every 2.3 s): a person's clicks stay far below it, and a
 * page view, about 1 point, is nothing to it. One caller looping can hold at most a quarter of the
 * bucket, plus the request it was in, and a tenth of what the shop gets back each second, so
 * the shop's other shoppers keep the rest; many shoppers are bounded only by the shop's bucket.
 */
export const CALLER_POINTS_SHARE = { ofMaximum: 0.25, ofRestoreRate: 0.1 } as const;

/** The caller's points bucket, sized on the shop's bucket as last reported (a Standard shop's before any answer). */
export function callerPointsRule(
  bucket: { maximumAvailable: number; restoreRate: number } = STANDARD_BUCKET,
): TokenBucketRule {
  return {
    capacity: bucket.maximumAvailable * CALLER_POINTS_SHARE.ofMaximum,
    refillPerSecond: bucket.restoreRate * CALLER_POINTS_SHARE.ofRestoreRate,
  };
}
