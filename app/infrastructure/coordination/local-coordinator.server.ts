import { clock } from "~/lib/clock";
import { registerProcessCache } from "~/lib/process-caches.server";
import type { Coordinator, TokenBucketRule, TokenDecision } from "./coordinator.server";
import { createKeyLocks } from "./key-lock.server";

interface Bucket {
  tokens: number;
  updatedAtMs: number;
}

/** Buckets of idle callers are dropped beyond this many; a full bucket is what a new one starts as. */
const MAX_BUCKETS = 100_000;

/** The coordinator of one process on its own: everything in memory, nothing shared. */
export function createLocalCoordinator(): Coordinator {
  const buckets = new Map<string, Bucket>();
  const versions = new Map<string, number>();
  const withKeyLocks = createKeyLocks();
  let fences = 0;
  registerProcessCache(() => buckets.clear());

  /** The bucket arithmetic of both takes; `spend` takes the cost even past zero. */
  function take(key: string, rule: TokenBucketRule, cost: number, spend: boolean): TokenDecision {
    const nowMs = clock.now().getTime();
    const bucket = buckets.get(key) ?? { tokens: rule.capacity, updatedAtMs: nowMs };
    const elapsed = Math.max(0, nowMs - bucket.updatedAtMs) / 1000;
    const tokens = Math.min(rule.capacity, bucket.tokens + elapsed * rule.refillPerSecond);
    // Re-inserting keeps the Map in least-recently-used order, so the oldest entry is the idlest.
    buckets.delete(key);
    if (buckets.size >= MAX_BUCKETS) buckets.delete(buckets.keys().next().value!);
    if (spend || tokens >= cost) {
      buckets.set(key, { tokens: tokens - cost, updatedAtMs: nowMs });
      return { allowed: true };
    }
    buckets.set(key, { tokens, updatedAtMs: nowMs });
    return { allowed: false, retryAfterMs: Math.ceil(((cost - tokens) / rule.refillPerSecond) * 1000) };
  }

  return {
    kind: "local",
    withLocks: (keys, fn) =>
      // Nothing but this process takes these locks and they last until fn settles, so they are always still held.
      withKeyLocks(keys, () => fn({ fence: ++fences, assertHeld: async () => {} })),
    async takeTokens(key: string, rule: TokenBucketRule, cost = 1): Promise<TokenDecision> {
      return take(key, rule, cost, false);
    },
    async spendTokens(key, rule, cost) {
      take(key, rule, cost, true);
    },
    async readVersions(keys) {
      return keys.map((key) => versions.get(key) ?? 0);
    },
    async bumpVersion(key) {
      versions.set(key, (versions.get(key) ?? 0) + 1);
    },
    async close() {},
  };
}
