import prisma from "~/db.server";
import { requireOfflineAdmin } from "~/platform/offline-admin.server";
import { createUsageRecord, readUsageLine } from "~/services/billing/usage-charges.server";
import { OVERAGE_BLOCK_REQUESTS, overageBlockPriceCents, type Plan } from "~/services/plans";
import { chargeForBlock, mayBeginBlock } from "./overage-decision";
import { createQuotaLeases, type QuotaCounter } from "./quota-leases.server";

/**
 * Requests past the budget are counted like the budget (quota-leases), against a limit that is
 * not configured but charged: the month's charged blocks times the block size, read in the same
 * statement that raises the count, so no instance can spend a request of a block nobody paid for.
 */
const overageCounter: QuotaCounter = {
  async take(shop, period, desired) {
    for (;;) {
      const [row] = await prisma.$queryRaw<{ found: boolean; taken: number | null }[]>`
        WITH paid AS (
          SELECT count(*)::int * ${OVERAGE_BLOCK_REQUESTS} AS units FROM "OverageBlock"
          WHERE "shopDomain" = ${shop} AND "period" = ${period}
        ),
        prev AS (SELECT "count" FROM "OverageUsage" WHERE "shopDomain" = ${shop} AND "period" = ${period} FOR UPDATE),
        raised AS (
          UPDATE "OverageUsage" AS u SET "count" = LEAST(u."count" + ${desired}, paid.units)
          FROM prev, paid WHERE u."shopDomain" = ${shop} AND u."period" = ${period} AND u."count" < paid.units
          RETURNING (u."count" - prev."count")::int AS taken
        )
        SELECT EXISTS (SELECT 1 FROM prev) AS found, (SELECT taken FROM raised) AS taken`;
      if (row?.found) return row.taken ?? 0;
      // A month's first take: the row is made, then raised by the statement above.
      await prisma.$executeRaw`
        INSERT INTO "OverageUsage" ("shopDomain", "period", "count") VALUES (${shop}, ${period}, 0)
        ON CONFLICT DO NOTHING`;
    }
  },
  async give(shop, period, units) {
    await prisma.$executeRaw`
      UPDATE "OverageUsage" SET "count" = GREATEST("count" - ${units}, 0)
      WHERE "shopDomain" = ${shop} AND "period" = ${period}`;
  },
};

// Small blocks: what an instance that dies strands is paid for and never served, and it brings the
// next block's charge that much earlier.
export const OVERAGE_LEASE_BLOCK = 50;

const overageLeases = createQuotaLeases({
  name: "overage",
  counter: overageCounter,
  blockSize: () => OVERAGE_LEASE_BLOCK,
});

// Requests of one process that find the paid blocks spent wait on one charge, not one each.
const beginning = new Map<string, Promise<boolean>>();

/**
 * Admits one request past the shop's spent budget when the merchant chose overage: a unit of a
 * block already charged, or else the next block is charged (once, whichever instance and however
 * often it is tried) before the request is served. False: the request is refused as without
 * overage (off, Free, no usage line item, or the capped amount reached).
 */
export async function admitPastBudget(shop: string, plan: Plan, period: string): Promise<boolean> {
  const priceCents = overageBlockPriceCents(plan);
  if (priceCents === undefined) return false;
  for (;;) {
    if (await overageLeases.spend(shop, period, OVERAGE_BLOCK_REQUESTS)) return true;
    const key = `${shop}\n${period}`;
    let pending = beginning.get(key);
    if (!pending) {
      pending = beginNextBlock(shop, period, priceCents).finally(() => beginning.delete(key));
      beginning.set(key, pending);
    }
    if (!(await pending)) return false;
  }
}

/** True when a block is now paid for that was not when the caller found none left. */
async function beginNextBlock(shop: string, period: string, priceCents: number): Promise<boolean> {
  const choice = await prisma.overageSetting.findUnique({ where: { shopDomain: shop } });
  if (!mayBeginBlock(priceCents, choice, period)) return false;
  const [charged, used] = await Promise.all([
    prisma.overageBlock.count({ where: { shopDomain: shop, period } }),
    prisma.overageUsage.findUnique({ where: { shopDomain_period: { shopDomain: shop, period } } }),
  ]);
  // Another instance began a block since this one found none left: take from it.
  if ((used?.count ?? 0) < charged * OVERAGE_BLOCK_REQUESTS) return true;
  const admin = await requireOfflineAdmin(shop);
  const charge = chargeForBlock({
    shop,
    period,
    block: charged + 1,
    blockRequests: OVERAGE_BLOCK_REQUESTS,
    priceCents,
    usageLine: await readUsageLine(admin),
  });
  const outcome = charge.kind === "charge" ? await createUsageRecord(admin, charge) : charge.reason;
  if (typeof outcome === "string") {
    // Neither a reached cap nor a missing usage line item changes until the merchant acts.
    await prisma.overageSetting.update({ where: { shopDomain: shop }, data: { cappedPeriod: period } });
    return false;
  }
  await prisma.overageBlock.createMany({
    data: [{ shopDomain: shop, period, block: charged + 1, usageRecordGid: outcome.recordGid, priceCents }],
    skipDuplicates: true,
  });
  // A fresh lease: the one that ran dry takes single units, as a quota nearly used up does.
  await overageLeases.release(shop);
  return true;
}

/** Puts back one unit of a block, for a request whose work failed in a way a retry can fix. */
export function refundPastBudget(shop: string, period: string): void {
  overageLeases.refund(shop, period);
}

/** Requests served past the budget this month, and the blocks charged for them. */
export async function overageThisMonth(shop: string, period: string) {
  const [usage, blocks] = await Promise.all([
    prisma.overageUsage.findUnique({ where: { shopDomain_period: { shopDomain: shop, period } } }),
    prisma.overageBlock.findMany({ where: { shopDomain: shop, period }, orderBy: { block: "asc" } }),
  ]);
  return {
    requests: Math.max(0, (usage?.count ?? 0) - overageLeases.held(shop, period)),
    blocks: blocks.length,
    chargedCents: blocks.reduce((sum, block) => sum + block.priceCents, 0),
  };
}

export function releaseOverageLeases(): Promise<void> {
  return overageLeases.release();
}
