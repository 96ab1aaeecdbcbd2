// Every embedded admin page in Chromium, checked with axe-core against WCAG 2.1 AA, the rules the
// platform's review applies: 0 violations, each listed with its nodes when there is one. Desktop
// and phone widths, since a code block or a table scrolls only when the page is narrow enough.
// Then Home's theme status, without App Bridge (as in the sandbox) and with its app.extensions()
// stubbed as the admin would answer it.
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startSandbox, type RunningSandbox } from "@saved-items/sandbox/sandbox-process";
import { SANDBOX_DEFAULTS } from "@saved-items/sandbox/config";
import { runInsightsOperation } from "../support/insights";
import { ADMIN_PAGES, adminPage, adminUrl, hydrated } from "../support/admin-browser";
import { axeViolations } from "../support/axe";
import { browserMissing, browserTestTitle, CHROMIUM, CHROMIUM_ARGS } from "../support/chromium";

const VIEWPORTS = [
  { name: "desktop", width: 1200, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

describe.skipIf(browserMissing)(browserTestTitle("the admin pages against WCAG 2.1 AA (axe-core, Chromium)"), () => {
  let sandbox: RunningSandbox;
  let browser: Browser;

  beforeAll(async () => {
    sandbox = await startSandbox();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    // The Insights page with figures (charts, tables) as well as its empty state.
    await runInsightsOperation(
      {
        baseUrl: sandbox.url,
        apiKey: SANDBOX_DEFAULTS.SHOPIFY_API_KEY,
        apiSecret: SANDBOX_DEFAULTS.SHOPIFY_API_SECRET,
      },
      "insights-demo.myshopify.com",
      "refresh",
    );
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await sandbox?.stop();
  });

  const cases = [
    ...ADMIN_PAGES.map((page) => ({ ...page, store: "demo" })),
    { name: "Insights with figures", path: "/app/insights", store: "insights-demo" },
  ];
  for (const viewport of VIEWPORTS) {
    test.each(cases)(
      `$name ($path, $store) at ${viewport.name} width: titled, 0 violations`,
      async ({ path, store }) => {
        const page = await adminPage(browser, viewport);
        try {
          await page.goto(await adminUrl(sandbox.url, path, store), { waitUntil: "load" });
          await hydrated(page);
          expect(await page.title()).toMatch(/Saved Items$/);
          expect(await axeViolations(page)).toEqual([]);
        } finally {
          await page.close();
        }
      },
      60_000,
    );
  }

  /** The badge beside an item's heading; Polaris puts its tone first, for screen readers only, on a line of its own. */
  const statusOf = async (page: Page, name: string) =>
    (await page.getByRole("heading", { name, exact: true }).locator("xpath=following-sibling::*[1]").innerText())
      .split("\n")
      .at(-1);

  test("Home without App Bridge: each theme item's status is unknown here, with its link to the theme editor", async () => {
    const page = await adminPage(browser);
    try {
      await page.goto(await adminUrl(sandbox.url, "/app"), { waitUntil: "load" });
      await page.getByText("Unknown here").first().waitFor();
      for (const name of ["Saved items: card hearts", "Save button", "Saved items"])
        expect(await statusOf(page, name)).toBe("Unknown here");
      const enable = page.getByRole("link", { name: "Enable in the theme editor: Saved items: card hearts" });
      expect(new URL((await enable.getAttribute("href"))!).searchParams.get("activateAppId")).toBe(
        `${SANDBOX_DEFAULTS.SHOPIFY_API_KEY}/saved-items-embed`,
      );
    } finally {
      await page.close();
    }
  }, 60_000);

  /** App Bridge's global as the admin provides it, answering `statuses` by handle, before any script of the page runs. */
  const stubAppBridge = (page: Page, statuses: Record<string, string>) =>
    page.addInitScript((byHandle) => {
      const activations = Object.entries(byHandle).map(([handle, status]) => ({
        handle,
        name: handle,
        target: handle === "saved-items-embed" ? "body" : "section",
        status,
        activations: [],
      }));
      Object.assign(window, {
        shopify: {
          app: { extensions: async () => [{ handle: "saved-items", type: "theme_app_extension", activations }] },
        },
      });
    }, statuses);

  test("Home with app.extensions() answering: enabled and not enabled as reported, the link only where not", async () => {
    const page = await adminPage(browser);
    try {
      await stubAppBridge(page, {
        "saved-items-embed": "active",
        "save-button": "available",
        "saved-items": "unavailable",
      });
      await page.goto(await adminUrl(sandbox.url, "/app"), { waitUntil: "load" });
      await page.getByText("Not added").waitFor();
      expect(await statusOf(page, "Saved items: card hearts")).toBe("Enabled");
      expect(await statusOf(page, "Save button")).toBe("Not added");
      expect(await statusOf(page, "Saved items")).toBe("Not supported by the theme");
      expect(await page.getByRole("link", { name: /^Enable in the theme editor/ }).count()).toBe(0);
      expect(await page.getByRole("link", { name: "Add in the theme editor: Save button" }).count()).toBe(1);
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await page.close();
    }
  }, 60_000);

  test("Home with the embed reported available: not enabled, with its link; an item not reported stays unknown", async () => {
    const page = await adminPage(browser);
    try {
      await stubAppBridge(page, { "saved-items-embed": "available" });
      await page.goto(await adminUrl(sandbox.url, "/app"), { waitUntil: "load" });
      await page.getByText("Not enabled").waitFor();
      expect(await statusOf(page, "Saved items: card hearts")).toBe("Not enabled");
      expect(await statusOf(page, "Save button")).toBe("Unknown");
      expect(
        await page.getByRole("link", { name: "Enable in the theme editor: Saved items: card hearts" }).count(),
      ).toBe(1);
    } finally {
      await page.close();
    }
  }, 60_000);
});
