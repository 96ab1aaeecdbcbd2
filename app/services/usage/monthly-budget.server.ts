import { Prisma } from "@prisma/client";
import prisma from "~/db.server";
import { clock } from "~/lib/clock";
import { ServiceError } from "~/lib/errors";
import type { Plan } from "~/services/plans";
import { admitPastBudget, refundPastBudget, releaseOverageLeases } from "./overage.server";
import { createQuotaLeases, type QuotaCounter } from "./quota-leases.server";
import { nextPeriodStart, usagePeriod } from "./usage-period";

export { nextPeriodStart, usagePeriod };

/**
 * No one customer may use more than this fraction of the shop's monthly budget, or the floor for
 * small plans, so one shopper's loop cannot switch the app off for every other shopper.
 */
export const CUSTOMER_SHARE_FRACTION = 0.1;
export const CUSTOMER_SHARE_FLOOR = 50;

export function customerShare(plan: Plan): number {
  return Math.max(CUSTOMER_SHARE_FLOOR, Math.floor(plan.monthlyRequests * CUSTOMER_SHARE_FRACTION));
}

/**
 * No one staff member may use more than this fraction of the shop's monthly budget at the point of
 * sale, whichever customers they read (docs/rate-limits.md, "Point of sale"): a quarter, 12,500
 * reads a month on Pro, where a busy counter makes about 300 a day (150 customers, two reads each).
 */
export const STAFF_SHARE_FRACTION = 0.25;

export function staffShare(plan: Plan): number {
  return Math.floor(plan.monthlyRequests * STAFF_SHARE_FRACTION);
}

const customerScope = (shop: string, customerGid: string) => `${shop}\n${customerGid}`;
/** A staff member's count lives beside the customers' under a name no customer GID can have. */
export const staffUsageKey = (staff: string) => `pos-staff:${staff}`;

/**
 * A table of monthly counts (a row per scope and period) as a quota counter. A take is one
 * statement: the row locked, raised by what is left under the limit, and what it rose by returned;
 * only a scope's first take of a month finds no row and inserts it (a concurrent insert makes it
 * try again).
 */
function tableCounter(
  table: "UsageCounter" | "CustomerUsage",
  scopeColumns: readonly string[],
  keysOf: (scope: string) => string[],
): QuotaCounter {
  const keyColumns = [...scopeColumns, "period"];
  const where = (keys: readonly string[], alias = "") =>
    Prisma.join(
      keyColumns.map((column, i) => Prisma.sql`${Prisma.raw(`${alias}"${column}"`)} = ${keys[i]}`),
      " AND ",
    );
  const name = Prisma.raw(`"${table}"`);
  const insertColumns = Prisma.raw([...keyColumns, "count"].map((column) => `"${column}"`).join(", "));
  return {
    async take(scope, period, desired, limit) {
      const keys = [...keysOf(scope), period];
      for (;;) {
        const [row] = await prisma.$queryRaw<{ found: boolean; taken: number | null }[]>`
          WITH prev AS (SELECT "count" FROM ${name} WHERE ${where(keys)} FOR UPDATE),
          raised AS (
            UPDATE ${name} AS u SET "count" = LEAST(u."count" + ${desired}, ${limit})
            FROM prev WHERE ${where(keys, "u.")} AND u."count" < ${limit}
            RETURNING (u."count" - prev."count")::int AS taken
          )
          SELECT EXISTS (SELECT 1 FROM prev) AS found, (SELECT taken FROM raised) AS taken`;
        if (row?.found) return row.taken ?? 0;
        const inserted = await prisma.$queryRaw<{ taken: number }[]>`
          INSERT INTO ${name} (${insertColumns})
          VALUES (${Prisma.join([...keys, Math.min(desired, limit)])})
          ON CONFLICT DO NOTHING RETURNING "count" AS taken`;
        if (inserted[0]) return inserted[0].taken;
      }
    },
    async give(scope, period, units) {
      await prisma.$executeRaw`
        UPDATE ${name} SET "count" = GREATEST("count" - ${units}, 0) WHERE ${where([...keysOf(scope), period])}`;
    },
  };
}

/** The shop's counter (its Shop record must exist) and each customer's, per month. */
const shopCounter = tableCounter("UsageCounter", ["shopDomain"], (shop) => [shop]);
const customerCounter = tableCounter("CustomerUsage", ["shopDomain", "customerGid"], (scope) => scope.split("\n"));

// Blocks of about 1% of a shop's budget (at most 500) and 5% of a customer's share (at most 200):
// a database write per block, not per request, and little left stranded in another instance (a
// block unused for LEASE_IDLE_MS goes back). A busy instance of a Scale shop writes once per 500
// requests; what an instance that dies strands is at most 0.2% of that shop's month.
const shopLeases = createQuotaLeases({
  name: "shop-budget",
  counter: shopCounter,
  blockSize: (limit) => Math.min(500, Math.max(1, Math.ceil(limit / 100))),
});
const customerLeases = createQuotaLeases({
  name: "customer-share",
  counter: customerCounter,
  blockSize: (limit) => Math.min(200, Math.max(1, Math.ceil(limit / 20))),
});

/** A request's unit of the budget, to give back when the request failed in a way a retry can fix. */
export interface BudgetCharge {
  refund(): void;
}

/**
 * Counts one request against the shop's monthly budget, the customer's share of it and, at the
 * point of sale, the staff member's, or refuses it with PLAN_LIMIT_REACHED when any is used up (a
 * share's refusal leaves the shop's budget untouched). Past the budget, a shop whose merchant chose
 * overage is served on paid blocks instead (overage.server), unless its velocity guard paused
 * billing. Exact across instances: see quota-leases.
 */
export async function consumeMonthlyRequest(
  shop: string,
  plan: Plan,
  customerGid: string,
  staff?: string,
): Promise<BudgetCharge> {
  const now = clock.now();
  const period = usagePeriod(now);
  const resetsAt = () => nextPeriodStart(now).toISOString();
  const shares = [{ scope: customerScope(shop, customerGid), limit: customerShare(plan), whose: "This customer has" }];
  if (staff) {
    shares.push({
      scope: customerScope(shop, staffUsageKey(staff)),
      limit: staffShare(plan),
      whose: "This staff member has",
    });
  }
  const taken: string[] = [];
  const refundShares = () => {
    for (const scope of taken) customerLeases.refund(scope, period);
  };
  for (const share of shares) {
    if (!(await customerLeases.spend(share.scope, period, share.limit))) {
      refundShares();
      throw new ServiceError(
        "PLAN_LIMIT_REACHED",
        `${share.whose} used their monthly share of this shop's saved-items requests (${share.limit.toLocaleString("en-US")}); it resets at ${resetsAt()}`,
      );
    }
    taken.push(share.scope);
  }
  if (!(await shopLeases.spend(shop, period, plan.monthlyRequests))) {
    const pastBudget = await admitPastBudget(shop, plan, period).catch((error: unknown) => {
      refundShares();
      throw error;
    });
    if (pastBudget === "admitted") {
      return {
        refund() {
          refundPastBudget(shop, period);
          refundShares();
        },
      };
    }
    refundShares();
    const spent = `The ${plan.name} plan's monthly budget of ${plan.monthlyRequests.toLocaleString("en-US")} requests is used up`;
    throw new ServiceError(
      "PLAN_LIMIT_REACHED",
      pastBudget === "paused"
        ? `${spent} and overage billing is paused for review by the merchant; it resets at ${resetsAt()}`
        : `${spent}; it resets at ${resetsAt()}`,
    );
  }
  return {
    refund() {
      shopLeases.refund(shop, period);
      refundShares();
    },
  };
}

/** Requests counted this month: the counter, less the units this process holds unspent. */
export async function monthlyUsage(shop: string, at: Date = clock.now()): Promise<number> {
  const period = usagePeriod(at);
  const row = await prisma.usageCounter.findUnique({ where: { shopDomain_period: { shopDomain: shop, period } } });
  return Math.max(0, (row?.count ?? 0) - shopLeases.held(shop, period));
}

/** customers/redact: the customer's usage counters are customer data. */
export async function forgetCustomerUsage(shop: string, customerGid: string): Promise<void> {
  await customerLeases.release(customerScope(shop, customerGid));
  await prisma.customerUsage.deleteMany({ where: { shopDomain: shop, customerGid } });
}

/** Gives back every unspent unit this process holds, before it stops. */
export function releaseUsageLeases(): Promise<void> {
  return Promise.all([shopLeases.release(), customerLeases.release(), releaseOverageLeases()]).then(() => undefined);
}
