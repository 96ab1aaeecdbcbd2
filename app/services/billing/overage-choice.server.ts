import prisma from "~/db.server";
import { clock } from "~/lib/clock";
import { ServiceError } from "~/lib/errors";
import { overageBlockPriceCents, type Plan } from "~/services/plans";

/**
 * The merchant's overage choice on the plans page: on with a monthly cap, or off. Both are the
 * app's: the usage price is part of the plan the merchant approved on the platform's plan page,
 * and Shopify App Pricing meters have no cap ("Setup usage charges"), so the app never sends a
 * block's billing event past the cap recorded here (docs/decisions/0018-overage-on-app-pricing.md).
 */
export async function chooseOverage(
  shop: string,
  plan: Plan,
  choice: { enabled: false } | { enabled: true; capCents: number },
): Promise<void> {
  if (!choice.enabled) {
    await prisma.overageSetting.updateMany({ where: { shopDomain: shop }, data: { enabled: false } });
    return;
  }
  if (overageBlockPriceCents(plan) === undefined) {
    throw new ServiceError("PLAN_LIMIT_REACHED", `The ${plan.name} plan has no overage; upgrade to a paid plan first`);
  }
  const data = { enabled: true, capCents: choice.capCents };
  await prisma.overageSetting.upsert({
    where: { shopDomain: shop },
    create: { shopDomain: shop, ...data },
    update: data,
  });
}

/**
 * The merchant's "Resume overage" after the velocity guard paused billing: the guard's hour starts
 * again from now (its average of the week before does not change). A shop that is not paused is
 * left as it is, so a second click does not move the hour.
 */
export async function resumeOverage(shop: string): Promise<void> {
  await prisma.overageSetting.updateMany({
    where: { shopDomain: shop, pausedAt: { not: null } },
    data: { pausedAt: null, resumedAt: clock.now() },
  });
}

export interface OverageStatus {
  enabled: boolean;
  capCents: number | null;
  pausedAt: Date | null;
  resumedAt: Date | null;
}

export async function readOverageStatus(shop: string): Promise<OverageStatus> {
  const setting = await prisma.overageSetting.findUnique({ where: { shopDomain: shop } });
  return {
    enabled: setting?.enabled ?? false,
    capCents: setting?.capCents ?? null,
    pausedAt: setting?.pausedAt ?? null,
    resumedAt: setting?.resumedAt ?? null,
  };
}
