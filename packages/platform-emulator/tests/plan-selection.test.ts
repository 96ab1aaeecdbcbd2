// The hosted plan selection page of Shopify App Pricing (plan-selection.ts): choosing a plan,
// approving or declining it, and where the merchant is sent afterwards.
import { beforeEach, describe, expect, it } from "vitest";
import { createPlatformEmulator } from "../src/index";
import { TEST_SHOP } from "../src/testing";

const emulator = createPlatformEmulator();
const STORE = TEST_SHOP.replace(".myshopify.com", "");
const PLAN_PAGE = `https://admin.shopify.com/store/${STORE}/charges/saved-items/pricing_plans`;
const APP = `https://admin.shopify.com/store/${STORE}/apps/saved-items`;

beforeEach(() => {
  emulator.reset();
  emulator.setAppPricing({ meters: [], welcomeLink: "/app/billing/return" });
  emulator.addShop({ domain: TEST_SHOP, plan: "starter" });
});

const page = async (url: string) => {
  const response = (await emulator.handle(new Request(url)))!;
  return { status: response.status, html: await response.text() };
};
const decide = async (plan: string, decision: "approve" | "decline") => {
  const response = (await emulator.handle(
    new Request(`${PLAN_PAGE}/${plan}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ decision }),
    }),
  ))!;
  return { status: response.status, location: response.headers.get("location") };
};
/** Whether the shop has a subscription, whose billing cycle it would be charged in. */
const subscribed = () => emulator.billingCharges(TEST_SHOP).cycleStart !== null;

describe("the plan selection page", () => {
  it("lists every plan, the current one marked, each other one linking to its approval page", async () => {
    const { status, html } = await page(PLAN_PAGE);
    expect(status).toBe(200);
    expect(html).toContain("Starter: $9.0 every 30 days (current plan)");
    for (const plan of ["free", "pro", "scale"]) expect(html).toContain(`href="pricing_plans/${plan}"`);
    const approval = await page(`${PLAN_PAGE}/pro`);
    expect(approval.html).toContain('<button name="decision" value="approve">Approve</button>');
    expect(approval.html).toContain('<button name="decision" value="decline">Decline</button>');
  });

  it("Approve makes the plan the active subscription and sends the merchant to the welcome link with its charge_id", async () => {
    const { status, location } = await decide("pro", "approve");
    expect(status).toBe(303);
    const url = new URL(location!);
    expect(`${url.origin}${url.pathname}`).toBe(`${APP}/app/billing/return`);
    const body = await (
      await emulator.handle(
        new Request(`https://${TEST_SHOP}/admin/api/2026-10/graphql.json`, {
          method: "POST",
          headers: {
            "Content-Type": "application/json",
            "X-Shopify-Access-Token": emulator.adminCredentials(TEST_SHOP)!.accessToken,
          },
          body: JSON.stringify({
            query:
              "{ currentAppInstallation { activeSubscriptions { id status lineItems { plan { pricingDetails { ... on AppRecurringPricing { planHandle } } } } } } }",
          }),
        }),
      )
    )?.json();
    const [subscription] = body.data.currentAppInstallation.activeSubscriptions;
    expect(subscription).toMatchObject({
      id: `gid://shopify/AppSubscription/${url.searchParams.get("charge_id")}`,
      status: "ACTIVE",
    });
    expect(subscription.lineItems[0].plan.pricingDetails.planHandle).toBe("pro");
    expect((await page(PLAN_PAGE)).html).toContain("Pro: $29.0 every 30 days (current plan)");
  });

  it("Decline changes nothing and returns to the app", async () => {
    expect(await decide("scale", "decline")).toEqual({ status: 303, location: APP });
    expect((await page(PLAN_PAGE)).html).toContain("Starter: $9.0 every 30 days (current plan)");
  });

  it("Free ends the subscription: the welcome link has no charge", async () => {
    expect(await decide("free", "approve")).toEqual({ status: 303, location: `${APP}/app/billing/return` });
    expect(subscribed()).toBe(false);
  });

  it("an unknown shop or plan is 404", async () => {
    expect((await page(PLAN_PAGE.replace(STORE, "nobody"))).status).toBe(404);
    expect((await page(`${PLAN_PAGE}/platinum`)).status).toBe(404);
    expect((await decide("platinum", "approve")).status).toBe(404);
  });
});
