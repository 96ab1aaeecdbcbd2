// Opening the embedded admin pages of a running sandbox in Chromium, as the admin's iframe opens
// them: a document request carrying a valid session token (id_token) signed with the sandbox's secret.
import type { Browser, Page } from "playwright-core";
import { SANDBOX_DEFAULTS } from "@saved-items/sandbox/config";
import { BROWSER_AGENT } from "./insights";
import { signedAdminUrl } from "./session-token";

export const ADMIN_PAGES = [
  { name: "Home", path: "/app" },
  { name: "Plans", path: "/app/plans" },
  { name: "Setup", path: "/app/setup" },
  { name: "Insights", path: "/app/insights" },
] as const;

/** A signed admin URL of `pagePath` for the seeded shop `store` (its name without .myshopify.com). */
export async function adminUrl(baseUrl: string, pagePath: string, store = "demo"): Promise<string> {
  const app = {
    shop: `${store}.myshopify.com`,
    apiKey: SANDBOX_DEFAULTS.SHOPIFY_API_KEY,
    apiSecret: SANDBOX_DEFAULTS.SHOPIFY_API_SECRET,
  };
  return signedAdminUrl(baseUrl, pagePath, app);
}

/**
 * A page as the admin's iframe would be without App Bridge: its CDN script is blocked (nothing
 * is fetched from outside), so the pages run as their server render plus hydration.
 */
export async function adminPage(browser: Browser, viewport = { width: 1200, height: 900 }): Promise<Page> {
  // The library refuses bot user agents, and headless Chromium announces itself as one.
  const page = await browser.newPage({ viewport, userAgent: BROWSER_AGENT });
  await page.route("https://cdn.shopify.com/**", (route) => route.abort());
  return page;
}

/** Resolves once React has hydrated the page: Remix's router is created by hydration. */
export const hydrated = (page: Page) =>
  page.waitForFunction(() => "__remixRouter" in window && document.readyState === "complete");
