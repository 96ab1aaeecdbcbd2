import { clock } from "~/lib/clock";
import { LockUnavailableError } from "~/infrastructure/coordination/coordinator.server";
import { getCoordinator } from "~/infrastructure/coordination/shared-coordinator.server";
import { ServiceError } from "~/lib/errors";
import type { AdminGraphqlClient } from "~/platform/admin-graphql.server";
import {
  readBulkOperation,
  readBulkResult,
  startBulkQuery,
  type BulkOperationStatus,
} from "~/platform/bulk-operations.server";
import type { InsightsSummary } from "~/services/records/insights-summary";
import { createAggregator } from "./aggregate";
import { readCatalogueEntries, type CatalogueEntry } from "./catalogue.server";
import { readStoredInsights, writeStoredInsights } from "~/services/records/insights.server";
import { saveItemsBulkQuery, toSaveItemLine } from "~/services/records/save-item-lines";

/**
 * At most one bulk run per shop in this many hours: 4 a day. Each costs the shop one mutation
 * (10 points), a poll every few seconds while it runs (1 point each) and one upsert (10 points);
 * the bulk query itself does not draw on the shop's rate limit.
 */
export const REFRESH_INTERVAL_HOURS = 6;
const REFRESH_INTERVAL_MS = REFRESH_INTERVAL_HOURS * 60 * 60 * 1000;

export interface InsightsPage {
  summary: InsightsSummary | null;
  /** Current title, price and availability of every product and variant the summary names. */
  catalogue: Record<string, CatalogueEntry>;
  refresh: { operation: string | null; startedAt: string | null; nextAllowedAt: string | null; allowed: boolean };
}

export interface RefreshProgress {
  operation: string;
  status: BulkOperationStatus;
  objectCount: number;
  /** True once the summary of this operation is stored. */
  done: boolean;
}

const nextAllowedAt = (startedAt: string | null) =>
  startedAt ? new Date(Date.parse(startedAt) + REFRESH_INTERVAL_MS).toISOString() : null;

/** The page's data: the stored summary and ONE catalogue request for what it names. */
export async function getInsightsPage(admin: AdminGraphqlClient): Promise<InsightsPage> {
  const stored = await readStoredInsights(admin);
  const { summary } = stored;
  const allowedAt = nextAllowedAt(stored.refreshStartedAt);
  const gids = summary
    ? [...summary.topProducts, ...summary.topVariants, ...summary.week.top].map((entry) => entry.gid)
    : [];
  return {
    summary,
    catalogue: await readCatalogueEntries(admin, gids),
    refresh: {
      operation: stored.refreshOperation,
      startedAt: stored.refreshStartedAt,
      nextAllowedAt: allowedAt,
      allowed: !allowedAt || Date.parse(allowedAt) <= clock.now().getTime(),
    },
  };
}

/**
 * Starts the bulk query behind the figures, unless one started within the interval. The check and
 * the start hold the shop's lock (across instances), so two tabs clicking at once start one run.
 */
export async function startInsightsRefresh(admin: AdminGraphqlClient, shop: string): Promise<RefreshProgress> {
  try {
    return await getCoordinator().withLocks([`insights-refresh:${shop}`], () => startUnlessRecent(admin));
  } catch (error) {
    if (!(error instanceof LockUnavailableError)) throw error;
    throw new ServiceError("RATE_LIMITED", "A refresh is being started for this shop; try again shortly", {
      cause: error,
      retryAfterSeconds: 5,
    });
  }
}

async function startUnlessRecent(admin: AdminGraphqlClient): Promise<RefreshProgress> {
  const stored = await readStoredInsights(admin);
  const allowedAt = nextAllowedAt(stored.refreshStartedAt);
  const nowMs = clock.now().getTime();
  if (allowedAt && Date.parse(allowedAt) > nowMs) {
    throw new ServiceError(
      "RATE_LIMITED",
      `Insights refresh at most once every ${REFRESH_INTERVAL_HOURS} hours; the next one is possible at ${allowedAt}`,
      { retryAfterSeconds: (Date.parse(allowedAt) - nowMs) / 1000 },
    );
  }
  const operation = await startBulkQuery(admin, saveItemsBulkQuery());
  await writeStoredInsights(admin, { refreshOperation: operation, refreshStartedAt: new Date(nowMs).toISOString() });
  return { operation, status: "CREATED", objectCount: 0, done: false };
}

/**
 * Polls the refresh; once the platform has finished, streams its result through the aggregator
 * and stores the summary. Whoever polls first after completion does that work.
 */
export async function advanceInsightsRefresh(admin: AdminGraphqlClient, operation: string): Promise<RefreshProgress> {
  const stored = await readStoredInsights(admin);
  // Any other operation of the shop (an export reads active items only) would make wrong figures.
  if (stored.refreshOperation !== operation) {
    throw new ServiceError("NOT_FOUND", "That operation is not the shop's current insights refresh");
  }
  const bulk = await readBulkOperation(admin, operation);
  const progress = { operation, status: bulk.status, objectCount: bulk.objectCount, done: false };
  if (bulk.status !== "COMPLETED") return progress;
  if (stored.summary?.operation === operation) return { ...progress, done: true };
  const aggregator = createAggregator(clock.now(), operation);
  for await (const node of readBulkResult(bulk.url)) {
    const line = toSaveItemLine(node);
    if (line) aggregator.add(line);
  }
  await writeStoredInsights(admin, { summary: aggregator.result() });
  return { ...progress, done: true };
}
