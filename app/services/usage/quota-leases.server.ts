import {
  databaseSeemsAway,
  noteDatabaseAnswer,
  noteDatabaseFailure,
} from "~/infrastructure/database/availability.server";
import { errorFields, writeLog } from "~/lib/json-log";
import { countQuotaBlock } from "~/lib/metrics.server";
import { registerProcessCache } from "~/lib/process-caches.server";

/**
 * A monthly quota kept exact across instances without a database write per request: each process
 * takes blocks of units from the quota's counter in the database (one atomic conditional
 * statement per block, so together they can never take more than the limit), spends them in
 * memory, and gives back what it did not spend when the block goes idle or the process stops.
 * A process that dies keeps its unspent units counted: a quota may be under-used by at most one
 * block per instance, never overrun.
 *
 * While the counter cannot be reached (the database away, decision 0027), a process that holds no
 * unit spends on credit: up to CREDIT_BLOCKS blocks per scope, unless its last take for the scope
 * came back short (the quota nearly used up), and for at most MAX_OWING_SCOPES scopes at once.
 * What it owes is taken from the counter as soon as it answers again (every LEASE_IDLE_MS / 2);
 * what the quota no longer had is logged as served past it. A quota can so be overrun by at most
 * CREDIT_BLOCKS blocks per instance and outage, and what a process owes when it dies is lost with it.
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

/** What a process may owe a scope's quota while its counter is away, in blocks. */
export const CREDIT_BLOCKS = 2;
/** The scopes a process may owe at once: its memory of the debts is bounded. */
export const MAX_OWING_SCOPES = 10_000;

interface Debt {
  scope: string;
  period: string;
  limit: number;
  units: number;
}

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

  /**
   * Units spent on credit while the counter was away, by scope and period. Not a cache: dropping the
   * process caches (Redis lost its data, or the list locks came back from PostgreSQL) must not forget
   * units that were served and are still to be counted.
   */
  const owed = new Map<string, Debt>();
  const debtKey = (scope: string, period: string) => `${period}\u0000${scope}`;

  /** One unit on credit, if the rules above allow it. */
  function spendOnCredit(scope: string, period: string, limit: number): boolean {
    const lease = leases.get(scope);
    if (lease && lease.period === period && lease.nearlyUsedUp) return false;
    const key = debtKey(scope, period);
    const debt = owed.get(key);
    if (!debt && owed.size >= MAX_OWING_SCOPES) return false;
    if (debt && debt.units >= CREDIT_BLOCKS * blockSize(limit)) return false;
    if (debt) debt.units += 1;
    else owed.set(key, { scope, period, limit, units: 1 });
    return true;
  }

  let settling: Promise<void> | undefined;
  /** Takes from the counter what is owed, one pass at a time; stops at the first failure (the database still away). */
  function settle(): Promise<void> {
    settling ??= settleOnce().finally(() => (settling = undefined));
    return settling;
  }
  async function settleOnce(): Promise<void> {
    for (const [key, debt] of owed) {
      const units = debt.units;
      if (units <= 0) {
        owed.delete(key);
        continue;
      }
      let taken: number;
      try {
        taken = await counter.take(debt.scope, debt.period, units, debt.limit);
      } catch (error) {
        if (noteDatabaseFailure(error)) return;
        throw error;
      }
      noteDatabaseAnswer();
      debt.units -= units;
      if (debt.units <= 0 && owed.get(key) === debt) owed.delete(key);
      // Refunded while the take was on its way: what was taken for them goes back.
      if (debt.units < 0) await counter.give(debt.scope, debt.period, -debt.units);
      if (taken < units) {
        writeLog("warn", "served past a quota on credit while the database was away (decision 0027)", {
          quota: name,
          shop: debt.scope.split("\n")[0],
          period: debt.period,
          units: units - taken,
        });
      }
    }
  }

  const sweeper = setInterval(() => {
    if (owed.size > 0)
      settle().catch((error) =>
        writeLog("error", `[usage] counting the units spent on credit failed`, { error: errorFields(error) }),
      );
    // Held blocks are kept while the database is away: they are what requests are served on.
    if (databaseSeemsAway()) return;
    const idleSince = Date.now() - LEASE_IDLE_MS;
    for (const [scope, lease] of leases) {
      if (lease.lastUsedMs < idleSince) {
        giveBack(scope, lease).catch((error) =>
          writeLog("error", `[usage] returning ${scope}'s unspent units failed`, { error: errorFields(error) }),
        );
      }
    }
  }, LEASE_IDLE_MS / 2);
  sweeper.unref();

  /** At shutdown: what cannot be counted now is lost with the process, and the log says so. */
  async function settleBeforeStopping(): Promise<void> {
    await settle().catch((error) =>
      writeLog("error", `[usage] counting the units spent on credit failed`, { error: errorFields(error) }),
    );
    const units = [...owed.values()].reduce((sum, debt) => sum + Math.max(0, debt.units), 0);
    if (units > 0)
      writeLog("warn", "units spent on credit could not be counted before stopping (decision 0027)", {
        quota: name,
        scopes: owed.size,
        units,
      });
  }

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
        if (databaseSeemsAway() && spendOnCredit(scope, period, limit)) return true;
        let taken: number;
        try {
          taken = await takeBlock(scope, period, limit, lease?.nearlyUsedUp ?? false);
        } catch (error) {
          if (noteDatabaseFailure(error) && spendOnCredit(scope, period, limit)) return true;
          throw error;
        }
        noteDatabaseAnswer();
        if (taken === 0) {
          const refunded = leases.get(scope);
          if (!(refunded && refunded.period === period && refunded.available > 0)) return false;
        }
      }
    },
    refund(scope, period) {
      const debt = owed.get(debtKey(scope, period));
      if (debt && debt.units > 0) {
        debt.units -= 1;
        return;
      }
      const lease = leases.get(scope);
      if (lease && lease.period === period) lease.available += 1;
      else
        counter
          .give(scope, period, 1)
          .catch((error) => writeLog("error", `[usage] refunding ${scope} failed`, { error: errorFields(error) }));
    },
    held(scope, period) {
      const lease = leases.get(scope);
      return lease && lease.period === period ? lease.available : 0;
    },
    async release(scope) {
      if (scope === undefined) await settleBeforeStopping();
      const entries =
        scope === undefined ? [...leases] : leases.has(scope) ? [[scope, leases.get(scope)!] as const] : [];
      await Promise.all(entries.map(([key, lease]) => giveBack(key, lease)));
    },
  };
}
