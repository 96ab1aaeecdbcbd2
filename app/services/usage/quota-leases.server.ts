import { countQuotaBlock } from "~/lib/metrics.server";
import { registerProcessCache } from "~/lib/process-caches.server";

/**
 * A monthly quota kept exact across instances without a database write per request: each process
 * takes blocks of units from the quota's counter in the database (one atomic conditional
 * statement per block, so together they can never take more than the limit), spends them in
 * memory, and gives back what it did not spend when the block goes idle or the process stops.
 * A process that dies keeps its unspent units counted: a quota may be under-used by at most one
 * block per instance, never overrun.
 */
export interface QuotaCounter {
  /** Takes up to `desired` units, leaving `limit` unexceeded; resolves to how many were taken (0: none left). */
  take(scope: string, period: string, desired: number, limit: number): Promise<number>;
  /** Gives back units taken and not spent. */
  give(scope: string, period: string, units: number): Promise<void>;
}

interface Lease {
  period: string;
  /** Units taken from the counter and not yet spent. */
  available: number;
  /** The counter gave less than asked: the quota is nearly used up, so take one unit at a time. */
  nearlyUsedUp: boolean;
  lastUsedMs: number;
}

/** A block is returned after this long unused, so another instance can spend its units. */
export const LEASE_IDLE_MS = 10_000;

export interface QuotaLeases {
  /** Spends one unit of the scope's quota for the period; false when the quota is used up. */
  spend(scope: string, period: string, limit: number): Promise<boolean>;
  /** Puts back one unit spent by a request whose work failed in a way a retry can fix. */
  refund(scope: string, period: string): void;
  /** Units this process holds unspent for the scope and period (the counter counts them as used). */
  held(scope: string, period: string): number;
  /** Gives back every block this process holds of the scope's quota, or of every scope. */
  release(scope?: string): Promise<void>;
}

export function createQuotaLeases(options: {
  /** For the metrics: which quota this is. */
  name: string;
  counter: QuotaCounter;
  blockSize: (limit: number) => number;
}): QuotaLeases {
  const { name, counter, blockSize } = options;
  const leases = new Map<string, Lease>();
  const taking = new Map<string, Promise<number>>();
  registerProcessCache(() => leases.clear());

  async function giveBack(scope: string, lease: Lease): Promise<void> {
    if (leases.get(scope) === lease) leases.delete(scope);
    const units = lease.available;
    lease.available = 0;
    if (units > 0) await counter.give(scope, lease.period, units);
  }

  /**
   * One block taken at a time per scope: concurrent spenders share it instead of each taking one.
   * Resolves to how many units the counter granted.
   */
  function takeBlock(scope: string, period: string, limit: number, nearlyUsedUp: boolean): Promise<number> {
    let pending = taking.get(scope);
    if (!pending) {
      pending = (async () => {
        const desired = nearlyUsedUp ? 1 : blockSize(limit);
        const taken = await counter.take(scope, period, desired, limit);
        countQuotaBlock(name);
        const lease = leases.get(scope);
        if (lease && lease.period === period) {
          lease.available += taken;
          lease.nearlyUsedUp ||= taken < desired;
        } else {
          leases.set(scope, { period, available: taken, nearlyUsedUp: taken < desired, lastUsedMs: Date.now() });
        }
        return taken;
      })().finally(() => taking.delete(scope));
      taking.set(scope, pending);
    }
    return pending;
  }

  const sweeper = setInterval(() => {
    const idleSince = Date.now() - LEASE_IDLE_MS;
    for (const [scope, lease] of leases) {
      if (lease.lastUsedMs < idleSince) {
        giveBack(scope, lease).catch((error) =>
          console.error(`[usage] returning ${scope}'s unspent units failed`, error),
        );
      }
    }
  }, LEASE_IDLE_MS / 2);
  sweeper.unref();

  return {
    async spend(scope, period, limit) {
      // Each turn either spends a unit or takes a block; a block of nothing ends it.
      for (;;) {
        const lease = leases.get(scope);
        if (lease && lease.period !== period) {
          // A new month: what is left of the old month's block goes back to the old month.
          await giveBack(scope, lease);
          continue;
        }
        if (lease && lease.available > 0) {
          lease.available -= 1;
          lease.lastUsedMs = Date.now();
          return true;
        }
        if ((await takeBlock(scope, period, limit, lease?.nearlyUsedUp ?? false)) === 0) {
          const refunded = leases.get(scope);
          if (!(refunded && refunded.period === period && refunded.available > 0)) return false;
        }
      }
    },
    refund(scope, period) {
      const lease = leases.get(scope);
      if (lease && lease.period === period) lease.available += 1;
      else counter.give(scope, period, 1).catch((error) => console.error(`[usage] refunding ${scope} failed`, error));
    },
    held(scope, period) {
      const lease = leases.get(scope);
      return lease && lease.period === period ? lease.available : 0;
    },
    async release(scope) {
      const entries =
        scope === undefined ? [...leases] : leases.has(scope) ? [[scope, leases.get(scope)!] as const] : [];
      await Promise.all(entries.map(([key, lease]) => giveBack(key, lease)));
    },
  };
}
