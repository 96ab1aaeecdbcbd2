// What every section of `npm run bench:storefront` shares: one sandbox, one Debian Chromium that
// Lighthouse and playwright-core both drive over the DevTools protocol, and Lighthouse runs taken
// as medians. A section is a function of BrowserBench that prints its own table (storefront.ts).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import lighthouse, { type Flags, type Result } from "lighthouse";
import { chromium, type Browser } from "playwright-core";
import { SANDBOX_DEFAULTS } from "@saved-items/sandbox/config";
import { CHROMIUM, CHROMIUM_ARGS } from "../../../tests/support/chromium";
import { startMeasuredSandbox, type MeasuredSandbox } from "../sandbox";

export interface LaunchedChromium {
  /** The DevTools port, which Lighthouse connects to. */
  port: number;
  /** The same browser under playwright-core: logging in, clearing storage, reading pages. */
  browser: Browser;
  close(): Promise<void>;
}

/** Debian's Chromium with a fresh profile, its DevTools protocol on a free loopback port. */
export async function launchChromium(): Promise<LaunchedChromium> {
  const profile = mkdtempSync(path.join(tmpdir(), "saved-items-bench-chromium-"));
  const child = spawn(
    CHROMIUM,
    [
      ...CHROMIUM_ARGS,
      "--remote-debugging-address=127.0.0.1",
      "--remote-debugging-port=0",
      `--user-data-dir=${profile}`,
      "about:blank",
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  const endpoint = await new Promise<string>((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`Chromium did not start:\n${output}`)), 30_000);
    child.stderr!.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
      const found = /DevTools listening on (ws:\/\/\S+)/.exec(output);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`Chromium exited with ${code}:\n${output}`));
    });
  });
  const browser = await chromium.connectOverCDP(endpoint, { timeout: 120_000 });
  return {
    port: Number(new URL(endpoint).port),
    browser,
    async close() {
      await browser.close().catch(() => undefined);
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** What a section needs: the sandbox, the browser, how many Lighthouse runs a median takes. */
export interface BrowserBench {
  sandbox: MeasuredSandbox;
  chromium: LaunchedChromium;
  runs: number;
}

/** Starts the sandbox (the example seed: demo.myshopify.com, customers 1001 and 1002) and the browser. */
export async function startBrowserBench(runs: number): Promise<BrowserBench & { stop(): Promise<void> }> {
  const sandbox = await startMeasuredSandbox({ instances: 1, seedFile: SANDBOX_DEFAULTS.SANDBOX_SEED });
  let browser: LaunchedChromium;
  try {
    browser = await launchChromium();
  } catch (error) {
    await sandbox.stop();
    throw error;
  }
  return {
    sandbox,
    chromium: browser,
    runs,
    async stop() {
      await browser.close();
      await sandbox.stop();
    },
  };
}

/**
 * One Lighthouse run of `url` in the shared browser: performance only, the default simulated
 * mobile throttling, cold caches (Lighthouse clears them; cookies and localStorage stay).
 */
export async function runLighthouse(port: number, url: string, flags: Flags = {}): Promise<Result> {
  const result = await lighthouse(url, {
    port,
    output: "json",
    logLevel: "error",
    onlyCategories: ["performance"],
    ...flags,
  });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { runtimeError } = result.lhr;
  if (runtimeError) throw new Error(`Lighthouse on ${url}: ${runtimeError.code} ${runtimeError.message}`);
  return result.lhr;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Each figure's median over the results (each figure on its own, as Lighthouse CI takes metrics' medians). */
export function medians<K extends string>(results: Record<K, number>[]): Record<K, number> {
  const keys = Object.keys(results[0]!) as K[];
  return Object.fromEntries(keys.map((key) => [key, median(results.map((result) => result[key]))])) as Record<
    K,
    number
  >;
}

/** The medians of `runs` measurements taken one after another. */
export async function medianOf<K extends string>(
  runs: number,
  measure: (run: number) => Promise<Record<K, number>>,
): Promise<Record<K, number>> {
  const results: Record<K, number>[] = [];
  for (let run = 0; run < runs; run += 1) results.push(await measure(run));
  return medians(results);
}
