import { clock } from "~/lib/clock";
import type { AdminGraphqlOptions, PlatformCost } from "./admin-graphql.server";
import { BACKGROUND_RESERVE_SHARE, waitBeforeSendingMs, type BucketObservation } from "./bucket-pacing";

/**
 * Paces one piece of background work on a shop's cost bucket (bucket-pacing.ts): fed by the cost
 * of each of its answers, it waits before each request until the bucket, as last reported and
 * restored since, holds the reserve left to shoppers plus the cost the last request asked for.
 * Also before a retry after a throttled answer, so a throttle is never retried in a tight loop.
 * Its first request goes unpaced: nothing is known of the bucket until an answer says.
 */
export function createBucketPacer() {
  let observation: BucketObservation | undefined;
  let requestedCost = 0;
  return {
    onCost(cost: PlatformCost): void {
      observation = { ...cost.throttleStatus, atMs: clock.now().getTime() };
      requestedCost = cost.requestedQueryCost;
    },
    async beforeSend(): Promise<void> {
      const waitMs = waitBeforeSendingMs(observation, clock.now().getTime(), requestedCost, BACKGROUND_RESERVE_SHARE);
      if (waitMs > 0) await clock.sleep(waitMs);
    },
  };
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
