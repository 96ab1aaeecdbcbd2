// Latency of the Redis coordinator's calls on this machine, one caller at a time, and of a lock
// handed between two instances. Run: npx tsx tools/coordination-latency/measure-latency.ts [calls]
// With DATABASE_URL (a migrated PostgreSQL database), also the coordinator that grants Redis locks
// under a permit kept there (decision 0026), beside the one without in the same run.
import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import type { Coordinator } from "~/infrastructure/coordination/coordinator.server";
import { createFallbackStore } from "~/infrastructure/coordination/fallback-store.server";
import { createLocalCoordinator } from "~/infrastructure/coordination/local-coordinator.server";
import { createPool } from "~/infrastructure/database/pool.server";
import { createRedisCoordinator } from "~/infrastructure/coordination/redis-coordinator.server";
import { dropKeys, REDIS_URL, redisTestsRun, uniquePrefix } from "../../tests/support/redis";

const calls = Number(process.argv[2] ?? 2_000);

async function measure(label: string, call: () => Promise<unknown>): Promise<void> {
  for (let i = 0; i < Math.min(200, calls); i++) await call();
  const samples: number[] = [];
  for (let i = 0; i < calls; i++) {
    const startedAt = performance.now();
    await call();
    samples.push(performance.now() - startedAt);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!.toFixed(3);
  console.log(`${label.padEnd(46)} p50 ${at(0.5)} ms  p99 ${at(0.99)} ms  max ${at(1)} ms  (${calls} calls)`);
}

async function measureCoordinator(name: string, coordinator: Coordinator): Promise<void> {
  const rule = { capacity: 1e9, refillPerSecond: 1 };
  const tenKeys = Array.from({ length: 10 }, () => randomUUID());
  await measure(`${name} withLocks, 1 key (acquire + release)`, () =>
    coordinator.withLocks([randomUUID()], async () => {}),
  );
  await measure(`${name} withLocks, 10 keys`, () => coordinator.withLocks(tenKeys, async () => {}));
  await measure(`${name} withLocks + assertHeld`, () =>
    coordinator.withLocks([randomUUID()], (held) => held.assertHeld()),
  );
  await measure(`${name} takeTokens`, () => coordinator.takeTokens("bucket", rule));
  await measure(`${name} readVersions, 1 key`, () => coordinator.readVersions(["shop:a"]));
  await measure(`${name} bumpVersion`, () => coordinator.bumpVersion("shop:b"));
}

/** Two instances take one lock in turns as fast as they can: time from one holder's release to the next holder's start. */
async function measureHandoff(a: Coordinator, b: Coordinator): Promise<void> {
  const key = randomUUID();
  const handoffs: number[] = [];
  const holders: number[] = [];
  let releasedAt: number | undefined;
  const turns = Math.min(calls, 1_000);
  const startedAt = performance.now();
  await Promise.all(
    Array.from({ length: turns }, (_, i) =>
      (i % 2 ? a : b).withLocks([key], async () => {
        holders.push(i % 2);
        if (releasedAt !== undefined) handoffs.push(performance.now() - releasedAt);
        releasedAt = performance.now();
      }),
    ),
  );
  const elapsedMs = performance.now() - startedAt;
  // How evenly the two instances shared the lock: the longest run of turns one of them had in a row.
  let longestRun = 0;
  for (let i = 0, run = 0; i < holders.length; i++)
    longestRun = Math.max(longestRun, (run = holders[i] === holders[i - 1] ? run + 1 : 1));
  handoffs.sort((x, y) => x - y);
  const at = (q: number) => handoffs[Math.floor(q * (handoffs.length - 1))]!.toFixed(3);
  console.log(
    `redis lock handoff under contention (${turns} holders, 2 instances) p50 ${at(0.5)} ms  p99 ${at(0.99)} ms  ` +
      `max ${at(1)} ms; ${Math.round((turns / elapsedMs) * 1000)} holders/s; longest run of one instance ${longestRun}`,
  );
}

/** One instance holds, the other waits; time from the release to the waiter's start, over 200 rounds. */
async function measureCrossInstanceHandoff(a: Coordinator, b: Coordinator): Promise<void> {
  const key = randomUUID();
  const handoffs: number[] = [];
  for (let round = 0; round < 200; round++) {
    let entered!: () => void;
    const holding = new Promise<void>((resolve) => (entered = resolve));
    let releasedAt = 0;
    const held = a.withLocks([key], async () => {
      entered();
      await new Promise((resolve) => setTimeout(resolve, 5));
      releasedAt = performance.now();
    });
    await holding;
    await b.withLocks([key], async () => handoffs.push(performance.now() - releasedAt));
    await held;
  }
  handoffs.sort((x, y) => x - y);
  const at = (q: number) => handoffs[Math.floor(q * (handoffs.length - 1))]!.toFixed(3);
  console.log(
    `redis lock handoff to another instance's waiter   p50 ${at(0.5)} ms  p99 ${at(0.99)} ms  max ${at(1)} ms  (200 rounds)`,
  );
}

if (!redisTestsRun) process.exit(1);
const prefix = uniquePrefix("measure-latency");
const a = createRedisCoordinator({ url: REDIS_URL, keyPrefix: prefix });
const b = createRedisCoordinator({ url: REDIS_URL, keyPrefix: prefix });
await measureCoordinator("redis", a);
if (process.env.DATABASE_URL) {
  const pool = createPool(process.env.DATABASE_URL);
  const permitted = createRedisCoordinator({
    url: REDIS_URL,
    keyPrefix: prefix,
    fallback: createFallbackStore(pool, prefix),
  });
  await measureCoordinator("redis+permit", permitted);
  await permitted.close();
  await pool.end();
}
await measureCrossInstanceHandoff(a, b);
await measureHandoff(a, b);
await measureCoordinator("local", createLocalCoordinator());
await Promise.all([a.close(), b.close()]);
const raw = new Redis(REDIS_URL);
await dropKeys(raw, prefix);
await raw.quit();
