import { z } from "zod";
import type { SaveItemLine } from "./save-item-lines";

export const HISTORY_DAYS = 90;
export const TOP_ENTRIES = 10;
const DAY_MS = 24 * 60 * 60 * 1000;
const WEEK_MS = 7 * DAY_MS;

/**
 * What the app keeps of a shop's saved items: counts only, no customer identity. Stored on the
 * platform (see insights-store.server.ts) and read by the Insights page.
 */
export const InsightsSummarySchema = z.object({
  computedAt: z.string(),
  /** The bulk operation it was made from, so finishing the same refresh twice does the work once. */
  operation: z.string(),
  totalItems: z.number(),
  activeItems: z.number(),
  /** Distinct customers with at least one active item. */
  activeShoppers: z.number(),
  /** Oldest first, one entry per UTC day, the last being the day of computedAt. */
  savesPerDay: z.array(z.object({ date: z.string(), saves: z.number() })),
  /** Active items per product, most saved first. */
  topProducts: z.array(z.object({ gid: z.string(), saves: z.number() })),
  topVariants: z.array(z.object({ gid: z.string(), saves: z.number() })),
  /** The 7 days before computedAt against the 7 before those. */
  week: z.object({
    thisWeek: z.number(),
    lastWeek: z.number(),
    top: z.array(z.object({ gid: z.string(), entityType: z.string(), thisWeek: z.number(), lastWeek: z.number() })),
  }),
});
export type InsightsSummary = z.infer<typeof InsightsSummarySchema>;

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function top(counts: Map<string, number>): { gid: string; saves: number }[] {
  return [...counts]
    .sort(([gidA, a], [gidB, b]) => b - a || gidA.localeCompare(gidB))
    .slice(0, TOP_ENTRIES)
    .map(([gid, saves]) => ({ gid, saves }));
}

const increment = (counts: Map<string, number>, key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);

/**
 * Folds save_items one at a time, so a shop's million items pass through in constant memory
 * apart from one count per product and the set of active customers, which is dropped with the
 * aggregator and never stored.
 */
export function createAggregator(now: Date, operation: string) {
  const nowMs = now.getTime();
  const firstDay = utcDay(nowMs - (HISTORY_DAYS - 1) * DAY_MS);
  const perDay = new Map<string, number>();
  const products = new Map<string, number>();
  const variants = new Map<string, number>();
  const thisWeek = new Map<string, number>();
  const lastWeek = new Map<string, number>();
  const entityTypes = new Map<string, string>();
  const shoppers = new Set<string>();
  let totalItems = 0;
  let activeItems = 0;
  let thisWeekTotal = 0;
  let lastWeekTotal = 0;

  return {
    add(item: SaveItemLine): void {
      totalItems += 1;
      const savedMs = Date.parse(item.savedAt);
      const day = utcDay(savedMs);
      if (day >= firstDay && savedMs <= nowMs) increment(perDay, day);
      const age = nowMs - savedMs;
      if (age >= 0 && age < WEEK_MS) {
        thisWeekTotal += 1;
        increment(thisWeek, item.entityGid);
      } else if (age >= WEEK_MS && age < 2 * WEEK_MS) {
        lastWeekTotal += 1;
        increment(lastWeek, item.entityGid);
      }
      entityTypes.set(item.entityGid, item.entityType);
      if (!item.active) return;
      activeItems += 1;
      shoppers.add(item.customerGid);
      if (item.entityType === "product") increment(products, item.entityGid);
      if (item.entityType === "variant") increment(variants, item.entityGid);
    },
    result(): InsightsSummary {
      const savesPerDay = Array.from({ length: HISTORY_DAYS }, (_, index) => {
        const date = utcDay(nowMs - (HISTORY_DAYS - 1 - index) * DAY_MS);
        return { date, saves: perDay.get(date) ?? 0 };
      });
      return {
        computedAt: now.toISOString(),
        operation,
        totalItems,
        activeItems,
        activeShoppers: shoppers.size,
        savesPerDay,
        topProducts: top(products),
        topVariants: top(variants),
        week: {
          thisWeek: thisWeekTotal,
          lastWeek: lastWeekTotal,
          top: top(thisWeek).map(({ gid, saves }) => ({
            gid,
            entityType: entityTypes.get(gid) ?? "product",
            thisWeek: saves,
            lastWeek: lastWeek.get(gid) ?? 0,
          })),
        },
      };
    },
  };
}
