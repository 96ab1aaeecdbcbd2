import prisma from "~/db.server";
import { clock } from "~/lib/clock";
import { writeLog } from "~/lib/json-log";
import { runAdminGraphql } from "~/platform/admin-graphql.server";
import { sendBillingEvent } from "~/platform/app-events.server";
import { requireOfflineAdmin } from "~/platform/offline-admin.server";
import { OVERAGE_BLOCK_REQUESTS, OVERAGE_METER_HANDLE, overageBlockPriceCents, type Plan } from "~/services/plans";
import {
  nextBlock,
  type OverageRefusal,
  VELOCITY_HISTORY_MS,
  VELOCITY_WINDOW_MS,
  velocityWindowStart,
} from "./overage-decision";
import { createQuotaLeases, type QuotaCounter } from "./quota-leases.server";

/**
 * Requests past the budget are counted like the budget (quota-leases), against a limit that is
 * not configured but paid: the month's blocks whose billing event was sent times the block size,
 * read in the same statement that raises the count, so no instance can spend a request of a
 * block nobody was billed for.
 */
const overageCounter: QuotaCounter = {
  async take(shop, period, desired) {
    for (;;) {
      const [row] = await prisma.$queryRaw<{ found: boolean; taken: number | null }[]>`
        WITH paid AS (
          SELECT count(*)::int * ${OVERAGE_BLOCK_REQUESTS} AS units FROM "OverageBlock"
          WHERE "shopDomain" = ${shop} AND "period" = ${period} AND "sentAt" IS NOT NULL
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
const beginning = new Map<string, Promise<"again" | OverageRefusal>>();

/** The shop's GID, which billing events name: read from the platform once, then kept with the choice. */
const SHOP_ID = `#graphql
  query SavedItemsOverageShop {
    shop {
      id
    }
  }`;

async function shopGidOf(shop: string, known: string | null): Promise<string> {
  if (known) return known;
  const data = await runAdminGraphql(await requireOfflineAdmin(shop), SHOP_ID, {});
  await prisma.overageSetting.update({ where: { shopDomain: shop }, data: { shopGid: data.shop.id } });
  return data.shop.id;
}

/**
 * Admits one request past the shop's spent budget when the merchant chose overage: a unit of a
 * block already billed, or else the next block's billing event is sent (once, whichever instance
 * and however often it is tried) before the request is served. Otherwise why the request is
 * refused: overage off (or Free), the merchant's cap reached, or billing paused by the velocity guard.
 */
export async function admitPastBudget(shop: string, plan: Plan, period: string): Promise<"admitted" | OverageRefusal> {
  const priceCents = overageBlockPriceCents(plan);
  if (priceCents === undefined) return "off";
  for (;;) {
    if (await overageLeases.spend(shop, period, OVERAGE_BLOCK_REQUESTS)) return "admitted";
    const key = `${shop}\n${period}`;
    let pending = beginning.get(key);
    if (!pending) {
      pending = beginNextBlock(shop, period, priceCents).finally(() => beginning.delete(key));
      beginning.set(key, pending);
    }
    const outcome = await pending;
    if (outcome !== "again") return outcome;
  }
}

/**
 * "again" when the caller should take from the month's blocks again: a block is now billed that
 * was not when it found none left, or the state it decided on changed meanwhile.
 */
async function beginNextBlock(shop: string, period: string, priceCents: number): Promise<"again" | OverageRefusal> {
  const where = { shopDomain: shop, period };
  const now = clock.now();
  const [install, choice, blocks, used, recent] = await Promise.all([
    prisma.shop.findUniqueOrThrow({ where: { domain: shop }, select: { installedAt: true } }),
    prisma.overageSetting.findUnique({ where: { shopDomain: shop } }),
    prisma.overageBlock.findMany({ where, orderBy: { block: "asc" } }),
    prisma.overageUsage.findUnique({ where: { shopDomain_period: where } }),
    prisma.overageBlock.findMany({
      where: {
        shopDomain: shop,
        attemptedAt: { gte: new Date(now.getTime() - VELOCITY_WINDOW_MS - VELOCITY_HISTORY_MS) },
      },
      select: { attemptedAt: true },
    }),
  ]);
  const sent = blocks.filter((block) => block.sentAt !== null).length;
  // Another instance sent a block since this one found none left: take from it.
  if ((used?.count ?? 0) < sent * OVERAGE_BLOCK_REQUESTS) return "again";
  const next = nextBlock({
    shop,
    installedAt: install.installedAt,
    period,
    priceCents,
    choice,
    blocks,
    recentBegunAt: recent.map((block) => block.attemptedAt),
    now,
  });
  if (next.kind === "refuse") return next.reason;
  if (next.kind === "pause") return pauseBilling(shop, choice!.resumedAt, next, now);
  if (next.kind === "settle") {
    // Sending again could charge it twice; serving it may go unpaid. The merchant is never overcharged.
    writeLog(
      "warn",
      `[overage] ${shop} ${period} block ${next.block}: its billing event went unanswered more than a day ago; counted as sent without sending it again (check the Dev Dashboard's logs)`,
    );
  } else {
    if (next.begin) {
      // Written before the event is sent, so a retry after a lost answer finds the key and its age.
      // The block's number is the row's key: instances that decided on the same state begin the
      // same block and send the same event key, so racing instances cannot begin two blocks
      // where the guard allowed one.
      await prisma.overageBlock.createMany({
        data: [
          {
            ...where,
            block: next.block,
            priceCents: next.priceCents,
            idempotencyKey: next.idempotencyKey,
            attemptedAt: now,
          },
        ],
        skipDuplicates: true,
      });
    }
    await sendBillingEvent({
      shopGid: await shopGidOf(shop, choice?.shopGid ?? null),
      eventHandle: OVERAGE_METER_HANDLE,
      // Now: within the shop's current billing cycle and never ahead of the platform's clock.
      timestamp: now,
      idempotencyKey: next.idempotencyKey,
      value: 1,
    });
  }
  await prisma.overageBlock.updateMany({ where: { ...where, block: next.block, sentAt: null }, data: { sentAt: now } });
  // A fresh lease: the one that ran dry takes single units, as a quota nearly used up does.
  await overageLeases.release(shop);
  return "again";
}

/**
 * Pauses the shop's billing, unless the merchant resumed (or another instance paused) since the
 * setting was read: the write names the resume it decided on, so a verdict read before a resume
 * cannot undo it. Only the instance whose write took logs the pause, so it is logged once.
 */
async function pauseBilling(
  shop: string,
  resumedAt: Date | null,
  verdict: { begun: number; allowance: number },
  now: Date,
): Promise<"again" | "paused"> {
  const paused = await prisma.overageSetting.updateMany({
    where: { shopDomain: shop, pausedAt: null, resumedAt },
    data: { pausedAt: now },
  });
  if (paused.count === 0) return "again";
  writeLog("warn", "overage billing paused: blocks begun in the last hour passed the shop's allowance", {
    shop,
    blocksInHour: verdict.begun,
    allowance: verdict.allowance,
  });
  return "paused";
}

/** While billing is paused: since when, and the blocks begun in the hour that led to it. */
export async function overagePause(
  shop: string,
  choice: { pausedAt: Date | null; resumedAt: Date | null },
): Promise<{ since: Date; blocksInHour: number } | null> {
  if (choice.pausedAt === null) return null;
  const blocksInHour = await prisma.overageBlock.count({
    where: {
      shopDomain: shop,
      attemptedAt: { gte: velocityWindowStart(choice.pausedAt, choice.resumedAt), lte: choice.pausedAt },
    },
  });
  return { since: choice.pausedAt, blocksInHour };
}

/** Puts back one unit of a block, for a request whose work failed in a way a retry can fix. */
export function refundPastBudget(shop: string, period: string): void {
  overageLeases.refund(shop, period);
}

/** Requests served past the budget this month, and the blocks billed for them. */
export async function overageThisMonth(shop: string, period: string) {
  const [usage, blocks] = await Promise.all([
    prisma.overageUsage.findUnique({ where: { shopDomain_period: { shopDomain: shop, period } } }),
    prisma.overageBlock.findMany({ where: { shopDomain: shop, period, sentAt: { not: null } } }),
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
