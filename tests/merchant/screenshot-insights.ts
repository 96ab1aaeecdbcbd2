// Builds the sandbox's Insights over real HTTP (a refresh through the page's action, the bulk
// operation run by the emulator process, its JSONL fetched from the emulator's HTTP server), then
// renders the page in Chromium and saves screenshots under tests/.artifacts.
// Usage: CHROMIUM_PATH=/usr/bin/chromium npx tsx tests/merchant/screenshot-insights.ts
// Without the admin's App Bridge (its CDN script is blocked here) the page is its server render
// plus hydration, so the refresh is driven from here with a session token, as App Bridge would.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { RequestType, setUpValidRequest } from "@shopify/shopify-api/test-helpers";
import { chromium } from "playwright-core";
import { SANDBOX_DEFAULTS } from "../sandbox/config";
import { startSandbox } from "../sandbox/sandbox-process";
import { BROWSER_AGENT, runInsightsOperation } from "../support/insights";

const outDir = path.resolve(import.meta.dirname, "../.artifacts");
mkdirSync(outDir, { recursive: true });

const sandbox = await startSandbox();
const target = {
  baseUrl: sandbox.url,
  apiKey: SANDBOX_DEFAULTS.SHOPIFY_API_KEY,
  apiSecret: SANDBOX_DEFAULTS.SHOPIFY_API_SECRET,
};
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || undefined,
  args: ["--no-sandbox"],
});
try {
  const started = Date.now();
  const done = await runInsightsOperation(target, "insights-demo.myshopify.com", "refresh", (progress) =>
    console.log(`refresh ${progress.status}: ${progress.objectCount} items read`),
  );
  console.log(`refresh done: ${done.objectCount} items in ${Date.now() - started} ms`);

  const page = await browser.newPage({ viewport: { width: 1200, height: 900 }, userAgent: BROWSER_AGENT });
  await page.route("https://cdn.shopify.com/**", (route) => route.abort());
  const open = async (store: string) => {
    const credentials = { store, apiKey: target.apiKey, apiSecretKey: target.apiSecret };
    const request = new Request(new URL("/app/insights", sandbox.url));
    await page.goto((await setUpValidRequest({ type: RequestType.Admin, ...credentials }, request)).url, {
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
