// The Insights page in Chromium against the sandbox's seeded insights shop: a refresh over real HTTP
// (the page's action, the bulk operation run by the emulator process, its JSONL fetched from the
// emulator's HTTP server), then the page rendered and screenshotted into tests/.artifacts/.
// Without the admin's App Bridge (its CDN script is blocked here) the page is its server render plus
// hydration, so the refresh is driven from here with a session token, as App Bridge would.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { repoRoot, SANDBOX_DEFAULTS } from "@saved-items/sandbox/config";
import { startSandbox, type RunningSandbox } from "@saved-items/sandbox/sandbox-process";
import { browserMissing, browserTestTitle, CHROMIUM, CHROMIUM_ARGS } from "../support/chromium";
import { BROWSER_AGENT, runInsightsOperation } from "../support/insights";
import { withAdminSession } from "../support/session-token";

const ARTIFACTS = path.join(repoRoot, "tests/.artifacts");

describe.skipIf(browserMissing)(browserTestTitle("the Insights page in headless Chromium"), () => {
  let sandbox: RunningSandbox;
  let browser: Browser;
  let page: Page;
  const target = () => ({
    baseUrl: sandbox.url,
    apiKey: SANDBOX_DEFAULTS.SHOPIFY_API_KEY,
    apiSecret: SANDBOX_DEFAULTS.SHOPIFY_API_SECRET,
  });

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    sandbox = await startSandbox();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    page = await browser.newPage({ viewport: { width: 1200, height: 900 }, userAgent: BROWSER_AGENT });
    await page.route("https://cdn.shopify.com/**", (route) => route.abort());
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await sandbox?.stop();
  });

  async function open(store: string) {
    const app = {
      shop: `${store}.myshopify.com`,
      apiKey: SANDBOX_DEFAULTS.SHOPIFY_API_KEY,
      apiSecret: SANDBOX_DEFAULTS.SHOPIFY_API_SECRET,
    };
    const request = new Request(new URL("/app/insights", sandbox.url));
    await page.goto((await withAdminSession(request, app, "document")).url, {
      waitUntil: "load",
    });
  }
  const shot = (name: string) => page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });

  test("after a refresh over the seeded shop: the charts and tables, and the 90-day switch", async () => {
    const done = await runInsightsOperation(target(), "insights-demo.myshopify.com", "refresh");
    expect(done.objectCount).toBeGreaterThanOrEqual(10_000);
    await open("insights-demo");
    await page.getByText("Saves per day, last 30 days").waitFor();
    expect(await page.locator("svg rect").count()).toBeGreaterThan(0);
    await shot("admin-insights");
    // The switch works only once the page has hydrated.
    await page.getByRole("button", { name: "90 days" }).click();
    await page.getByText("Saves per day, last 90 days").waitFor();
    await shot("admin-insights-90-days");
  }, 120_000);

  test("a shop never refreshed shows the empty state", async () => {
    await open("demo");
    await page.getByText("No insights yet").waitFor();
    expect(await page.getByRole("button", { name: "Build insights" }).count()).toBe(1);
    await shot("admin-insights-empty");
  }, 60_000);
});
