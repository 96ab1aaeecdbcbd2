// Renders the embedded admin pages from the sandbox in a real browser and saves screenshots.
// Usage: CHROMIUM_PATH=/usr/bin/chromium npx tsx tools/admin-screenshots/screenshot-admin.ts
// Outside the admin there is no App Bridge (its CDN script is blocked here), so the pages are
// shown as their server render plus hydration, without the admin's frame around them.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { chromium } from "playwright-core";
import { SANDBOX_DEFAULTS } from "@saved-items/sandbox/config";
import { startSandbox } from "@saved-items/sandbox/sandbox-process";
import { signedProxyUrl } from "@saved-items/sandbox/proxy-signature";
import { adminUrl } from "../../tests/support/admin-browser";

const outDir = path.join(import.meta.dirname, "screenshots");
mkdirSync(outDir, { recursive: true });
const sandbox = await startSandbox();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || undefined,
  args: ["--no-sandbox"],
});
try {
  // A little usage, so Home's progress bar has something to show.
  for (const id of [1, 2, 3]) {
    const url = signedProxyUrl(sandbox.url, "/proxy/api/save", SANDBOX_DEFAULTS.SHOPIFY_API_SECRET, {
      shop: "demo.myshopify.com",
      customerId: "1001",
    });
    await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        context: "wishlist",
        entityType: "product",
        entityGid: `gid://shopify/Product/${id}`,
        source: "screenshot",
      }),
    });
  }
  // The library refuses bot user agents, and headless Chromium announces itself as one.
  const page = await browser.newPage({
    viewport: { width: 1200, height: 900 },
    userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36",
  });
  await page.route("https://cdn.shopify.com/**", (route) => route.abort());
  for (const [name, pagePath] of [
    ["admin-home", "/app"],
    ["admin-plans", "/app/plans"],
    ["admin-setup", "/app/setup"],
  ] as const) {
    await page.goto(await adminUrl(sandbox.url, pagePath), { waitUntil: "load" });
    await page.waitForTimeout(500);
    await page.screenshot({ path: path.join(outDir, `${name}.png`), fullPage: true });
    console.log(`saved ${path.join(outDir, `${name}.png`)}`);
  }
} finally {
  await browser.close();
  await sandbox.stop();
}
