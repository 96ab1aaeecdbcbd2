import prisma from "~/db.server";
import { loadOrFallback, staleEntry } from "~/infrastructure/database/availability.server";
import { bumpShopVersion, readShopVersion } from "~/infrastructure/coordination/shop-version.server";
import { ServiceError } from "~/lib/errors";
import { registerProcessCache } from "~/lib/process-caches.server";
import { planFor, type Plan, type PlanKey } from "~/services/plans";

interface ShopState {
  plan: Plan;
  /** False when there is no record yet or the shop is marked uninstalled. */
  installed: boolean;
  recorded: boolean;
  /** The handles of the app's Flow triggers an enabled workflow of the shop starts with. */
  flowTriggersInUse: ReadonlySet<string>;
  /** The merchant's threshold for Saved item low in stock; null while none is set. */
  lowStockThreshold: number | null;
}

interface CachedState {
  state: ShopState;
  version: number;
  loadedAtMs: number;
}

/** A backstop for what the shop version does not cover; changes are seen at once through it. */
const CACHE_TTL_MS = 60_000;
const MAX_CACHED_SHOPS = 10_000;

const cache = new Map<string, CachedState>();
registerProcessCache(() => cache.clear());

/**
 * The shop's plan and install state from its local record, which the billing refresh and the
 * install webhooks keep up to date, so the hot path never calls the billing API. Cached per
 * process and checked against the shop version on every request, so an uninstall or a plan
 * change made through any instance takes effect at once everywhere. While the database is away,
 * the state loaded before is served up to OUTAGE_STALENESS_MS old if the version is unchanged.
 */
async function readShopState(shop: string): Promise<ShopState> {
  const version = await readShopVersion(shop);
  const nowMs = Date.now();
  const cached = cache.get(shop);
  if (cached && cached.version === version && nowMs - cached.loadedAtMs <= CACHE_TTL_MS) return cached.state;
  return loadOrFallback(
    async () => {
      const [record, triggers] = await Promise.all([
        prisma.shop.findUnique({ where: { domain: shop } }),
        prisma.flowTriggerUse.findMany({ where: { shopDomain: shop, enabled: true }, select: { handle: true } }),
      ]);
      const state = {
        plan: planFor(record?.plan ?? "free"),
        installed: Boolean(record && !record.uninstalledAt),
        recorded: Boolean(record),
        flowTriggersInUse: new Set(triggers.map((trigger) => trigger.handle)),
        lowStockThreshold: record?.lowStockThreshold ?? null,
      };
      cache.delete(shop);
      if (cache.size >= MAX_CACHED_SHOPS) cache.delete(cache.keys().next().value!);
      cache.set(shop, { state, version, loadedAtMs: nowMs });
      return state;
    },
    // The database away: the state loaded before, while no change was recorded since (decision 0027).
    staleEntry(cached, version, (entry) => entry.state),
  );
}

/**
 * The installed shop's plan. A shop with an offline session but no record yet (installed before
 * its first request reached us) starts on Free; its record is created then.
 */
export async function requireInstalledShopPlan(shop: string): Promise<Plan> {
  const state = await readShopState(shop);
  if (state.installed) return state.plan;
  if (state.recorded) throw new ServiceError("SHOP_NOT_INSTALLED", "The app is not installed on this shop");
  await prisma.shop.upsert({ where: { domain: shop }, create: { domain: shop }, update: {} });
  await bumpShopVersion(shop);
  return requireInstalledShopPlan(shop);
}

/** The plan on record, without asking the platform (Free without a record). */
export async function readShopPlan(shop: string): Promise<Plan> {
  return (await readShopState(shop)).plan;
}

/** Stores the plan the platform reported; creates the shop record if the shop has none yet. */
export async function storeShopPlan(shop: string, key: PlanKey, refreshedAt: Date): Promise<Plan> {
  await prisma.shop.upsert({
    where: { domain: shop },
    create: { domain: shop, plan: key, planRefreshedAt: refreshedAt },
    update: { plan: key, planRefreshedAt: refreshedAt },
  });
  await bumpShopVersion(shop);
  return planFor(key);
}

/**
 * The triggers an enabled workflow of the shop starts with, as stored from Flow's reports (same
 * cache as the plan); app/services/flow/flow-triggers.server.ts decides what they mean.
 */
export async function flowTriggersReportedInUse(shop: string): Promise<ReadonlySet<string>> {
  return (await readShopState(shop)).flowTriggersInUse;
}

/** The merchant's threshold for Saved item low in stock (same cache as the plan); null while none is set. */
export async function readLowStockThreshold(shop: string): Promise<number | null> {
  return (await readShopState(shop)).lowStockThreshold;
}

/** Stores the merchant's low-stock threshold (null clears it); every instance sees it at once. */
export async function storeLowStockThreshold(shop: string, threshold: number | null): Promise<void> {
  await prisma.shop.upsert({
    where: { domain: shop },
    create: { domain: shop, lowStockThreshold: threshold },
    update: { lowStockThreshold: threshold },
  });
  await bumpShopVersion(shop);
}

/**
 * Stamps the trigger's last firing for the shop. A trigger fired only because of an unmapped report
 * has no row and gets no stamp: its time would need a report Flow never made.
 */
export async function storeFlowTriggerFired(shop: string, handle: string, firedAt: Date): Promise<void> {
  await prisma.flowTriggerUse.updateMany({ where: { shopDomain: shop, handle }, data: { lastFiredAt: firedAt } });
}

/** What Flow last reported of each trigger of the shop and when, and when each last fired (the setup page). */
export async function flowTriggerReports(
  shop: string,
): Promise<{ handle: string; enabled: boolean; reportedAt: Date; lastFiredAt: Date | null }[]> {
  return prisma.flowTriggerUse.findMany({
    where: { shopDomain: shop },
    select: { handle: true, enabled: true, reportedAt: true, lastFiredAt: true },
    orderBy: { handle: "asc" },
  });
}

/**
 * Records what a Flow lifecycle callback reported. Flow says a newer report wins and an older one
 * is ignored; every instance sees the change at once through the shop version.
 */
export async function storeFlowTriggerUse(
  shop: string,
  handle: string,
  enabled: boolean,
  reportedAt: Date,
): Promise<{ applied: boolean }> {
  const applied = await prisma.$transaction(async (db) => {
    const current = await db.flowTriggerUse.findUnique({ where: { shopDomain_handle: { shopDomain: shop, handle } } });
    if (current && current.reportedAt >= reportedAt) return false;
    await db.flowTriggerUse.upsert({
      where: { shopDomain_handle: { shopDomain: shop, handle } },
      create: { shopDomain: shop, handle, enabled, reportedAt },
      update: { enabled, reportedAt },
    });
    return true;
  });
  if (applied) await bumpShopVersion(shop);
  return { applied };
}
