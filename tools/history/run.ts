// One history run: a sandbox of its own (its instances on a Redis and a database of the run's own,
// the database behind a relay that can be cut), the clients of workload.ts for the duration with
// the faults of faults.ts on a schedule, a last read of every list once the faults are over, then
// the check. Everything it starts is stopped at the end, and it talks to loopback addresses only.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { keepAliveAgent } from "../bench/load";
import { startMeasuredSandbox, usageDelta } from "../bench/sandbox";
import { createTestDatabase } from "@saved-items/sandbox/test-databases";
import { createRelay } from "../../tests/support/relay";
import { checkHistory, type CheckResult } from "./checker";
import { FAULTS, PrivateRedis, resumeInstances, runFaultSchedule, type FaultName, type FaultWindow } from "./faults";
import {
  historyCustomerToken,
  listKey,
  readEveryList,
  runClients,
  type Recorder,
  type WorkloadOptions,
} from "./workload";

export const HISTORY_SHOP = "history.myshopify.com";

export interface RunOptions {
  seconds: number;
  instances: number;
  clients: number;
  customers: number;
  itemsPerCustomer: number;
  seed: number;
  /** The faults taken in turn; none for a run without. */
  faults: readonly FaultName[];
  faultSeconds: number;
  /** How long the redis-restart fault keeps Redis dead (default: 2 s). */
  redisDownSeconds?: number;
  quietSeconds: number;
  /** Calls per second each client aims at. */
  clientRate: number;
  timeoutMs: number;
  /** A PostgreSQL server on this machine with trust authentication; the run creates and drops a database on it. */
  postgresUrl: string;
  /** Where the instances' request and error log goes (the sandbox's SANDBOX_LOG); none kept without. */
  logFile?: string;
  log: (line: string) => void;
}

export interface RunResult extends Recorder {
  options: RunOptions;
  /** performance.now() when the clients started: the report's times are from here. */
  origin: number;
  durationMs: number;
  windows: FaultWindow[];
  check: CheckResult;
  platform: ReturnType<typeof usageDelta>;
}

export const DEFAULT_RUN: Omit<RunOptions, "postgresUrl" | "log"> = {
  seconds: 120,
  instances: 2,
  clients: 16,
  customers: 96,
  itemsPerCustomer: 4,
  seed: 1,
  faults: FAULTS,
  faultSeconds: 8,
  quietSeconds: 6,
  clientRate: 4,
  timeoutMs: 5_000,
};

/** Refuses anything but this machine: the run kills, cuts and floods what it is pointed at. */
export function assertLoopback(url: string): void {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
  if (!["127.0.0.1", "localhost", "::1"].includes(host)) throw new Error(`${url} is not a loopback address`);
}

/** Stops, last-started first, everything a run started; each at most once. */
export type Cleanup = { add(stop: () => Promise<void> | void): void; run(): Promise<void> };
export function cleanupStack(): Cleanup {
  const stops: (() => Promise<void> | void)[] = [];
  let running: Promise<void> | undefined;
  return {
    add: (stop) => void stops.push(stop),
    run: () =>
      (running ??= (async () => {
        for (const stop of stops.reverse()) {
          try {
            await stop();
          } catch (error) {
            console.error("[history] stopping:", error);
          }
        }
      })()),
  };
}

export async function runHistory(options: RunOptions, cleanup: Cleanup = cleanupStack()): Promise<RunResult> {
  assertLoopback(options.postgresUrl);
  const { log } = options;
  try {
    const dir = mkdtempSync(path.join(os.tmpdir(), "saved-items-history-"));
    cleanup.add(() => rmSync(dir, { recursive: true, force: true }));
    const customers = Array.from({ length: options.customers }, (_, index) => String(810_001 + index));
    const items = Array.from(
      { length: options.itemsPerCustomer },
      (_, index) => `gid://shopify/Product/${91_001 + index}`,
    );
    const seedFile = path.join(dir, "seed.json");
    writeFileSync(seedFile, JSON.stringify(historySeed(customers), null, 2));

    const redis = await PrivateRedis.start();
    cleanup.add(() => redis.stop());
    log(`Redis of the run's own on ${redis.url}`);
    // The run's name starts as the tests' databases do, so a run killed before dropping it is swept up later.
    const database = await createTestDatabase(
      {
        kind: "postgres",
        serverUrl: options.postgresUrl,
        template: "template0",
        prefix: `saved_items_test_${Date.now().toString(36)}_history`,
      },
      { empty: true },
    );
    cleanup.add(database.drop);
    const relay = await createRelay(database.url);
    cleanup.add(relay.cut);
    log(`database ${new URL(database.url).pathname.slice(1)} behind a relay at ${new URL(relay.url).host}`);

    const sandbox = await startMeasuredSandbox({
      instances: options.instances,
      seedFile,
      env: {
        DATABASE_URL: relay.url,
        REDIS_URL: redis.url,
        ...(options.logFile ? { SANDBOX_LOG: options.logFile } : {}),
      },
      stopOnSignals: false,
    });
    cleanup.add(sandbox.stop);
    // Whatever happens, no instance stays stopped and the platform is itself again before the sandbox stops.
    cleanup.add(async () => {
      await resumeInstances(sandbox.url);
      await relay.restore().catch(() => {});
    });
    log(
      `sandbox on ${sandbox.url}: ${sandbox.instances.map((instance) => `instance ${instance.index} pid ${instance.pid}`).join(", ")}`,
    );
    await sandbox.emulator.setSearchLag(250);
    const usageBefore = await sandbox.usage(HISTORY_SHOP);

    const agent = keepAliveAgent(256);
    cleanup.add(() => agent.destroy());
    const workload: WorkloadOptions = {
      baseUrl: sandbox.url,
      agent,
      shop: HISTORY_SHOP,
      customers,
      items,
      clients: options.clients,
      durationMs: options.seconds * 1_000,
      clientRate: options.clientRate,
      sessionMs: 2_000,
      timeoutMs: options.timeoutMs,
      seed: options.seed,
    };
    const recorder: Recorder = { operations: [], exchanges: [] };
    const origin = performance.now();
    const progress = setInterval(() => {
      const answered = recorder.operations.filter((operation) => operation.status !== 0).length;
      log(
        `${((performance.now() - origin) / 1000).toFixed(0)} s: ${recorder.operations.length} calls, ${answered} answered`,
      );
    }, 30_000);
    const faultOptions = {
      durationMs: options.seconds * 1_000,
      faultMs: options.faultSeconds * 1_000,
      ...(options.redisDownSeconds === undefined ? {} : { redisDownMs: options.redisDownSeconds * 1_000 }),
      quietMs: options.quietSeconds * 1_000,
      faults: options.faults,
      seed: options.seed,
      log,
    };
    const [windows] = await Promise.all([
      options.faults.length > 0
        ? runFaultSchedule(
            { sandboxUrl: sandbox.url, emulator: sandbox.emulator, shop: HISTORY_SHOP, redis, database: relay },
            faultOptions,
          )
        : Promise.resolve<FaultWindow[]>([]),
      runClients(workload, recorder),
    ]).finally(() => clearInterval(progress));
    const durationMs = performance.now() - origin;
    // Unknown writes may still land: a last read of each list, once the answers have had time to settle.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await readEveryList(workload, recorder);
    const platform = usageDelta(usageBefore, await sandbox.usage(HISTORY_SHOP));
    // Before the check, which holds the event loop: a signal meanwhile could not stop anything.
    await cleanup.run();
    log("everything the run started is stopped; checking the history");

    const itemsByList = new Map(customers.map((customer) => [listKey(HISTORY_SHOP, customer), items]));
    const check = checkHistory(recorder.operations, { items: itemsByList });
    return { ...recorder, options, origin, durationMs, windows, check, platform };
  } finally {
    await cleanup.run();
  }
}

function historySeed(customers: string[]) {
  return {
    shops: [
      {
        domain: HISTORY_SHOP,
        plan: "scale",
        installed: true,
        // The workload must not be throttled by the platform's bucket; throttling is a fault of its own.
        tier: "enterprise",
        storefrontAccessToken: "history-storefront-token",
        customers: customers.map((customer) => ({
          id: `gid://shopify/Customer/${customer}`,
          customerAccountAccessToken: historyCustomerToken(customer),
        })),
      },
    ],
  };
}
