// npm run soak [-- --minutes 2 --rate 10]: two app instances (SANDBOX_INSTANCES=2, Redis) driven for
// a bounded time with a mix of operations over all three channels, to this machine's loopback only.
// Prints per instance: p50/p99, answers by code (expected or not), RSS at start and end, cache hit rates.
import { parseArgs } from "node:util";
import seed from "./seed.json" with { type: "json" };
import {
  customerAccountCaller,
  headlessCaller,
  OPERATION_NAMES,
  proxyCaller,
  type Call,
  type Caller,
  type OperationName,
} from "./channels";
import { keepAliveAgent, openLoop, send, type Outcome } from "./load";
import { cacheHitRates, scrape } from "./metrics";
import { rssBytes } from "./process-stats";
import { product } from "./requests";
import { BENCH_SEED, startMeasuredSandbox } from "./sandbox";
import { fixed, formatAnswers, mib, summarize } from "./stats";

const { values } = parseArgs({
  options: {
    minutes: { type: "string", default: "2" },
    rate: { type: "string", default: "10" },
  },
});
const minutes = Number(values.minutes);
const rate = Number(values.rate);

const SHOP = "soak.myshopify.com";
/** Answers a correct client meets in normal use: saving what is saved, removing what is not. */
const EXPECTED = new Set(["DUPLICATE_SAVE", "NOT_FOUND", "ITEM_NOT_FOUND"]);
/** Per channel, the share of calls; per operation, the share of a channel's calls (reads dominate). */
const CHANNEL_SHARE = { proxy: 0.6, headless: 0.25, "customer-account": 0.15 } as const;
const OPERATION_SHARE: Record<OperationName, number> = {
  "is-saved": 0.3,
  list: 0.3,
  save: 0.15,
  remove: 0.1,
  toggle: 0.1,
  batch: 0.05,
};
/** Items a shopper picks from: small enough that saves meet saved items and removes unsaved ones. */
const CATALOGUE = 40;

const soakShop = seed.shops.find((shop) => shop.domain === SHOP)!;
const agent = keepAliveAgent(256);
const callers: Record<Caller["channel"], Caller[]> = {
  // Proxy customers need no seeding: the signature says who they are.
  proxy: Array.from({ length: 200 }, (_, index) => proxyCaller(SHOP, String(600_000 + index))),
  headless: soakShop.customers.map((customer) => headlessCaller(agent, SHOP, customer.customerAccountAccessToken!)),
  "customer-account": Array.from({ length: 50 }, (_, index) =>
    customerAccountCaller(agent, SHOP, `gid://shopify/Customer/${700_000 + index}`),
  ),
};

let seedRandom = 42;
/** Deterministic, so two soaks send the same mix. */
const random = () => (seedRandom = (seedRandom * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
const pick = <K extends string>(shares: Record<K, number>): K => {
  let left = random();
  const entries = Object.entries(shares) as [K, number][];
  for (const [key, share] of entries) if ((left -= share) < 0) return key;
  return entries.at(-1)![0];
};
const anyOf = <T>(items: T[]): T => items[Math.floor(random() * items.length)]!;

function nextCall(): { caller: Caller; call: Call } {
  const caller = anyOf(callers[pick(CHANNEL_SHARE)]);
  const operation = pick(OPERATION_SHARE);
  // A batch names each item once (twice is BATCH_CONFLICT, a client's bug, not traffic).
  const first = Math.floor(random() * CATALOGUE);
  const count = operation === "batch" ? 5 : 1;
  const entityGids = Array.from({ length: count }, (_, k) => product(1 + ((first + k * 7) % CATALOGUE)));
  return { caller, call: { operation, entityGids } };
}

interface Answered {
  instance: number;
  channel: string;
  operation: string;
  outcome: Outcome;
}

const sandbox = await startMeasuredSandbox({ instances: 2, seedFile: BENCH_SEED });
try {
  const { instances } = sandbox;
  const rssStart = instances.map((instance) => rssBytes(instance.pid));
  const metricsStart = await Promise.all(instances.map((instance) => scrape(instance.url)));
  const records: Answered[] = [];
  let sent = 0;
  const progress = setInterval(() => {
    const errors = records.filter((record) => record.outcome.status !== 200).length;
    console.error(
      `${new Date().toISOString()} ${records.length} answers, ${errors} not 200; RSS ${instances.map((instance) => mib(rssBytes(instance.pid))).join(", ")}`,
    );
  }, 30_000);
  const durationMs = minutes * 60_000;
  const started = performance.now();
  await openLoop({
    ratePerSecond: rate,
    durationMs,
    start: async () => {
      // Round-robin over the instances, as the front does, but chosen here so each answer is
      // attributed to the instance that gave it.
      const index = sent++ % instances.length;
      const base = instances[index]!.url;
      const { caller, call } = nextCall();
      const { request, exchange } = await caller.request(base, call);
      if (exchange)
        records.push({ instance: index, channel: caller.channel, operation: "exchange", outcome: exchange });
      if (request) {
        const outcome = await send(agent, request);
        records.push({ instance: index, channel: caller.channel, operation: call.operation, outcome });
      }
      return [];
    },
  });
  clearInterval(progress);
  const elapsedMs = performance.now() - started;
  const rssEnd = instances.map((instance) => rssBytes(instance.pid));
  const metricsEnd = await Promise.all(instances.map((instance) => scrape(instance.url)));

  console.log(
    `\nSoak: ${minutes} min, ${rate} calls/s offered, ${instances.length} instances sharing PostgreSQL (embedded), Redis and the emulator; ` +
      `channels ${Object.entries(CHANNEL_SHARE)
        .map(([channel, share]) => `${channel} ${share * 100}%`)
        .join(
          ", ",
        )}; operations ${OPERATION_NAMES.map((name) => `${name} ${OPERATION_SHARE[name] * 100}%`).join(", ")}\n`,
  );
  for (const [index, instance] of instances.entries()) {
    const own = records.filter((record) => record.instance === index);
    const summary = summarize(
      own.map((record) => record.outcome),
      elapsedMs,
    );
    const errors = own.filter((record) => record.outcome.status !== 200);
    const expected = errors.filter((record) => EXPECTED.has(record.outcome.code ?? ""));
    const unexpected = errors.filter((record) => !EXPECTED.has(record.outcome.code ?? ""));
    console.log(
      `instance ${instance.index} (pid ${instance.pid}): ${summary.requests} answers (${fixed(summary.perSecond)}/s), ` +
        `p50 ${fixed(summary.p50)} ms, p99 ${fixed(summary.p99)} ms`,
    );
    for (const name of [...OPERATION_NAMES, "exchange"]) {
      const ofOperation = own.filter((record) => record.operation === name).map((record) => record.outcome);
      if (ofOperation.length === 0) continue;
      const part = summarize(ofOperation, elapsedMs);
      console.log(
        `  ${name.padEnd(9)} ${String(part.requests).padStart(6)}  p50 ${fixed(part.p50).padStart(6)} ms  p99 ${fixed(part.p99).padStart(7)} ms`,
      );
    }
    console.log(`  expected answers (not 200): ${formatAnswers(byCode(expected)) || "none"}`);
    console.log(`  UNEXPECTED answers: ${formatAnswers(byCode(unexpected)) || "none"}`);
    console.log(
      `  RSS ${mib(rssStart[index]!)} at start, ${mib(rssEnd[index]!)} at end (${mib(rssEnd[index]! - rssStart[index]!)})`,
    );
    for (const { cache, hits, lookups } of cacheHitRates(metricsStart[index]!, metricsEnd[index]!)) {
      if (lookups > 0) console.log(`  cache ${cache}: ${fixed((100 * hits) / lookups)}% hits of ${lookups} lookups`);
    }
  }
} finally {
  agent.destroy();
  await sandbox.stop();
}

function byCode(records: Answered[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { channel, operation, outcome } of records) {
    const key = `${outcome.status} ${outcome.code ?? ""} (${channel} ${operation})`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}
