import { Counter, Registry } from "prom-client";

/**
 * The app's own Prometheus metrics. The registry is exported by the Remix build's entry module
 * (app/entry.server.tsx), and the HTTP server's /metrics exports exactly that registry (next to its
 * own HTTP and process metrics), so what app code counts here is what a scrape sees. Label values
 * must come from small fixed sets: `labelValue` folds anything else into "other".
 */
export const metricsRegistry = new Registry();

const platformPoints = new Counter({
  name: "platform_points_total",
  help: "Admin API cost points spent (actual query cost), by app operation",
  labelNames: ["operation"] as const,
  registers: [metricsRegistry],
});

const platformThrottled = new Counter({
  name: "platform_throttled_total",
  help: "Admin API requests answered THROTTLED by the platform",
  registers: [metricsRegistry],
});

const cacheLookups = new Counter({
  name: "cache_lookups_total",
  help: "Lookups in the app's caches, by cache and result (hit or miss)",
  labelNames: ["cache", "result"] as const,
  registers: [metricsRegistry],
});

const budgetUnits = new Counter({
  name: "budget_units_total",
  help: "Monthly budget units counted, by the shop's plan",
  labelNames: ["plan"] as const,
  registers: [metricsRegistry],
});

const quotaBlocks = new Counter({
  name: "quota_blocks_taken_total",
  help: "Blocks of a monthly quota taken from its database counter (one write each), by quota",
  labelNames: ["quota"] as const,
  registers: [metricsRegistry],
});

const flowTriggersDropped = new Counter({
  name: "flow_triggers_dropped_total",
  help: "Flow triggers not fired because they were over a rate, by trigger and rate",
  labelNames: ["trigger", "reason"] as const,
  registers: [metricsRegistry],
});

const LABEL_VALUE = /^[A-Za-z0-9_.:-]{1,64}$/;

/** A label value from a bounded set: short identifiers pass, anything else is "other". */
export function labelValue(value: string | undefined): string {
  return value !== undefined && LABEL_VALUE.test(value) ? value : "other";
}

/** Cost points one platform request spent, under the app operation it served (save, list, ...). */
export function countPlatformPoints(operation: string | undefined, points: number): void {
  if (Number.isFinite(points) && points > 0) platformPoints.inc({ operation: labelValue(operation) }, points);
}

export function countPlatformThrottled(): void {
  platformThrottled.inc();
}

/** One lookup in a named cache (e.g. "shop-state"). */
export function countCacheLookup(cache: string, result: "hit" | "miss"): void {
  cacheLookups.inc({ cache: labelValue(cache), result });
}

/** Budget units counted against a shop's monthly budget (1 per operation, batch included). */
export function countBudgetUnits(plan: string, units = 1): void {
  if (Number.isFinite(units) && units > 0) budgetUnits.inc({ plan: labelValue(plan) }, units);
}

/** One block of a quota taken from its counter in the database ("shop-budget" or "customer-share"). */
export function countQuotaBlock(quota: string): void {
  quotaBlocks.inc({ quota: labelValue(quota) });
}

/** A Flow trigger dropped for being over a rate ("customer-rate" or "shop-rate"). */
export function countFlowTriggerDropped(trigger: string, reason: string): void {
  flowTriggersDropped.inc({ trigger: labelValue(trigger), reason: labelValue(reason) });
}
