// npm run bench:memory [-- --requests 100000 --concurrency 32]: is-saved over the proxy against one
// app instance; its RSS after the first 1,000 requests and after all of them (target: within 30 MiB).
import { parseArgs } from "node:util";
import { closedLoop, keepAliveAgent } from "./load";
import { scrape, total } from "./metrics";
import { OPS_SHOP } from "./operations";
import { rssBytes } from "./process-stats";
import { isSaved, product } from "./requests";
import { BENCH_SEED, startMeasuredSandbox } from "./sandbox";
import { fixed, formatAnswers, mib, summarizeLoad } from "./stats";

const { values } = parseArgs({
  options: {
    requests: { type: "string", default: "100000" },
    concurrency: { type: "string", default: "32" },
  },
});
const requests = Number(values.requests);
const concurrency = Number(values.concurrency);
const FIRST = 1_000;
/** Enough customers that none reaches the per-customer rate (2 a second after a burst of 30). */
const CUSTOMERS = 1_024;
/** Items per customer: the list states hold a few entries each, as a shopper's page of hearts does. */
const ITEMS = 8;

const sandbox = await startMeasuredSandbox({ instances: 1, seedFile: BENCH_SEED });
const agent = keepAliveAgent(concurrency);
try {
  const { url, pid } = sandbox.instances[0]!;
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
  const memory = async (done: number) => {
    const samples = await scrape(url);
    const heap = total(samples, "nodejs_heap_size_used_bytes");
    const external = total(samples, "nodejs_external_memory_bytes");
    console.error(`after ${done}: RSS ${mib(rssBytes(pid))}, heap used ${mib(heap)}, external ${mib(external)}`);
  };
  const first = await run(0, FIRST);
  const rssFirst = rssBytes(pid);
  await memory(FIRST);
  const outcomes = [...first.outcomes];
  let durationMs = first.durationMs;
  // In slices, to print how RSS moves along the way (growth that later stops is not a leak).
  const slice = Math.max(FIRST, Math.floor(requests / 10));
  for (let done = FIRST; done < requests; done += slice) {
    const result = await run(done, Math.min(requests, done + slice));
    outcomes.push(...result.outcomes);
    durationMs += result.durationMs;
    await memory(Math.min(requests, done + slice));
  }
  const rssLast = rssBytes(pid);
  const summary = summarizeLoad({ outcomes, durationMs });
  console.log(
    `\nMemory, is-saved over the proxy, one app instance (pid ${pid}), ${concurrency} connections, ` +
      `${CUSTOMERS} customers × ${ITEMS} items:\n` +
      `  requests ${summary.requests} at ${fixed(summary.perSecond, 0)}/s, p50 ${fixed(summary.p50)} ms, p99 ${fixed(summary.p99)} ms; answers ${formatAnswers(summary.answers)}\n` +
      `  RSS after the first ${FIRST}: ${mib(rssFirst)}\n` +
      `  RSS after ${summary.requests}: ${mib(rssLast)}\n` +
      `  difference: ${mib(rssLast - rssFirst)} (target: within 30 MiB)`,
  );
} finally {
  agent.destroy();
  await sandbox.stop();
}
