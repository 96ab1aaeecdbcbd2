import type { ApiName, RecordedRequest } from "./types";

export const DEFAULT_REQUEST_LOG_LIMIT = 10_000;

/** Appends to a live array that keeps only its last `limit` items. */
export function pushBounded<T>(items: T[], item: T, limit: number): void {
  if (items.push(item) > limit) items.shift();
}

export interface RequestLog {
  /** The most recent requests, oldest first; the same array for the log's lifetime. */
  readonly entries: RecordedRequest[];
  record(entry: RecordedRequest): void;
  /** Exact over every request since the last clear, including those the bounded entries dropped. */
  count(filter?: { api?: ApiName; shop?: string }): number;
  clear(): void;
}

export function createRequestLog(limit: number): RequestLog {
  const entries: RecordedRequest[] = [];
  const counts = new Map<ApiName, Map<string, number>>();
  return {
    entries,
    record(entry) {
      pushBounded(entries, entry, limit);
      let byShop = counts.get(entry.api);
      if (!byShop) counts.set(entry.api, (byShop = new Map()));
      byShop.set(entry.shop, (byShop.get(entry.shop) ?? 0) + 1);
    },
    count(filter = {}) {
      let total = 0;
      for (const [api, byShop] of counts) {
        if (filter.api !== undefined && filter.api !== api) continue;
        for (const [shop, count] of byShop) if (filter.shop === undefined || filter.shop === shop) total += count;
      }
      return total;
    },
    clear() {
      entries.length = 0;
      counts.clear();
    },
  };
}
