// Every admin page in each budget state, through the app's request handler as the admin loads it:
// the frame's banner (on every page), Home's requests card and the Plans page must say the same
// thing about the shop's month (issue #32 item 3).
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import db from "~/db.server";
import { clock } from "~/lib/clock";
import type { BudgetView } from "~/services/merchant-pages/budget-state";
import type { PlanKey } from "~/services/plans";
import { TEST_ENV } from "../setup/test-env";
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

interface StateSetup {
  plan: PlanKey;
  used: number;
  overage?: { capCents: number; blocks: number; pastBudget: number };
}

async function shopIn(setup: StateSetup): Promise<string> {
  const shop = await givenShop({ plan: setup.plan });
  await setMonthlyUsage(shop, setup.used, PERIOD);
  if (setup.overage) {
    const { capCents, blocks, pastBudget } = setup.overage;
    await db.overageSetting.create({ data: { shopDomain: shop, enabled: true, capCents } });
    await db.overageUsage.create({ data: { shopDomain: shop, period: PERIOD, count: pastBudget } });
    await db.overageBlock.createMany({
      data: Array.from({ length: blocks }, (_, i) => ({
        shopDomain: shop,
        period: PERIOD,
        block: i + 1,
        priceCents: 200,
        idempotencyKey: `key-${i + 1}`,
        attemptedAt: NOW,
        sentAt: NOW,
      })),
    });
  }
  return shop;
}

const states: [string, StateSetup, { kind: string; percent: number; title: string | null; says: RegExp }][] = [
  ["under budget", { plan: "starter", used: 5 }, { kind: "under", percent: 0.1, title: null, says: /turn overage on/ }],
  [
    "at 80%",
    { plan: "starter", used: 4_000 },
    { kind: "nearing", percent: 80, title: "80% of this month's request budget is used", says: /turn overage on/ },
  ],
  [
    "spent with overage off",
    { plan: "starter", used: 5_000 },
    { kind: "spent", percent: 100, title: "This month's request budget is spent", says: /refused with PLAN_LIMIT/ },
  ],
  [
    "overage serving, 2 dollars of a 20-dollar cap",
    { plan: "starter", used: 5_000, overage: { capCents: 2_000, blocks: 1, pastBudget: 300 } },
    {
      kind: "overage-serving",
      percent: 100,
      title: "Overage is serving shoppers past this month's budget",
      says: /overage is serving shoppers: 300 requests past it, \$2\.00 billed of your \$20\.00 monthly cap/,
    },
  ],
  [
    "overage cap reached",
    { plan: "starter", used: 5_000, overage: { capCents: 2_000, blocks: 10, pastBudget: 10_000 } },
    { kind: "overage-cap-reached", percent: 100, title: "Your overage cap is reached", says: /raise the cap/ },
  ],
  [
    "Free plan, spent",
    { plan: "free", used: 500 },
    { kind: "spent-no-overage", percent: 100, title: "This month's request budget is spent", says: /no overage/ },
  ],
];

describe("every admin page in each budget state", () => {
  test.each(states)("%s", async (_name, setup, expected) => {
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
