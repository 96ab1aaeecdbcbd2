// What the instance's memory does under a long run of cached is-saved reads over the proxy: RSS
// after a warm-up and after every tenth of the run, the V8 heap beside it. Run alone by `npm run
// bench:memory` (100,000 requests) and as the last section of `npm run bench`.
import type http from "node:http";
import { closedLoop, type Outcome } from "./load";
import { scrape, total } from "./metrics";
import { OPS_SHOP } from "./operations";
import { rssBytes } from "./process-stats";
import { isSaved, product } from "./requests";
import { fixed, formatAnswers, mib, summarize } from "./stats";

/** Requests before the first reading: the JIT, the caches and V8's young generation settle. */
const WARM_UP = 1_000;
/** Enough customers that none reaches the per-customer rate (2 a second after a burst of 30). */
const CUSTOMERS = 1_024;
/** Items per customer: the list states hold a few entries each, as a shopper's page of hearts does. */
const ITEMS = 8;
/** The target: RSS after warm-up flat within this fraction over the run. */
const FLAT_WITHIN = 0.1;

export async function measureMemory(options: {
  instance: { url: string; pid: number };
  agent: http.Agent;
  concurrency: number;
  requests: number;
  /** Where each reading is printed as it is taken (the summary goes to stdout). */
  progress?: (line: string) => void;
}): Promise<void> {
  const { instance, agent, concurrency, requests } = options;
  const { url, pid } = instance;
  const progress = options.progress ?? ((line) => console.error(line));
  const request = (index: number) =>
    isSaved(url, { shop: OPS_SHOP, customer: String(200_000 + (index % CUSTOMERS)) }, product(1 + (index % ITEMS)));
  const run = (from: number, to: number) =>
    closedLoop({
      agent,
      concurrency,
      durationMs: 3_600_000,
      next: (index) => (from + index < to ? request(from + index) : undefined),
    });

  // The V8 heap next to RSS: heap that levels off while RSS grows points outside JavaScript.
  const reading = async (done: number) => {
    const samples = await scrape(url);
    const rss = rssBytes(pid);
    progress(
      `after ${done}: RSS ${mib(rss)}, heap used ${mib(total(samples, "nodejs_heap_size_used_bytes"))}, ` +
        `external ${mib(total(samples, "nodejs_external_memory_bytes"))}`,
    );
    return rss;
  };
  const first = await run(0, WARM_UP);
  const rssFirst = await reading(WARM_UP);
  const outcomes: Outcome[] = [...first.outcomes];
  let durationMs = first.durationMs;
  let rssPeak = rssFirst;
  let rssLast = rssFirst;
  // In slices, to print how RSS moves along the way (growth that later stops is not a leak).
  const slice = Math.max(WARM_UP, Math.floor(requests / 10));
  for (let done = WARM_UP; done < requests; done += slice) {
    const result = await run(done, Math.min(requests, done + slice));
    outcomes.push(...result.outcomes);
    durationMs += result.durationMs;
    rssLast = await reading(Math.min(requests, done + slice));
    rssPeak = Math.max(rssPeak, rssLast);
  }
  const summary = summarize(outcomes, durationMs);
  const growth = (rssLast - rssFirst) / rssFirst;
  console.log(
    `\nMemory, is-saved over the proxy, one app instance (pid ${pid}), ${concurrency} connections, ` +
      `${CUSTOMERS} customers × ${ITEMS} items:\n` +
      `  requests ${summary.requests} at ${fixed(summary.perSecond, 0)}/s, p50 ${fixed(summary.p50)} ms, p99 ${fixed(summary.p99)} ms; answers ${formatAnswers(summary.answers)}\n` +
      `  RSS after the first ${WARM_UP}: ${mib(rssFirst)}; highest reading ${mib(rssPeak)}; after ${summary.requests}: ${mib(rssLast)}\n` +
      `  difference: ${mib(rssLast - rssFirst)}, ${fixed(100 * growth, 1)}% (target: flat within ${100 * FLAT_WITHIN}%)`,
  );
}
