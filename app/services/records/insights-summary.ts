import { z } from "zod";

/**
 * What the app keeps of a shop's saved items: counts only, no customer identity. Made by the
 * insights aggregator (app/services/insights/aggregate.ts), stored on the platform
 * (insights.server.ts) and read by the Insights page.
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
  /**
   * Lists (contexts with an active item) per shopper with active items: how many shoppers have 1,
   * 2, 3 and LISTS_BUCKETS (aggregate.ts) or more (the last entry), and the average. Absent from summaries made
   * before it was counted.
   */
  listsPerShopper: z
    .object({ average: z.number(), distribution: z.array(z.object({ lists: z.number(), shoppers: z.number() })) })
    .optional(),
  /**
   * Save for later: `moves` are items saved into the save-for-later list within MOVES_DAYS (aggregate.ts) (by their
   * last save), `movedBack` those of them removed since, `waiting` the active ones now.
   */
  saveForLater: z.object({ moves: z.number(), movedBack: z.number(), waiting: z.number() }).optional(),
});
export type InsightsSummary = z.infer<typeof InsightsSummarySchema>;
