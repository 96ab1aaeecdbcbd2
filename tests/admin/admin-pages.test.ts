import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parse } from "smol-toml";
import { afterEach, describe, expect, test, vi } from "vitest";
import db from "~/db.server";
import { clock } from "~/lib/clock";
import { loader as appLoader } from "~/routes/app";
import { loader as homeLoader } from "~/routes/app._index";
import { loader as plansLoader } from "~/routes/app.plans";
import { loader as setupLoader } from "~/routes/app.setup";
import { PAGE_LOAD_WINDOW_MS } from "~/services/billing/plan-refresh.server";
import { APP_HANDLE } from "~/services/billing/pricing-page";
import { PLAN_KEYS, PLANS } from "~/services/plans";
import { writeStoredInsights } from "~/services/records/insights.server";
import { themeItems } from "~/services/merchant-pages/theme-extension";
import { offlineAdminClient } from "~/platform/admin-graphql.server";
import { TEST_ENV } from "../support/test-env";
import { adminRequest, deliverWebhook, loadAdmin } from "../support/admin";
import { givenShop } from "../support/app";
import { emulator } from "../support/platform";

afterEach(() => vi.restoreAllMocks());

describe("admin pages, loaded with a valid admin session", () => {
  test("a request without a session token never reaches the loader's data", async () => {
    const shop = await givenShop();
    const response = await homeLoader({
      request: new Request(`${TEST_ENV.SHOPIFY_APP_URL}/app?shop=${shop}`),
      params: {},
      context: {},
    }).catch((thrown: unknown) => thrown);
    expect(response).toBeInstanceOf(Response);
    expect((response as Response).status).toBe(302);
  });

  test("the app frame: API key for App Bridge and the refreshed plan", async () => {
    const shop = await givenShop({ plan: "free" });
    emulator.setPlan(shop, "starter");
    expect(await loadAdmin(appLoader, "/app", shop)).toEqual({
      apiKey: TEST_ENV.SHOPIFY_API_KEY,
      shop,
      plan: "starter",
      budget: expect.objectContaining({ kind: "under", banner: null }),
    });
  });

  test("Home: the plan and what it includes, this month's usage against the budget, when it resets, the channels", async () => {
    const shop = await givenShop({ plan: "pro" });
    vi.spyOn(clock, "now").mockReturnValue(new Date("2026-11-15T10:00:00Z"));
    await db.usageCounter.create({ data: { shopDomain: shop, period: "2026-11", count: 12_345 } });
    await db.usageCounter.create({ data: { shopDomain: shop, period: "2026-10", count: 49_000 } });

    const home = await loadAdmin(homeLoader, "/app", shop);

    expect(home).toEqual({
      shop,
      plan: {
        key: "pro",
        name: "Pro",
        monthlyRequests: 50_000,
        maxBatchOperations: 50,
        channels: ["online-store", "customer-account", "point-of-sale"],
        features: [
          "50,000 requests a month",
          "Batch requests of up to 50 operations",
          "Channels: Online Store, Customer account, Point of Sale",
        ],
      },
      usage: expect.objectContaining({
        period: "2026-11",
        kind: "under",
        used: 12_345,
        budget: 50_000,
        percentUsed: 24.6,
        resetsAt: "2026-12-01T00:00:00.000Z",
      }),
      channels: [
        { channel: "online-store", label: "Online Store", enabled: true, requiredPlan: "Free" },
        { channel: "customer-account", label: "Customer account", enabled: true, requiredPlan: "Pro" },
        { channel: "headless", label: "Headless", enabled: false, requiredPlan: "Scale" },
        { channel: "point-of-sale", label: "Point of Sale", enabled: true, requiredPlan: "Pro" },
      ],
      figures: null,
      themeItems: expect.any(Array),
    });
  });

  test("Home: the theme embed's and blocks' deep links into the theme editor, one per item", async () => {
    const shop = await givenShop();
    const { themeItems } = await loadAdmin(homeLoader, "/app", shop);
    const links = themeItems.map(({ handle, kind, editorUrl }) => {
      const url = new URL(editorUrl);
      return { handle, kind, at: `${url.origin}${url.pathname}`, query: Object.fromEntries(url.searchParams) };
    });
    const at = `https://${shop}/admin/themes/current/editor`;
    const key = TEST_ENV.SHOPIFY_API_KEY;
    expect(links).toEqual([
      {
        handle: "saved-items-embed",
        kind: "embed",
        at,
        query: { context: "apps", activateAppId: `${key}/saved-items-embed` },
      },
      {
        handle: "save-button",
        kind: "block",
        at,
        query: { template: "product", addAppBlockId: `${key}/save-button`, target: "mainSection" },
      },
      {
        handle: "saved-items",
        kind: "block",
        at,
        query: { template: "index", addAppBlockId: `${key}/saved-items`, target: "newAppsSection" },
      },
      {
        handle: "saved-by",
        kind: "block",
        at,
        query: { template: "product", addAppBlockId: `${key}/saved-by`, target: "mainSection" },
      },
      {
        handle: "save-for-later",
        kind: "block",
        at,
        query: { template: "cart", addAppBlockId: `${key}/save-for-later`, target: "mainSection" },
      },
    ]);
  });

  test("Home's theme items are the extension's: each handle a block file, each name its schema's, the embed the only body target", () => {
    const blocksDir = path.resolve(import.meta.dirname, "../../extensions/saved-items-theme/blocks");
    const schemas = new Map(
      readdirSync(blocksDir).map((file) => {
        const liquid = readFileSync(path.join(blocksDir, file), "utf8");
        const schema = JSON.parse(liquid.split("{% schema %}")[1]!.split("{% endschema %}")[0]!) as {
          name: string;
          target: string;
        };
        return [file.replace(/\.liquid$/, ""), schema];
      }),
    );
    const items = themeItems("demo.myshopify.com", "key");
    expect(items.map((item) => item.handle).sort()).toEqual([...schemas.keys()].sort());
    for (const item of items) {
      const schema = schemas.get(item.handle)!;
      expect(schema.name).toBe(item.name);
      expect(schema.target === "section" ? "block" : "embed").toBe(item.kind);
    }
  });

  test("Home's key figures: those of the last Insights refresh, none before one", async () => {
    const shop = await givenShop({ plan: "pro" });
    expect((await loadAdmin(homeLoader, "/app", shop)).figures).toBeNull();
    const savesPerDay = Array.from({ length: 35 }, (_, index) => ({
      date: `day-${index}`,
      saves: index < 5 ? 100 : 2,
    }));
    await writeStoredInsights(offlineAdminClient(shop), {
      summary: {
        computedAt: "2026-11-20T15:30:00.000Z",
        operation: "gid://shopify/BulkOperation/1",
        totalItems: 400,
        activeItems: 321,
        activeShoppers: 45,
        savesPerDay,
        topProducts: [],
        topVariants: [],
        week: { thisWeek: 14, lastWeek: 9, top: [] },
      },
    });
    expect((await loadAdmin(homeLoader, "/app", shop)).figures).toEqual({
      asOf: "2026-11-20T15:30:00.000Z",
      activeShoppers: 45,
      activeItems: 321,
      savesLast30Days: 60,
      savesThisWeek: 14,
    });
  });

  test("Home shows the plan the shop pays for now, and a spent budget as 100%", async () => {
    const shop = await givenShop({ plan: "scale" });
    emulator.setPlan(shop, "free");
    await db.usageCounter.create({
      data: { shopDomain: shop, period: new Date().toISOString().slice(0, 7), count: 500 },
    });
    const home = await loadAdmin(homeLoader, "/app", shop);
    expect(home.plan.key).toBe("free");
    expect(home.plan.features[1]).toBe("Batch requests: not included");
    expect(home.usage).toMatchObject({ used: 500, budget: 500, percentUsed: 100 });
    expect(home.channels.filter((channel) => channel.enabled).map((channel) => channel.channel)).toEqual([
      "online-store",
    ]);
  });

  test("Plans: the four plans side by side from PLANS, each with an upgrade or downgrade to the platform's plan page", async () => {
    const shop = await givenShop({ plan: "pro" });
    const plans = await loadAdmin(plansLoader, "/app/plans", shop);
    expect(plans.currentPlan).toBe("pro");
    expect(plans.pricingPlansUrl).toBe("https://admin.shopify.com/store/demo/charges/saved-items/pricing_plans");
    expect(plans.plans.map((plan) => [plan.key, plan.change])).toEqual([
      ["free", "downgrade"],
      ["starter", "downgrade"],
      ["pro", "current"],
      ["scale", "upgrade"],
    ]);
    for (const plan of plans.plans) {
      expect(plan).toMatchObject({
        name: PLANS[plan.key].name,
        monthlyRequests: PLANS[plan.key].monthlyRequests,
        maxBatchOperations: PLANS[plan.key].maxBatchOperations,
        channels: [...PLANS[plan.key].channels],
      });
    }
    expect(plans.plans).toHaveLength(PLAN_KEYS.length);
  });

  test("the plan page is addressed by the app handle of shopify.app.toml", () => {
    const toml = parse(readFileSync(path.resolve(import.meta.dirname, "../../shopify.app.toml"), "utf8")) as {
      handle: string;
    };
    expect(APP_HANDLE).toBe(toml.handle);
  });

  test("Setup on Free: the theme editor deep link; the direct channels name the plan they need", async () => {
    const shop = await givenShop({ plan: "free" });
    const setup = await loadAdmin(setupLoader, "/app/setup", shop);
    const editor = new URL(setup.themeEditorUrl);
    expect(`${editor.origin}${editor.pathname}`).toBe(`https://${shop}/admin/themes/current/editor`);
    expect(Object.fromEntries(editor.searchParams)).toEqual({
      template: "product",
      addAppBlockId: `${TEST_ENV.SHOPIFY_API_KEY}/save-button`,
      target: "mainSection",
    });
    expect(setup.customerAccount).toEqual({ enabled: false, requiredPlan: "Pro" });
    expect(setup.headless).toEqual({ enabled: false, requiredPlan: "Scale" });
  });

  test("Setup on Pro: customer-account instructions; on Scale: headless too, with this deployment's URLs", async () => {
    const pro = await givenShop({ plan: "pro" });
    const proSetup = await loadAdmin(setupLoader, "/app/setup", pro);
    expect(proSetup.customerAccount.enabled).toBe(true);
    expect(proSetup.headless).toEqual({ enabled: false, requiredPlan: "Scale" });

    const scale = await givenShop({ domain: "big.myshopify.com", plan: "scale" });
    const setup = await loadAdmin(setupLoader, "/app/setup", scale);
    if (!setup.headless.enabled || !setup.customerAccount.enabled) throw new Error("expected both guides");
    const headless = setup.headless.examples.map((example) => example.code).join("\n");
    expect(headless).toContain(`${TEST_ENV.SHOPIFY_APP_URL}/api/headless/auth/exchange`);
    expect(headless).toContain(`"shop":"${scale}"`);
    expect(headless).toContain(`${TEST_ENV.SHOPIFY_APP_URL}/api/headless/save`);
    const customerAccount = setup.customerAccount.examples[0]!.code;
    expect(customerAccount).toContain("shopify.sessionToken.get()");
    expect(customerAccount).toContain(`${TEST_ENV.SHOPIFY_APP_URL}/api/customer-account/auth/exchange`);
    expect(customerAccount).toContain("Authorization: data.authorization");
  });

  test("one page load refreshes the plan once, however many loaders run for it", async () => {
    const shop = await givenShop({ plan: "starter" });
    emulator.clearRequests();
    const [request, child] = await Promise.all([adminRequest("/app", shop), adminRequest("/app", shop)]);
    await Promise.all([
      appLoader({ request, params: {}, context: {} }),
      homeLoader({ request: child, params: {}, context: {} }),
    ]);
    expect(subscriptionReads()).toBe(1);
  });

  test("a loader of the same page load that starts after the first refresh settled reuses it", async () => {
    const shop = await givenShop({ plan: "starter" });
    emulator.clearRequests();
    await loadAdmin(appLoader, "/app", shop);
    await loadAdmin(homeLoader, "/app", shop);
    expect(subscriptionReads()).toBe(1);
  });

  test("past the page-load window, or on the subscription webhook, the plan is read again", async () => {
    const shop = await givenShop({ plan: "starter" });
    emulator.clearRequests();
    await loadAdmin(appLoader, "/app", shop);
    emulator.setPlan(shop, "pro");
    expect((await deliverWebhook("app_subscriptions/update", { shop })).status).toBe(200);
    expect(subscriptionReads()).toBe(2);

    emulator.setPlan(shop, "scale");
    const settled = Date.now();
    vi.spyOn(Date, "now").mockReturnValue(settled + PAGE_LOAD_WINDOW_MS);
    expect(await loadAdmin(appLoader, "/app", shop)).toMatchObject({ plan: "scale" });
    expect(subscriptionReads()).toBe(3);
  });
});

const subscriptionReads = () =>
  emulator.requests.filter((entry) => entry.operationName === "SavedItemsBillingCurrentSubscriptions").length;
