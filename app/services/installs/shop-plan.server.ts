import prisma from "~/db.server";
import { ServiceError } from "~/lib/errors";
import { planFor, type Plan } from "~/services/plans";

/**
 * The installed shop's current plan, from the local record the billing refresh keeps up to date,
 * so the hot path never calls the billing API. A shop with a session but no record yet (installed
 * before its first request) starts on Free.
 */
export async function requireInstalledShopPlan(shop: string): Promise<Plan> {
  const record =
    (await prisma.shop.findUnique({ where: { domain: shop } })) ??
    (await prisma.shop.upsert({ where: { domain: shop }, create: { domain: shop }, update: {} }));
  if (record.uninstalledAt) throw new ServiceError("SHOP_NOT_INSTALLED", "The app is not installed on this shop");
  return planFor(record.plan);
}
