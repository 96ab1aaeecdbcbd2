// Debian's Chromium, as every browser test and benchmark launches it (test tools cannot download
// their own browser here; `npm run setup:browser` installs it).
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { startSandbox } from "@saved-items/sandbox/sandbox-process";

export const CHROMIUM = "/usr/bin/chromium";

// The network is closed here: no background traffic, no sandbox (we run as root), no GPU.
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Why the browser tests cannot run here, or undefined when they can. */
export const browserMissing: string | undefined =
  process.env.SKIP_BROWSER_TESTS === "1"
    ? "SKIP_BROWSER_TESTS=1"
    : existsSync(CHROMIUM)
      ? undefined
      : `no Chromium at ${CHROMIUM} (npm run setup:browser)`;

/** A browser test's title, with the reason it is skipped where it is. */
export const browserTestTitle = (title: string) => (browserMissing ? `${title} (skipped: ${browserMissing})` : title);

/** Chromium on a new empty profile, browsing `baseURL` as the storefront tests do; close() removes the profile. */
export async function openBrowser(baseURL: string) {
  const userDataDir = mkdtempSync(path.join(tmpdir(), "saved-items-chromium-"));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    baseURL,
    viewport: { width: 1100, height: 800 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(10_000);
  return {
    context,
    page,
    close: async () => {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** The sandbox (started with `env`, built once a run) and Chromium browsing it; close() stops both. */
export async function openSandboxBrowser(env?: Record<string, string>) {
  const sandbox = await startSandbox(env);
  const browser = await openBrowser(sandbox.url).catch(async (error: unknown) => {
    await sandbox.stop();
    throw error;
  });
  return {
    ...browser,
    sandbox,
    close: async () => {
      await browser.close();
      await sandbox.stop();
    },
  };
}

/** A refusal from the app, as a page route fulfils it: the service's error envelope with its status. */
export function refusal(status: number, code: string, message: string, retryable: boolean) {
  return {
    status,
    contentType: "application/json",
    body: JSON.stringify({ ok: false, error: { code, message, retryable } }),
  };
}
