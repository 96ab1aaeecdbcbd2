import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { SANDBOX_DEFAULTS } from "@saved-items/sandbox/config";
import { callSandboxProxy, type SandboxProxyCall } from "@saved-items/sandbox/proxy-client";
import { startSandbox, type RunningSandbox } from "@saved-items/sandbox/sandbox-process";
import { adminRequest, signedWebhook, type AppTarget } from "../support/admin";
import { BROWSER_AGENT, runInsightsOperation } from "../support/insights";
import { generateSavedItems } from "@saved-items/sandbox/saved-items-seed";
import { loadSeed } from "@saved-items/sandbox/seed";

// The merchant-facing paths over real HTTP against the production build, signed the way the
// platform signs them, with the sandbox's own secret.
let sandbox: RunningSandbox;
let target: AppTarget;
beforeAll(async () => {
  sandbox = await startSandbox();
  target = {
    baseUrl: sandbox.url,
    apiKey: SANDBOX_DEFAULTS.SHOPIFY_API_KEY,
    apiSecret: SANDBOX_DEFAULTS.SHOPIFY_API_SECRET,
  };
}, 300_000);
afterAll(async () => {
  await sandbox?.stop();
});

const proxy = (path: string, shop: string, customer: string, init: SandboxProxyCall = {}) =>
  callSandboxProxy(sandbox.url, path, { ...init, shop, customer });

const deliver = (topic: string, shop: string, payload: unknown, secret = SANDBOX_DEFAULTS.SHOPIFY_API_SECRET) =>
  fetch(signedWebhook(topic, { shop, payload, secret, baseUrl: sandbox.url }));

const item = (entityGid: string) => ({ context: "wishlist", entityType: "product", entityGid, source: "sandbox-test" });
// The library answers bot user agents (Node's fetch is one) with 410 before authenticating.
const BROWSER = {
  "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36",
};

describe("the sandbox, over real HTTP", () => {
  test("the admin home renders the seeded plan, read from the emulated subscription", async () => {
    const response = await fetch(await adminRequest("/app", "demo.myshopify.com", target), { headers: BROWSER });
    expect(response.status).toBe(200);
    const html = await response.text();
    // React separates text nodes with <!-- --> in server-rendered HTML.
    expect(html).toMatch(/Scale(<!-- -->)? plan/);
    expect(html).toContain("Requests this month");
  });

  test("app_subscriptions/update re-reads the seeded plan", async () => {
    const response = await deliver("app_subscriptions/update", "free-demo.myshopify.com", {
      app_subscription: { name: "Scale", status: "ACTIVE", plan_handle: "scale" },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ plan: "free", source: "platform" });
  });

  test("customers/redact removes that customer's saved items, as the proxy then shows", async () => {
    const shop = "demo.myshopify.com";
    expect((await proxy("/proxy/api/save", shop, "1001", { body: item("gid://shopify/Product/900") })).status).toBe(
      200,
    );
    expect((await proxy("/proxy/api/save", shop, "1002", { body: item("gid://shopify/Product/901") })).status).toBe(
      200,
    );
    expect((await deliver("customers/redact", shop, { customer: { id: 1001 } }, "wrong-secret")).status).toBe(401);
    // A redaction comes days after the customer's request; the sandbox's search index sees a write
    // 250 ms late (as the platform's does, later still), and the redaction finds items by search.
    await new Promise((resolve) => setTimeout(resolve, 500));

    const response = await deliver("customers/redact", shop, { shop_domain: shop, customer: { id: 1001 } });
    expect(response.status).toBe(200);

    const alice = await proxy("/proxy/api/list", shop, "1001", { query: { context: "wishlist" } });
    expect(alice.body.data.items).toEqual([]);
    const bob = await proxy("/proxy/api/list", shop, "1002", { query: { context: "wishlist" } });
    expect(bob.body.data.items.map((entry: { entityGid: string }) => entry.entityGid)).toContain(
      "gid://shopify/Product/901",
    );
  });

  test("app/uninstalled makes the proxy answer SHOP_NOT_INSTALLED", async () => {
    const shop = "free-demo.myshopify.com";
    expect((await proxy("/proxy/api/list", shop, "2001", { query: { context: "wishlist" } })).status).toBe(200);
    expect((await deliver("app/uninstalled", shop, { domain: shop })).status).toBe(200);
    const after = await proxy("/proxy/api/list", shop, "2001", { query: { context: "wishlist" } });
    expect(after.status).toBe(403);
    expect(after.body.error.code).toBe("SHOP_NOT_INSTALLED");
  });
});

describe("the plan page, emulated on the sandbox's own origin, over real HTTP", () => {
  const PLAN_PAGE = (store: string) =>
    `/__sandbox/platform/admin.shopify.com/store/${store}/charges/saved-items/pricing_plans`;
  const open = (path: string, init: RequestInit = {}) =>
    fetch(new URL(path, sandbox.url), { redirect: "manual", ...init, headers: { ...BROWSER, ...init.headers } });
  const decide = (path: string, decision: "approve" | "decline") =>
    open(path, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: `decision=${decision}`,
    });
  /** Follows the sandbox's admin link the platform's redirect became, as the browser would, to the page it ends on. */
  const landing = async (location: string) => {
    const signed = await open(location);
    expect(signed.status).toBe(302);
    const page = await fetch(new URL(signed.headers.get("location")!, sandbox.url), { headers: BROWSER });
    return { path: new URL(page.url).pathname, html: await page.text() };
  };

  test("Upgrade on the Plans page, Approve on the plan page: the welcome link opens Home on the new plan", async () => {
    const shop = "starter-demo.myshopify.com";
    const plans = await fetch(await adminRequest("/app/plans", shop, target), { headers: BROWSER });
    expect(await plans.text()).toContain(`href="${PLAN_PAGE("starter-demo")}"`);

    const choose = await open(PLAN_PAGE("starter-demo"));
    expect(choose.status).toBe(200);
    const choices = await choose.text();
    expect(choices).toContain("Starter: $9.0 every 30 days (current plan)");
    expect(choices).toContain('href="pricing_plans/pro"');
    const approval = await open(`${PLAN_PAGE("starter-demo")}/pro`);
    expect(await approval.text()).toContain('value="approve">Approve</button>');

    const approved = await decide(`${PLAN_PAGE("starter-demo")}/pro`, "approve");
    expect(approved.status).toBe(303);
    const welcome = new URL(approved.headers.get("location")!, sandbox.url);
    expect(welcome.pathname).toBe("/__sandbox/admin/app/billing/return");
    expect(welcome.searchParams.get("shop")).toBe(shop);
    expect(welcome.searchParams.get("charge_id")).toMatch(/^\d+$/);
    const home = await landing(`${welcome.pathname}${welcome.search}`);
    expect(home.path).toBe("/app");
    expect(home.html).toMatch(/Pro(<!-- -->)? plan/);
  });

  test("Decline on the plan page returns to the app on the plan it had", async () => {
    const declined = await decide(`${PLAN_PAGE("demo")}/pro`, "decline");
    expect(declined.status).toBe(303);
    const home = await landing(declined.headers.get("location")!);
    expect(home.path).toBe("/app");
    expect(home.html).toMatch(/Scale(<!-- -->)? plan/);
  });
});

describe("the example seed shows the features", () => {
  test("twelve shoppers saved the Linen Shirt: its product page says 'Saved by 10+ shoppers'", async () => {
    const response = await fetch(new URL("/products/linen-shirt", sandbox.url));
    expect(await response.text()).toMatch(/data-si-saved-by[^>]*>Saved by 10\+ shoppers</);
  });

  test("customer 1010 has the named lists Gift ideas and Kitchen, and Gift ideas is shared at the link the banner prints", async () => {
    const lists = await proxy("/proxy/api/lists", "demo.myshopify.com", "1010");
    expect(lists.body.data.lists).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ context: "gift-ideas", name: "Gift ideas", itemCount: 3 }),
        expect.objectContaining({ context: "kitchen", name: "Kitchen", itemCount: 1 }),
      ]),
    );
    const link = /Shared list "Gift ideas" of customer 1010 \(demo\.myshopify\.com\): (\S+)/.exec(
      sandbox.output(),
    )?.[1];
    expect(link).toBeDefined();
    const shared = await fetch(link!);
    expect(shared.status).toBe(200);
    expect(await shared.text()).toContain("Leather Wallet");
  });
});

describe("outside the admin, over real HTTP: a landing page and the login form, never a 500", () => {
  const page = (path: string, init: RequestInit = {}) =>
    fetch(new URL(path, sandbox.url), { ...init, headers: { ...BROWSER, ...init.headers } });

  test("GET /auth/login renders the shop-domain form", async () => {
    const response = await page("/auth/login");
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("Log in to Saved Items");
    expect(html).toMatch(/<form[^>]*method="post"/);
    expect(html).toMatch(/<input[^>]*name="shop"/);
  });

  test("POST /auth/login with an invalid shop renders the form with what to fix", async () => {
    const response = await page("/auth/login", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "shop=not+a+shop",
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Enter your shop&#x27;s domain, such as example.myshopify.com");
  });

  test("GET / is the landing page, whose form logs in through /auth/login", async () => {
    const response = await page("/");
    expect(response.status).toBe(200);
    expect(await response.text()).toMatch(/<form[^>]*action="\/auth\/login"/);
  });

  test("GET /app opened directly ends on the login form", async () => {
    const response = await page("/app");
    expect(response.status).toBe(200);
    expect(new URL(response.url).pathname).toBe("/auth/login");
  });

  test("a path the app does not serve is 404", async () => {
    expect((await page("/no-such-page")).status).toBe(404);
  });
});

describe("Insights in the sandbox: the emulator process runs the bulk operations and serves their JSONL", () => {
  const shop = "insights-demo.myshopify.com";
  // What the sandbox seeded; figures that do not depend on the day (saved_at is relative to start).
  const options = loadSeed(SANDBOX_DEFAULTS.SANDBOX_SEED).shops.find((seeded) => seeded.domain === shop)!.savedItems!;
  const active = generateSavedItems(options, new Date()).items.filter((item) => item.status === "active");

  test("a refresh over the seeded shop gives the seed's counts", async () => {
    const done = await runInsightsOperation(target, shop, "refresh");
    expect(done.objectCount).toBe(options.count);
    const request = await adminRequest("/app/insights?_data=routes/app.insights", shop, target);
    const response = await fetch(request, { headers: { "User-Agent": BROWSER_AGENT } });
    const { summary } = await response.json();
    expect(summary).toMatchObject({
      totalItems: options.count,
      activeItems: active.length,
      activeShoppers: new Set(active.map((item) => item.customerGid)).size,
    });
  }, 60_000);

  test("the CSV export lists every active seeded item", async () => {
    const done = await runInsightsOperation(target, shop, "export");
    const request = await adminRequest(`/app/insights-export?operation=${done.operation}`, shop, target);
    const response = await fetch(request, { headers: { "User-Agent": BROWSER_AGENT } });
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    const rows = (await response.text()).trimEnd().split("\r\n").slice(1);
    const identities = (list: string[]) => list.sort();
    expect(identities(rows.map((row) => row.split(",").slice(0, 4).join(",")))).toEqual(
      identities(active.map((item) => [item.customerGid, item.context, item.entityType, item.entityGid].join(","))),
    );
  }, 60_000);
});
