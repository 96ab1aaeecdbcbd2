import prisma from "~/db.server";
import { ServiceError } from "~/lib/errors";
import type { AdminGraphqlClient } from "~/platform/admin-graphql.server";
import { overageBlockPriceCents, type Plan } from "~/services/plans";
import { readUsageLine, requestCappedAmount, type UsageLine } from "./usage-charges.server";

/**
 * The merchant's overage choice on the plans page. Turning it on records the choice and, when the
 * capped amount asked for is not the one the platform holds, asks the platform to change it: the
 * merchant approves that on the platform's page (the answer here is its URL). Charges are only
 * ever made against the capped amount the platform holds, so a declined change leaves the old cap
 * binding. Any change, and the merchant's return from a decision, lets blocks be asked for again
 * in a month the cap had stopped.
 */
export async function chooseOverage(
  shop: string,
  plan: Plan,
  admin: AdminGraphqlClient,
  choice: { enabled: false } | { enabled: true; capCents: number },
): Promise<{ confirmationUrl?: string }> {
  if (!choice.enabled) {
    await prisma.overageSetting.updateMany({ where: { shopDomain: shop }, data: { enabled: false } });
    return {};
  }
  if (overageBlockPriceCents(plan) === undefined) {
    throw new ServiceError("PLAN_LIMIT_REACHED", `The ${plan.name} plan has no overage; upgrade to a paid plan first`);
  }
  const usageLine = await readUsageLine(admin);
  if (!usageLine) {
    throw new ServiceError("PLATFORM_UPSTREAM_ERROR", "The shop's subscription has no usage line item to charge");
  }
  const data = { enabled: true, requestedCapCents: choice.capCents, cappedPeriod: null };
  await prisma.overageSetting.upsert({
    where: { shopDomain: shop },
    create: { shopDomain: shop, ...data },
    update: data,
  });
  if (usageLine.cappedCents === choice.capCents) return {};
  return { confirmationUrl: await requestCappedAmount(admin, usageLine.id, choice.capCents) };
}

/** After the merchant decided on a capped amount: a month the old cap had stopped may charge again. */
export async function cappedAmountDecided(shop: string): Promise<void> {
  await prisma.overageSetting.updateMany({ where: { shopDomain: shop }, data: { cappedPeriod: null } });
}

export interface OverageStatus {
  enabled: boolean;
  requestedCapCents: number | null;
  /** The platform's usage line item, when the shop's subscription has one. */
  usageLine: UsageLine | undefined;
}

export async function readOverageStatus(shop: string, admin: AdminGraphqlClient): Promise<OverageStatus> {
  const [setting, usageLine] = await Promise.all([
    prisma.overageSetting.findUnique({ where: { shopDomain: shop } }),
    readUsageLine(admin),
  ]);
  return { enabled: setting?.enabled ?? false, requestedCapCents: setting?.requestedCapCents ?? null, usageLine };
}
