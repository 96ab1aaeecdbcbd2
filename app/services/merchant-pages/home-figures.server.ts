import type { AdminGraphqlClient } from "~/platform/admin-graphql.server";
import { readStoredInsights } from "~/services/records/insights.server";

/**
 * Home's key figures: those of the last Insights refresh, one read of the stored summary (a point
 * of the shop's rate limit). Counting them on each load would mean reading every saved item of the
 * shop; null until a first refresh, so Home points to the Insights page instead of showing zeros.
 */
export async function getHomeFigures(admin: AdminGraphqlClient) {
  const { summary } = await readStoredInsights(admin);
  if (!summary) return null;
  return {
    asOf: summary.computedAt,
    activeShoppers: summary.activeShoppers,
    activeItems: summary.activeItems,
    savesLast30Days: summary.savesPerDay.slice(-30).reduce((total, day) => total + day.saves, 0),
    savesThisWeek: summary.week.thisWeek,
  };
}
