// Every admin page in each budget state, through the app's request handler as the admin loads it:
// the frame's banner (on every page), Home's requests card and the Plans page must say the same
// thing about the shop's month (issue #32 item 3).
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import db from "~/db.server";
import { clock } from "~/lib/clock";
import type { BudgetView } from "~/services/merchant-pages/budget-state";
import { TEST_ENV } from "../support/test-env";
import { BUDGET_STATES, recordOverage, type BudgetStateSetup } from "../support/budget-states";
import { APP_URL, givenShop, sendToApp, setMonthlyUsage } from "../support/app";
import { BROWSER_AGENT } from "../support/insights";
import { withAdminSession } from "../support/session-token";

const NOW = new Date("2026-11-20T10:00:00Z");
const PERIOD = "2026-11";

beforeEach(() => {
  vi.spyOn(clock, "now").mockReturnValue(NOW);
});
afterEach(() => vi.restoreAllMocks());

/** A route's loader data, as the admin's router asks for it on the page's URL. */
async function loaderData(shop: string, pagePath: string, routeId: string): Promise<any> {
  const url = new URL(pagePath, APP_URL);
  url.searchParams.set("_data", routeId);
  const request = await withAdminSession(
    new Request(url, { headers: { "User-Agent": BROWSER_AGENT } }),
    { shop, apiKey: TEST_ENV.SHOPIFY_API_KEY, apiSecret: TEST_ENV.SHOPIFY_API_SECRET },
    "bearer",
  );
  const response = await sendToApp(request);
  expect(response.status, `${pagePath} ${routeId}`).toBe(200);
  return response.json();
}

/** What each admin page says about the budget: the frame's banner on all four, Home's card, Plans' card. */
async function pagesOf(shop: string) {
  const frames = await Promise.all(
    ["/app", "/app/setup", "/app/insights", "/app/plans"].map((page) => loaderData(shop, page, "routes/app")),
  );
  const home = await loaderData(shop, "/app", "routes/app._index");
  const plans = await loaderData(shop, "/app/plans", "routes/app.plans");
  return {
    banners: frames.map((frame) => (frame.budget as BudgetView).banner),
    home: home.usage as BudgetView,
    plans: plans.usage.budget as BudgetView,
  };
}

async function shopIn({ plan, used, overage }: BudgetStateSetup): Promise<string> {
  const shop = await givenShop({ plan });
  await setMonthlyUsage(shop, used, PERIOD);
  if (overage) await recordOverage(db, shop, overage, PERIOD, NOW);
  return shop;
}

describe("every admin page in each budget state", () => {
  test.each(BUDGET_STATES)("$name", async ({ setup, expected }) => {
    const shop = await shopIn(setup);
    const { banners, home, plans } = await pagesOf(shop);
    for (const banner of banners) expect(banner?.title ?? null).toBe(expected.title);
    expect(new Set(banners.map((banner) => JSON.stringify(banner))).size).toBe(1);
    for (const view of [home, plans]) {
      expect(view).toMatchObject({ kind: expected.kind, percentUsed: expected.percent });
      expect(view.summary).toMatch(expected.says);
    }
    // The same percentage and the same words on Home and Plans.
    expect(home.summary).toBe(plans.summary);
    if (expected.kind === "overage-serving") {
      const said = [banners[0]!.title, banners[0]!.body, home.summary].join(" ");
      expect(said).not.toMatch(/refused|turn overage on|PLAN_LIMIT_REACHED/i);
      expect(banners[0]!.tone).toBe("info");
    }
    if (expected.kind === "overage-cap-reached") {
      expect(banners[0]!.action).toEqual({ content: "Raise the cap", url: "/app/plans#overage" });
    }
  });
});
