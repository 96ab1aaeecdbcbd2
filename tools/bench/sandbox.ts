// A sandbox (packages/sandbox: the production server, the emulator in a process of its own) started
// for a measurement, with what the bench and the soak read from it.
import path from "node:path";
import { createRemoteEmulator, type RemoteEmulator } from "@saved-items/platform-emulator/remote";
import type { ShopUsage } from "@saved-items/platform-emulator/types";
import { repoRoot, SANDBOX_DEFAULTS } from "@saved-items/sandbox/config";
import { startSandbox } from "@saved-items/sandbox/sandbox-process";
import { signedProxyUrl } from "@saved-items/sandbox/proxy-signature";

/** /metrics needs a token; this one exists only in sandboxes the bench starts. */
export const METRICS_TOKEN = "bench-only-metrics-token-0000";

export interface SandboxInstance {
  index: number;
  url: string;
  pid: number;
}

export interface MeasuredSandbox {
  /** The front (round-robin over the instances, and the sandbox-only endpoints). */
  url: string;
  instances: SandboxInstance[];
  /** The emulator's control side, for setting up what is not measured (seeding with throttling off). */
  emulator: RemoteEmulator;
  usage(shop: string): Promise<ShopUsage>;
  stop(): Promise<void>;
}

export const BENCH_SEED = path.join(repoRoot, "tools/bench/seed.json");

/**
 * Builds and starts a sandbox; it is stopped (with its whole family of processes: front, instances,
 * emulator) when this process is interrupted, as well as by stop().
 */
export async function startMeasuredSandbox(options: {
  instances: number;
  seedFile: string;
  /** More of the sandbox's environment (its own DATABASE_URL, REDIS_URL). */
  env?: Record<string, string>;
  /** False for a caller that stops it on a signal itself, along with what else it started. */
  stopOnSignals?: boolean;
}): Promise<MeasuredSandbox> {
  console.error(`building and starting a sandbox with ${options.instances} instance(s)...`);
  const sandbox = await startSandbox({
    SANDBOX_SEED: options.seedFile,
    SANDBOX_INSTANCES: String(options.instances),
    METRICS_TOKEN,
    ...options.env,
  });
  const stopOnSignal = () => void sandbox.stop().then(() => process.exit(130));
  if (options.stopOnSignals !== false) {
    process.once("SIGINT", stopOnSignal);
    process.once("SIGTERM", stopOnSignal);
  }
  const emulatorUrl = /platform emulated at (http:\/\/[^;\s]+)/.exec(sandbox.output())?.[1];
  if (!emulatorUrl) {
    await sandbox.stop();
    throw new Error(`the sandbox did not say where its emulator is:\n${sandbox.output()}`);
  }
  const instances = (
    (await (await fetch(`${sandbox.url}/__sandbox/instances`)).json()) as { instances: SandboxInstance[] }
  ).instances;
  return {
    url: sandbox.url,
    instances,
    emulator: createRemoteEmulator(emulatorUrl),
    async usage(shop) {
      const response = await fetch(`${sandbox.url}/__sandbox/platform-usage?shop=${encodeURIComponent(shop)}`);
      return (await response.json()) as ShopUsage;
    },
    stop: async () => {
      process.off("SIGINT", stopOnSignal);
      process.off("SIGTERM", stopOnSignal);
      await sandbox.stop();
    },
  };
}

/** A proxy URL signed as the platform signs it, for any base (an instance, the front, the baseline). */
export function signed(
  base: string,
  operation: string,
  options: { shop: string; customer: string; query?: Record<string, string> },
): URL {
  return signedProxyUrl(base, `/proxy/api/${operation}`, SANDBOX_DEFAULTS.SHOPIFY_API_SECRET, {
    shop: options.shop,
    customerId: options.customer,
    query: options.query,
  });
}

/** The usage counters that grew between two readings. */
export function usageDelta(before: ShopUsage, after: ShopUsage) {
  return {
    requests: after.requests - before.requests,
    requestedPoints: after.requestedPoints - before.requestedPoints,
    actualPoints: after.actualPoints - before.actualPoints,
    throttled: after.throttledRequests - before.throttledRequests,
  };
}
