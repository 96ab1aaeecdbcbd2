import { SAVE_FOR_LATER_CONTEXT } from "~/services/saved-items/contexts";
import type { InsightsSummary } from "~/services/records/insights-summary";
import type { SaveItemLine } from "~/services/records/save-item-lines";

export const HISTORY_DAYS = 90;
export const TOP_ENTRIES = 10;
/** Save-for-later moves are counted over this many days before the refresh. */
export const MOVES_DAYS = 30;
/** The distribution of lists per shopper: 1, 2, 3 and this many or more. */
export const LISTS_BUCKETS = 4;
const DAY_MS = 24 * 60 * 60 * 1000;
const WEEK_MS = 7 * DAY_MS;

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function top(counts: Map<string, number>): { gid: string; saves: number }[] {
  return [...counts]
    .sort(([gidA, a], [gidB, b]) => b - a || gidA.localeCompare(gidB))
    .slice(0, TOP_ENTRIES)
    .map(([gid, saves]) => ({ gid, saves }));
}

const increment = (counts: Map<string, number>, key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);

function listsPerShopper(listCounts: readonly number[]): NonNullable<InsightsSummary["listsPerShopper"]> {
  const distribution = Array.from({ length: LISTS_BUCKETS }, (_, index) => ({ lists: index + 1, shoppers: 0 }));
  for (const lists of listCounts) distribution[Math.min(lists, LISTS_BUCKETS) - 1]!.shoppers += 1;
  const total = listCounts.reduce((sum, lists) => sum + lists, 0);
  return { average: listCounts.length === 0 ? 0 : total / listCounts.length, distribution };
}

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
  /** The lists of each shopper with active items, by context. */
  const shoppers = new Map<string, Set<string>>();
  const saveForLater = { moves: 0, movedBack: 0, waiting: 0 };
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
      if (item.context === SAVE_FOR_LATER_CONTEXT) {
        if (item.active) saveForLater.waiting += 1;
        if (age >= 0 && age < MOVES_DAYS * DAY_MS) {
          saveForLater.moves += 1;
          if (!item.active) saveForLater.movedBack += 1;
        }
      }
      if (!item.active) return;
      activeItems += 1;
      const lists = shoppers.get(item.customerGid) ?? new Set<string>();
      shoppers.set(item.customerGid, lists.add(item.context));
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
        listsPerShopper: listsPerShopper([...shoppers.values()].map((lists) => lists.size)),
        saveForLater,
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
