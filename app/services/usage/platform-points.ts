import type { TokenBucketRule } from "~/infrastructure/coordination/coordinator.server";
import { STANDARD_BUCKET } from "~/platform/bucket-pacing";

/**
 * What one caller (a customer of a shop) may spend of the shop's Admin API bucket, in the
 * platform's points (docs/rate-limits.md, "Platform points"): a burst of half the bucket and a
 * fifth of its restore rate after that. On a Standard shop, 1,000 points (about 40 saves, a batch
 * of 50 with a few seconds' wait after it) and 20 a second (a save about every 1.2 s): a person's
 * clicks, a guest merge or a headless import of a list stay within it, and a page view, about 1
 * point, is nothing to it. One caller looping can hold at most half the bucket, plus the request it
 * was in, and a fifth of what the shop gets back each second, so the shop's other shoppers keep
 * the rest; many shoppers are bounded only by the shop's bucket.
 */
export const CALLER_POINTS_SHARE = { ofMaximum: 0.5, ofRestoreRate: 0.2 } as const;

/** The caller's points bucket, sized on the shop's bucket as last reported (a Standard shop's before any answer). */
export function callerPointsRule(
  bucket: { maximumAvailable: number; restoreRate: number } = STANDARD_BUCKET,
): TokenBucketRule {
  return {
    capacity: bucket.maximumAvailable * CALLER_POINTS_SHARE.ofMaximum,
    refillPerSecond: bucket.restoreRate * CALLER_POINTS_SHARE.ofRestoreRate,
  };
}
