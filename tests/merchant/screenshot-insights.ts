// Builds the sandbox's Insights over real HTTP (a refresh through the page's action, the bulk
// operation run by the emulator process, its JSONL fetched from the emulator's HTTP server), then
// renders the page in Chromium and saves a screenshot under tests/.artifacts.
// Usage: CHROMIUM_PATH=/usr/bin/chromium npx tsx tests/merchant/screenshot-insights.ts
// Without the admin's App Bridge (its CDN script is blocked here) the page is its server render
// plus hydration, so the refresh is driven from here with a session token, as App Bridge would.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { RequestType, setUpValidRequest } from "@shopify/shopify-api/test-helpers";
import { chromium } from "playwright-core";
import type { InsightsActionResult } from "~/edge/admin-insights.server";
import { SANDBOX_DEFAULTS } from "../sandbox/config";
import { startSandbox } from "../sandbox/sandbox-process";

const outDir = path.resolve(import.meta.dirname, "../.artifacts");
mkdirSync(outDir, { recursive: true });
const BROWSER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";
const credentials = {
  store: "insights-demo",
  apiKey: SANDBOX_DEFAULTS.SHOPIFY_API_KEY,
  apiSecretKey: SANDBOX_DEFAULTS.SHOPIFY_API_SECRET,
};

const sandbox = await startSandbox();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || undefined,
  args: ["--no-sandbox"],
});
try {
  const post = async (fields: Record<string, string>): Promise<InsightsActionResult> => {
    const request = await setUpValidRequest(
      { type: RequestType.Bearer, ...credentials },
      new Request(new URL("/app/insights?_data=routes/app.insights", sandbox.url), {
        method: "POST",
        body: new URLSearchParams(fields),
        headers: { "User-Agent": BROWSER_AGENT },
      }),
    );
    const response = await fetch(request);
    if (!response.ok) throw new Error(`action answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as InsightsActionResult;
  };
  const started = Date.now();
  let result = await post({ intent: "refresh" });
  while (result.ok && !result.done) {
    console.log(`refresh ${result.status}: ${result.objectCount} items read`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    result = await post({ intent: "refresh-progress", operation: result.operation });
  }
  if (!result.ok) throw new Error(`refresh failed: ${result.message}`);
  console.log(`refresh done: ${result.objectCount} items in ${Date.now() - started} ms`);

  const page = await browser.newPage({ viewport: { width: 1200, height: 900 }, userAgent: BROWSER_AGENT });
  await page.route("https://cdn.shopify.com/**", (route) => route.abort());
  const open = async (store: string) => {
    const request = new Request(new URL("/app/insights", sandbox.url));
    await page.goto((await setUpValidRequest({ type: RequestType.Admin, ...credentials, store }, request)).url, {
      waitUntil: "load",
    });
    await page.waitForTimeout(500);
  };
  const save = async (name: string) => {
    const file = path.join(outDir, `${name}.png`);
    await page.screenshot({ path: file, fullPage: true });
    console.log(`saved ${file}`);
  };
  await open("insights-demo");
  await save("admin-insights");
  // The 30/90-day switch works only once the page has hydrated.
  await page.getByRole("button", { name: "90 days" }).click();
  await page.getByText("Saves per day, last 90 days").waitFor();
  await save("admin-insights-90-days");
  // A shop that has never been refreshed shows the empty state.
  await open("demo");
  await save("admin-insights-empty");
} finally {
  await browser.close();
  await sandbox.stop();
}
