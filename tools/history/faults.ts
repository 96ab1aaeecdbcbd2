// The faults of a history run, on a schedule: an instance stopped (SIGSTOP, then SIGCONT) or killed
// (SIGKILL), the run's own Redis killed and started again empty, the run's database cut off behind
// its relay, and the emulated platform slow, throttling or failing. Each fault is one window, with
// a quiet window before it, so the report can say how available the service was meanwhile.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import type { RemoteEmulator } from "@saved-items/platform-emulator/remote";
import { freePort } from "@saved-items/sandbox/ports";
import { isAlive } from "@saved-items/platform-emulator/processes";
import { seededRandom } from "./workload";

export const FAULTS = [
  "platform-latency",
  "instance-stop",
  "redis-restart",
  "platform-throttled",
  "postgres-unreachable",
  "platform-errors",
  "instance-kill",
] as const;
export type FaultName = (typeof FAULTS)[number];

export interface FaultWindow {
  name: FaultName | "quiet";
  startedAt: number;
  endedAt: number;
  detail: string;
}

export interface FaultTargets {
  sandboxUrl: string;
  emulator: RemoteEmulator;
  shop: string;
  redis: PrivateRedis;
  database: { cut(): Promise<void>; restore(): Promise<void> };
}

export interface ScheduleOptions {
  durationMs: number;
  faultMs: number;
  quietMs: number;
  /** The faults taken in turn (default all, in the order of FAULTS). */
  faults: readonly FaultName[];
  /** The run's seed: the lengths that vary (PostgreSQL's outages) repeat with it. */
  seed: number;
  /** How long redis-restart keeps Redis dead before starting it again empty (default 2 s). */
  redisDownMs?: number;
  log: (line: string) => void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs quiet and fault windows in turn until the duration is over; every fault is undone by the end. */
export async function runFaultSchedule(targets: FaultTargets, options: ScheduleOptions): Promise<FaultWindow[]> {
  const windows: FaultWindow[] = [];
  const started = performance.now();
  const left = () => started + options.durationMs - performance.now();
  let victim = 0;
  const lengths = faultLengths(options);
  for (let turn = 0; options.faults.length > 0; turn++) {
    const name = options.faults[turn % options.faults.length]!;
    const length = lengths(name);
    if (left() <= options.quietMs + length) break;
    const quietFrom = performance.now();
    await sleep(options.quietMs);
    windows.push({ name: "quiet", startedAt: quietFrom, endedAt: performance.now(), detail: "" });
    const startedAt = performance.now();
    options.log(`fault ${name} begins`);
    const detail = await inject(name, targets, length, victim++, options.redisDownMs);
    windows.push({ name, startedAt, endedAt: performance.now(), detail });
    options.log(`fault ${name} ends: ${detail}`);
  }
  const quietFrom = performance.now();
  await sleep(Math.max(0, left()));
  windows.push({ name: "quiet", startedAt: quietFrom, endedAt: performance.now(), detail: "" });
  return windows;
}

/**
 * PostgreSQL's outages last 5 to 30 s, drawn from the run's seed (a managed database's failover or
 * a restart for maintenance, issue #34); the other faults last --fault-seconds.
 */
export const POSTGRES_OUTAGE_MS = { min: 5_000, max: 30_000 } as const;
export function faultLengths(options: Pick<ScheduleOptions, "faultMs" | "seed">): (name: FaultName) => number {
  const random = seededRandom(options.seed * 7_919 + 13);
  return (name) =>
    name === "postgres-unreachable"
      ? Math.round(POSTGRES_OUTAGE_MS.min + random() * (POSTGRES_OUTAGE_MS.max - POSTGRES_OUTAGE_MS.min))
      : options.faultMs;
}

async function inject(
  name: FaultName,
  targets: FaultTargets,
  faultMs: number,
  turn: number,
  redisDownMs: number | undefined,
): Promise<string> {
  const { emulator, shop } = targets;
  switch (name) {
    case "platform-latency":
      await emulator.setLatency(1_500);
      await sleep(faultMs);
      await emulator.setLatency(0);
      return "every platform request answered 1.5 s late";
    case "platform-throttled":
      // A few at a time: the queue has no clearing short of a reset, so little is left after the window.
      return repeatFaults(faultMs, () => emulator.injectFault({ kind: "throttled", shop, times: 4 }), "THROTTLED");
    case "platform-errors":
      return repeatFaults(
        faultMs,
        async () => {
          await emulator.injectFault({ kind: "http500", shop, times: 2 });
          await emulator.injectFault({ kind: "network", shop, times: 1 });
        },
        "HTTP 500 and dropped connections",
      );
    case "redis-restart": {
      const downMs = redisDownMs ?? Math.min(2_000, faultMs / 2);
      const killedAt = performance.now();
      await targets.redis.kill();
      await sleep(downMs);
      await targets.redis.start();
      const downForMs = performance.now() - killedAt;
      await sleep(Math.max(0, faultMs - downForMs));
      return `Redis killed (SIGKILL), started again empty after ${(downMs / 1000).toFixed(1)} s (down ${(downForMs / 1000).toFixed(1)} s in all)`;
    }
    case "postgres-unreachable":
      await targets.database.cut();
      await sleep(faultMs);
      await targets.database.restore();
      return `PostgreSQL's relay refused and closed connections for ${(faultMs / 1000).toFixed(1)} s`;
    case "instance-stop":
    case "instance-kill": {
      const alive = (await instances(targets.sandboxUrl)).filter((instance) => isAlive(instance.pid));
      const target = alive[turn % Math.max(alive.length, 1)];
      if (!target) return "skipped: no instance alive";
      if (name === "instance-kill") {
        process.kill(target.pid, "SIGKILL");
        await sleep(faultMs);
        // The sandbox starts a killed instance again, the only one too.
        return `instance ${target.index} (pid ${target.pid}) killed (SIGKILL)`;
      }
      process.kill(target.pid, "SIGSTOP");
      try {
        await sleep(faultMs);
      } finally {
        process.kill(target.pid, "SIGCONT");
      }
      return `instance ${target.index} (pid ${target.pid}) stopped (SIGSTOP) for ${faultMs / 1000} s, then SIGCONT`;
    }
  }
}

async function repeatFaults(faultMs: number, add: () => Promise<void>, what: string): Promise<string> {
  const until = performance.now() + faultMs;
  let rounds = 0;
  while (performance.now() < until) {
    await add();
    rounds++;
    await sleep(250);
  }
  return `${what} injected ${rounds} times (every 250 ms) into the shop's platform requests`;
}

export async function instances(sandboxUrl: string): Promise<{ index: number; pid: number }[]> {
  const answer = (await (await fetch(`${sandboxUrl}/__sandbox/instances`)).json()) as {
    instances: { index: number; pid: number }[];
  };
  return answer.instances;
}

/** SIGCONT to every instance, whatever the schedule was doing when it was interrupted. */
export async function resumeInstances(sandboxUrl: string): Promise<void> {
  for (const { pid } of await instances(sandboxUrl).catch(() => [])) {
    if (isAlive(pid)) process.kill(pid, "SIGCONT");
  }
}

/**
 * A redis-server of the run's own on a free loopback port, with nothing persisted: killing it and
 * starting it again on the same port is Redis restarted empty. The machine's Redis is never touched.
 */
export class PrivateRedis {
  private child: ChildProcess | undefined;
  private readonly dir = mkdtempSync(path.join(os.tmpdir(), "saved-items-history-redis-"));

  private constructor(readonly port: number) {}

  static async start(): Promise<PrivateRedis> {
    const redis = new PrivateRedis(await freePort());
    await redis.start();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const args = ["--port", String(this.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"];
    const child = spawn("redis-server", [...args, "--dir", this.dir], { stdio: "ignore" });
    this.child = child;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    for (let attempt = 0; ; attempt++) {
      const client = new Redis(this.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      // Refusals until it listens are expected; connect() rejects with them anyway.
      client.on("error", () => {});
      try {
        await client.connect();
        await client.ping();
        return;
      } catch (error) {
        if (attempt >= 40 || (await Promise.race([exited.then(() => true), sleep(100).then(() => false)])))
          throw new Error(`redis-server did not start on port ${this.port}: ${error}`);
      } finally {
        client.disconnect();
      }
    }
  }

  /** For good, with its directory. */
  async stop(): Promise<void> {
    await this.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }

  async kill(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  }
}
