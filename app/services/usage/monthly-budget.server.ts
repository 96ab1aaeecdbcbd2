import { Prisma } from "@prisma/client";
import prisma from "~/db.server";
import { clock } from "~/lib/clock";
import { ServiceError } from "~/lib/errors";
import type { Plan } from "~/services/plans";

/** Calendar month in UTC, e.g. "2026-11": budgets reset at 00:00 UTC on the 1st. */
export function usagePeriod(at: Date): string {
  return at.toISOString().slice(0, 7);
}

export function nextPeriodStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
}

/**
 * Counts one request against the shop's monthly budget, or refuses it when the budget is spent.
 * The increment is a single conditional UPDATE (count < budget), so concurrent requests can
 * neither lose increments nor overshoot the budget.
 */
export async function consumeMonthlyRequest(shop: string, plan: Plan): Promise<void> {
  const now = clock.now();
  const period = usagePeriod(now);
  const increment = () =>
    prisma.usageCounter.updateMany({
      where: { shopDomain: shop, period, count: { lt: plan.monthlyRequests } },
      data: { count: { increment: 1 } },
    });

  if ((await increment()).count === 1) return;
  try {
    await prisma.usageCounter.create({ data: { shopDomain: shop, period, count: 1 } });
    return;
  } catch (error) {
    // Another request created this month's row first; count against it.
    if (!(error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002")) throw error;
  }
  if ((await increment()).count === 1) return;
  throw new ServiceError(
    "PLAN_LIMIT_REACHED",
    `The ${plan.name} plan's monthly budget of ${plan.monthlyRequests.toLocaleString("en-US")} requests is used up; it resets at ${nextPeriodStart(now).toISOString()}`,
  );
}

export async function monthlyUsage(shop: string, at: Date = clock.now()): Promise<number> {
  const row = await prisma.usageCounter.findUnique({
    where: { shopDomain_period: { shopDomain: shop, period: usagePeriod(at) } },
  });
  return row?.count ?? 0;
}
