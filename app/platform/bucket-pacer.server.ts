import { clock } from "~/lib/clock";
import type { AdminGraphqlOptions, PlatformCost } from "./admin-graphql.server";
import { BACKGROUND_RESERVE_SHARE, waitBeforeSendingMs } from "./bucket-pacing";
import { lastBucketObservation } from "./shop-buckets.server";

/**
 * Paces one piece of background work on a shop's cost bucket (bucket-pacing.ts): before each
 * request it waits until the bucket, as the shop's last Admin answer here reported it (shoppers'
 * included) and restored since, holds the reserve left to shoppers plus the cost its own last
 * request asked for. Also before a retry after a throttled answer, so a throttle is never retried
 * in a tight loop. With no answer from the shop yet, its first request goes unpaced: the answer says.
 */
export function createBucketPacer(shop: string, signal?: AbortSignal) {
  let requestedCost = 0;
  return {
    onCost(cost: PlatformCost): void {
      requestedCost = cost.requestedQueryCost;
    },
    /** Rejects with the signal's reason once it is aborted: the work stops before its next request. */
    async beforeSend(): Promise<void> {
      // Looked at again after each wait: shoppers' answers meanwhile may say the bucket is lower.
      for (;;) {
        signal?.throwIfAborted();
        const observation = lastBucketObservation(shop);
        const waitMs = waitBeforeSendingMs(observation, clock.now().getTime(), requestedCost, BACKGROUND_RESERVE_SHARE);
        if (waitMs <= 0) return;
        await sleepUnlessAborted(waitMs, signal);
      }
    },
  };
}

/** A wait that ends early when the signal aborts, so shutting down never waits for the bucket to refill. */
async function sleepUnlessAborted(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return clock.sleep(ms);
  let onAbort = () => {};
  const aborted = new Promise<void>((resolve) => (onAbort = resolve));
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    await Promise.race([clock.sleep(ms), aborted]);
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}

export type BucketPacer = ReturnType<typeof createBucketPacer>;

/**
 * The options of runAdminGraphql for a paced request: each attempt waits for the pacer, then runs
 * `confirm` (a lock holder's assertHeld), so a lock is confirmed after the wait, not before it.
 */
export function pacedRequest(pacer: BucketPacer, confirm: () => Promise<void>): AdminGraphqlOptions {
  return {
    beforeEachAttempt: async () => {
      await pacer.beforeSend();
      await confirm();
    },
    onCost: pacer.onCost,
  };
}
