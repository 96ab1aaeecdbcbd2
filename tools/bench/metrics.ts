import { METRICS_TOKEN } from "./sandbox";

/** One instance's /metrics, as sample name with labels → value (counters and gauges only). */
export async function scrape(instanceUrl: string): Promise<Map<string, number>> {
  const response = await fetch(`${instanceUrl}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
  if (!response.ok) throw new Error(`/metrics of ${instanceUrl} answered ${response.status}`);
  const samples = new Map<string, number>();
  for (const line of (await response.text()).split("\n")) {
    if (line.startsWith("#") || !line.trim()) continue;
    const space = line.lastIndexOf(" ");
    samples.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return samples;
}

/** The sum of every sample of a metric whose labels include all of `labels`. */
export function total(samples: Map<string, number>, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const [key, value] of samples) {
    if (key !== name && !key.startsWith(`${name}{`)) continue;
    if (Object.entries(labels).every(([label, expected]) => key.includes(`${label}="${expected}"`))) sum += value;
  }
  return sum;
}

/** Hits and lookups per cache between two scrapes (every cache when `before` is empty). */
export function cacheHitRates(
  before: Map<string, number>,
  after: Map<string, number>,
): { cache: string; hits: number; lookups: number }[] {
  const caches = new Set<string>();
  for (const key of after.keys()) {
    const match = /^cache_lookups_total\{.*cache="([^"]+)"/.exec(key);
    if (match) caches.add(match[1]!);
  }
  return [...caches].sort().map((cache) => {
    const count = (samples: Map<string, number>, result: string) =>
      total(samples, "cache_lookups_total", { cache, result });
    const hits = count(after, "hit") - count(before, "hit");
    return { cache, hits, lookups: hits + count(after, "miss") - count(before, "miss") };
  });
}
