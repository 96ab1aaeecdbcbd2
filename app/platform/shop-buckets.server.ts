import { clock } from "~/lib/clock";
import { registerProcessCache } from "~/lib/process-caches.server";
import type { BucketObservation } from "./bucket-pacing";

/**
 * The last throttle status each shop's Admin answers reported to this instance, whoever sent the
 * request (a shopper's read, a webhook's work, a background count): a pacer reads the bucket as
 * shoppers left it, not as its own last answer did. Other instances' spending shows only in the
 * next answer here. A shop's entry is replaced by each answer; one per shop this instance serves.
 */
const latest = new Map<string, BucketObservation>();
registerProcessCache(() => latest.clear());

export function observeBucket(
  shop: string,
  status: { maximumAvailable: number; currentlyAvailable: number; restoreRate: number },
): void {
  latest.set(shop, { ...status, atMs: clock.now().getTime() });
}

export const lastBucketObservation = (shop: string): BucketObservation | undefined => latest.get(shop);
