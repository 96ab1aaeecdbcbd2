import { z } from "zod";
import prisma from "~/db.server";
import { clock } from "~/lib/clock";
import { forgetOfflineSession, recordGrantedScopes } from "~/platform/offline-sessions.server";

/** A (re)install makes the shop serviceable again; its customers' saved items stayed on the platform. */
export async function recordShopInstalled(shop: string): Promise<void> {
  const now = clock.now();
  await prisma.shop.upsert({
    where: { domain: shop },
    create: { domain: shop, installedAt: now },
    update: { uninstalledAt: null, installedAt: now },
  });
  await forgetOfflineSession(shop);
}

/**
 * app/uninstalled: the shop stops being served (every channel answers SHOP_NOT_INSTALLED) and its
 * sessions go, since their tokens are revoked. Webhooks repeat and can arrive after the shop was
 * cleaned up, so each step is idempotent and the first uninstall time is kept.
 */
export async function recordShopUninstalled(shop: string): Promise<void> {
  await prisma.session.deleteMany({ where: { shop } });
  await prisma.shop.updateMany({ where: { domain: shop, uninstalledAt: null }, data: { uninstalledAt: clock.now() } });
  await forgetOfflineSession(shop);
}

export type ShopRedaction = { redacted: true } | { redacted: false; reason: "reinstalled" };

/**
 * shop/redact (sent 48 hours after an uninstall): deletes everything the app keeps locally about
 * the shop: its Shop record, usage counters, overage choice and charged blocks, sessions, Flow
 * trigger reports, unfinished fan-outs and saved-by counts and recounts. A shop that has been reinstalled since is left alone, in case the webhook was delayed
 * past the reinstall. Pending customer redactions are kept on purpose: they only name customers
 * whose saved items must still be erased if the shop installs the app again.
 */
export async function redactShopRecords(shop: string): Promise<ShopRedaction> {
  const [record, sessions] = await Promise.all([
    prisma.shop.findUnique({ where: { domain: shop } }),
    prisma.session.count({ where: { shop } }),
  ]);
  if (record && !record.uninstalledAt && sessions > 0) return { redacted: false, reason: "reinstalled" };
  await prisma.$transaction([
    prisma.session.deleteMany({ where: { shop } }),
    prisma.usageCounter.deleteMany({ where: { shopDomain: shop } }),
    prisma.customerUsage.deleteMany({ where: { shopDomain: shop } }),
    prisma.flowTriggerUse.deleteMany({ where: { shopDomain: shop } }),
    prisma.reachFanOut.deleteMany({ where: { shopDomain: shop } }),
    prisma.overageSetting.deleteMany({ where: { shopDomain: shop } }),
    prisma.overageUsage.deleteMany({ where: { shopDomain: shop } }),
    prisma.overageBlock.deleteMany({ where: { shopDomain: shop } }),
    prisma.savedByProduct.deleteMany({ where: { shopDomain: shop } }),
    prisma.savedByRecount.deleteMany({ where: { shopDomain: shop } }),
    prisma.listRetention.deleteMany({ where: { shopDomain: shop } }),
    prisma.shop.deleteMany({ where: { domain: shop } }),
  ]);
  await forgetOfflineSession(shop);
  return { redacted: true };
}

/** app/uninstalled's payload: the shop comes from the delivery itself, so nothing in it is read. */
export const UninstalledPayloadSchema = z.unknown();

/** app/scopes_update's payload: the scopes the merchant granted now. */
export const ScopesUpdatePayloadSchema = z.object({ current: z.array(z.string()).optional() });

/** app/scopes_update: the granted scopes onto the shop's offline session. */
export async function handleScopesUpdate(
  shop: string,
  _webhookId: string,
  { current }: z.infer<typeof ScopesUpdatePayloadSchema>,
): Promise<void> {
  if (current) await recordGrantedScopes(shop, current);
}
