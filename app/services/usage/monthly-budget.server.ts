import prisma from "~/db.server";
import { clock } from "~/lib/clock";
import { ServiceError } from "~/lib/errors";
import type { Plan } from "~/services/plans";
import { createQuotaLeases, type QuotaCounter } from "./quota-leases.server";

/** Calendar month in UTC, e.g. "2026-11": budgets reset at 00:00 UTC on the 1st. */
export function usagePeriod(at: Date): string {
  return at.toISOString().slice(0, 7);
}

export function nextPeriodStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
}

/**
 * No one customer may use more than this fraction of the shop's monthly budget, or the floor for
 * small plans, so one shopper's loop cannot switch the app off for every other shopper.
 */
export const CUSTOMER_SHARE_FRACTION = 0.1;
export const CUSTOMER_SHARE_FLOOR = 50;

export function customerShare(plan: Plan): number {
  return Math.max(CUSTOMER_SHARE_FLOOR, Math.floor(plan.monthlyRequests * CUSTOMER_SHARE_FRACTION));
}

const customerScope = (shop: string, customerGid: string) => `${shop}\n${customerGid}`;

/** UsageCounter rows (one per shop and month) as a quota counter; the shop's record must exist. */
const shopCounter: QuotaCounter = {
  async take(shop, period, desired, limit) {
    await prisma.$executeRaw`
      INSERT INTO "UsageCounter" ("shopDomain", "period", "count") VALUES (${shop}, ${period}, 0) ON CONFLICT DO NOTHING`;
    const rows = await prisma.$queryRaw<{ taken: number }[]>`
      WITH prev AS (
        SELECT "count" FROM "UsageCounter" WHERE "shopDomain" = ${shop} AND "period" = ${period} FOR UPDATE
      )
      UPDATE "UsageCounter" AS u SET "count" = LEAST(u."count" + ${desired}, ${limit})
      FROM prev WHERE u."shopDomain" = ${shop} AND u."period" = ${period} AND u."count" < ${limit}
      RETURNING (u."count" - prev."count")::int AS taken`;
    return rows[0]?.taken ?? 0;
  },
  async give(shop, period, units) {
    await prisma.$executeRaw`
      UPDATE "UsageCounter" SET "count" = GREATEST("count" - ${units}, 0)
      WHERE "shopDomain" = ${shop} AND "period" = ${period}`;
  },
};

/** CustomerUsage rows (one per customer of a shop and month) as a quota counter. */
const customerCounter: QuotaCounter = {
  async take(scope, period, desired, limit) {
    const [shop, customerGid] = scope.split("\n") as [string, string];
    await prisma.$executeRaw`
      INSERT INTO "CustomerUsage" ("shopDomain", "customerGid", "period", "count")
      VALUES (${shop}, ${customerGid}, ${period}, 0) ON CONFLICT DO NOTHING`;
    const rows = await prisma.$queryRaw<{ taken: number }[]>`
      WITH prev AS (
        SELECT "count" FROM "CustomerUsage"
        WHERE "shopDomain" = ${shop} AND "customerGid" = ${customerGid} AND "period" = ${period} FOR UPDATE
      )
      UPDATE "CustomerUsage" AS u SET "count" = LEAST(u."count" + ${desired}, ${limit})
      FROM prev WHERE u."shopDomain" = ${shop} AND u."customerGid" = ${customerGid} AND u."period" = ${period}
        AND u."count" < ${limit}
      RETURNING (u."count" - prev."count")::int AS taken`;
    return rows[0]?.taken ?? 0;
  },
  async give(scope, period, units) {
    const [shop, customerGid] = scope.split("\n") as [string, string];
    await prisma.$executeRaw`
      UPDATE "CustomerUsage" SET "count" = GREATEST("count" - ${units}, 0)
      WHERE "shopDomain" = ${shop} AND "customerGid" = ${customerGid} AND "period" = ${period}`;
  },
};

// Blocks of about 1% of a shop's budget (at most 50) and 10% of a customer's share (at most 10):
// a database write per block, not per request, and little left stranded in another instance.
const shopLeases = createQuotaLeases({
  name: "shop-budget",
  counter: shopCounter,
  blockSize: (limit) => Math.min(50, Math.max(1, Math.ceil(limit / 100))),
});
const customerLeases = createQuotaLeases({
  name: "customer-share",
  counter: customerCounter,
  blockSize: (limit) => Math.min(10, Math.max(1, Math.ceil(limit / 10))),
});

/** A request's unit of the budget, to give back when the request failed in a way a retry can fix. */
export interface BudgetCharge {
  refund(): void;
}

/**
 * Counts one request against the shop's monthly budget and the customer's share of it, or refuses
 * it with PLAN_LIMIT_REACHED when either is used up (the customer's refusal leaves the shop's
 * budget untouched). Exact across instances: see quota-leases.
 */
export async function consumeMonthlyRequest(shop: string, plan: Plan, customerGid: string): Promise<BudgetCharge> {
  const now = clock.now();
  const period = usagePeriod(now);
  const customer = customerScope(shop, customerGid);
  const resetsAt = nextPeriodStart(now).toISOString();
  if (!(await customerLeases.spend(customer, period, customerShare(plan)))) {
    throw new ServiceError(
      "PLAN_LIMIT_REACHED",
      `This customer has used their monthly share of this shop's saved-items requests (${customerShare(plan).toLocaleString("en-US")}); it resets at ${resetsAt}`,
    );
  }
  if (!(await shopLeases.spend(shop, period, plan.monthlyRequests))) {
    customerLeases.refund(customer, period);
    throw new ServiceError(
      "PLAN_LIMIT_REACHED",
      `The ${plan.name} plan's monthly budget of ${plan.monthlyRequests.toLocaleString("en-US")} requests is used up; it resets at ${resetsAt}`,
    );
  }
  return {
    refund() {
      shopLeases.refund(shop, period);
      customerLeases.refund(customer, period);
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
  return Promise.all([shopLeases.release(), customerLeases.release()]).then(() => undefined);
}
