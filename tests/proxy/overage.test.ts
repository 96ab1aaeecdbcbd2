import { RequestType, setUpValidRequest } from "@shopify/shopify-api/test-helpers";
import { afterEach, describe, expect, test, vi } from "vitest";
import db from "~/db.server";
import { clock } from "~/lib/clock";
import { loader as appLoader } from "~/routes/app";
import { action as plansAction, loader as plansLoader } from "~/routes/app.plans";
import { loader as billingReturnLoader } from "~/routes/app.billing.return";
import { OVERAGE_BLOCK_REQUESTS, PLANS } from "~/services/plans";
import { releaseUsageLeases } from "~/services/usage/monthly-budget.server";
import { overageIdempotencyKey } from "~/services/usage/overage-decision";
import { overageThisMonth } from "~/services/usage/overage.server";
import { TEST_ENV } from "../setup/test-env";
import { loadAdmin } from "../support/admin";
import { APP_URL, callProxy, givenShop, setMonthlyUsage } from "../support/app";
import { identityQuery } from "../support/fixtures";
import { emulator } from "../support/platform";
import { controlTimeouts } from "../support/time";

afterEach(() => vi.restoreAllMocks());

const NOW = new Date("2026-11-20T10:00:00Z");
const PERIOD = "2026-11";

/** Overage on, with a capped amount the merchant approved on the platform. */
async function givenOverage(shop: string, capUsd: number) {
  emulator.setCappedAmount(shop, capUsd);
  await db.overageSetting.create({ data: { shopDomain: shop, enabled: true, requestedCapCents: capUsd * 100 } });
}

/** `count` requests from as many customers as keep each within its rate's burst (30). */
async function requestsFromManyCustomers(count: number, firstCustomer = 5000) {
  const statuses: number[] = [];
  for (let index = 0; index < count; index++) {
    const customerId = String(firstCustomer + Math.floor(index / 25));
    statuses.push((await callProxy("/proxy/api/is-saved", { customerId, query: identityQuery() })).status);
  }
  return statuses;
}

/** Makes the month's charged blocks spent, as if their requests had been served. */
async function spendChargedBlocks(shop: string) {
  await releaseUsageLeases();
  const blocks = await db.overageBlock.count({ where: { shopDomain: shop, period: PERIOD } });
  await db.overageUsage.update({
    where: { shopDomain_period: { shopDomain: shop, period: PERIOD } },
    data: { count: blocks * OVERAGE_BLOCK_REQUESTS },
  });
}

describe("overage instead of an outage (issue #22)", () => {
  test("a paid shop's budget plus 1,500 requests: no refusal, exactly 2 usage records of the plan's block price", async () => {
    vi.spyOn(clock, "now").mockReturnValue(NOW);
    const shop = await givenShop({ plan: "starter" });
    await givenOverage(shop, 20);
    await setMonthlyUsage(shop, PLANS.starter.monthlyRequests);

    const statuses = await requestsFromManyCustomers(1_500);

    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    const { records } = emulator.usageCharges(shop);
    expect(records).toEqual([
      expect.objectContaining({ price: 2, idempotencyKey: overageIdempotencyKey(shop, PERIOD, 1) }),
      expect.objectContaining({ price: 2, idempotencyKey: overageIdempotencyKey(shop, PERIOD, 2) }),
    ]);
    expect(await overageThisMonth(shop, PERIOD)).toEqual({ requests: 1_500, blocks: 2, chargedCents: 400 });
  }, 120_000);

  test("the first request past the merchant's cap is 402 PLAN_LIMIT_REACHED, and so is every one after it, without asking the platform", async () => {
    vi.spyOn(clock, "now").mockReturnValue(NOW);
    const shop = await givenShop({ plan: "starter" });
    // $5 pays for two $2 blocks; the third would pass the cap.
    await givenOverage(shop, 5);
    await setMonthlyUsage(shop, PLANS.starter.monthlyRequests);
    for (let block = 1; block <= 2; block++) {
      expect((await requestsFromManyCustomers(1))[0]).toBe(200);
      await spendChargedBlocks(shop);
    }

    const refused = await callProxy("/proxy/api/is-saved", { customerId: "6000", query: identityQuery() });
    expect(refused.status).toBe(402);
    expect(refused.body.error).toMatchObject({ code: "PLAN_LIMIT_REACHED", retryable: false });
    expect(emulator.usageCharges(shop).records).toHaveLength(2);

    const platformCalls = emulator.countRequests({ shop });
    expect((await callProxy("/proxy/api/is-saved", { customerId: "6001", query: identityQuery() })).status).toBe(402);
    expect(emulator.countRequests({ shop })).toBe(platformCalls);
  });

  test("overage off: the paid shop's request past the budget is refused as without overage, and nothing is charged", async () => {
    const shop = await givenShop({ plan: "pro" });
    emulator.setCappedAmount(shop, 50);
    await setMonthlyUsage(shop, PLANS.pro.monthlyRequests);
    const refused = await callProxy("/proxy/api/is-saved", { query: identityQuery() });
    expect(refused.status).toBe(402);
    expect(refused.body.error.code).toBe("PLAN_LIMIT_REACHED");
    expect(refused.body.error.message).toMatch(/50,000 requests is used up/);
    expect(emulator.usageCharges(shop).records).toEqual([]);
  });

  test("Free has no overage: 402 as today, even with a choice on record", async () => {
    const shop = await givenShop({ plan: "free" });
    await db.overageSetting.create({ data: { shopDomain: shop, enabled: true, requestedCapCents: 1_000 } });
    await setMonthlyUsage(shop, PLANS.free.monthlyRequests);
    const refused = await callProxy("/proxy/api/is-saved", { query: identityQuery() });
    expect(refused.status).toBe(402);
    expect(refused.body.error.message).toMatch(/500 requests is used up/);
    expect(emulator.countRequests({ shop, api: "admin" })).toBe(0);
  });

  test("a charge whose answer is lost is retried with the same key: one usage record, and the request is served on retry", async () => {
    vi.spyOn(clock, "now").mockReturnValue(NOW);
    const shop = await givenShop({ plan: "scale" });
    await givenOverage(shop, 10);
    await setMonthlyUsage(shop, PLANS.scale.monthlyRequests);
    // The platform records the charge, and its answer never arrives: the app's bound on the call fires.
    emulator.injectFault({ kind: "hangAfterWork", api: "admin", operationName: "SavedItemsOverageCharge" });
    const timeouts = controlTimeouts();
    const first = callProxy("/proxy/api/is-saved", { query: identityQuery() });
    await vi.waitFor(() => expect(emulator.usageCharges(shop).records).toHaveLength(1), { timeout: 20_000 });
    timeouts.fire();
    const failed = await first;
    expect(failed.status).toBe(502);
    expect(failed.body.error.retryable).toBe(true);
    expect(await db.overageBlock.count()).toBe(0);

    expect((await callProxy("/proxy/api/is-saved", { query: identityQuery() })).status).toBe(200);
    expect(emulator.usageCharges(shop).records).toEqual([
      expect.objectContaining({ price: 1, idempotencyKey: overageIdempotencyKey(shop, PERIOD, 1) }),
    ]);
    expect(await overageThisMonth(shop, PERIOD)).toMatchObject({ requests: 1, blocks: 1 });
  });
});

describe("the merchant's overage choice on the plans page", () => {
  async function postPlans(shop: string, fields: Record<string, string>) {
    const request = await setUpValidRequest(
      {
        type: RequestType.Bearer,
        store: shop.replace(/\.myshopify\.com$/, ""),
        apiKey: TEST_ENV.SHOPIFY_API_KEY,
        apiSecretKey: TEST_ENV.SHOPIFY_API_SECRET,
      },
      new Request(new URL("/app/plans", APP_URL), { method: "POST", body: new URLSearchParams(fields) }),
    );
    return plansAction({ request, params: {}, context: {} });
  }

  test("turning overage on asks the platform for the capped amount, which binds once the merchant approves it", async () => {
    vi.spyOn(clock, "now").mockReturnValue(NOW);
    const shop = await givenShop({ plan: "pro" });
    const result = await postPlans(shop, { intent: "overage-on", capUsd: "30" });
    expect(result).toEqual({
      ok: true,
      confirmationUrl: expect.stringMatching(
        /^https:\/\/demo\.myshopify\.com\/admin\/charges\/\d+\/confirm_update_capped_amount$/,
      ),
    });
    expect(emulator.usageCharges(shop)).toMatchObject({ cappedAmount: 0, pendingCappedAmount: 30 });

    emulator.decideCappedAmount(shop, true);
    await loadAdmin(billingReturnLoader, "/app/billing/return", shop);
    const page = await loadAdmin(plansLoader, "/app/plans", shop);
    expect(page.usage.overage).toEqual({
      blockRequests: 1_000,
      blockPriceCents: 150,
      enabled: true,
      requestedCapCents: 3_000,
      approvedCapCents: 3_000,
      balanceUsedCents: 0,
    });
    expect(page.plans.map((plan) => plan.overage)).toEqual([
      "Past the budget: requests are refused",
      "Past the budget, if you turn overage on: $2.00 per 1,000 requests, up to your cap",
      "Past the budget, if you turn overage on: $1.50 per 1,000 requests, up to your cap",
      "Past the budget, if you turn overage on: $1.00 per 1,000 requests, up to your cap",
    ]);

    await setMonthlyUsage(shop, PLANS.pro.monthlyRequests);
    expect((await callProxy("/proxy/api/is-saved", { query: identityQuery() })).status).toBe(200);
    expect(emulator.usageCharges(shop).records).toHaveLength(1);

    expect(await postPlans(shop, { intent: "overage-off" })).toEqual({ ok: true, confirmationUrl: null });
    expect(await db.overageSetting.findUnique({ where: { shopDomain: shop } })).toMatchObject({ enabled: false });
  });

  test("every admin page's frame carries the budget banner: none below 80%, a warning from 80%, spent at 100%", async () => {
    const shop = await givenShop({ plan: "starter" });
    const bannerAt = async (used: number) => {
      await setMonthlyUsage(shop, used);
      return (await loadAdmin(appLoader, "/app", shop)).budget;
    };
    expect(await bannerAt(3_999)).toEqual({ alert: null, overageAvailable: true });
    expect(await bannerAt(4_000)).toEqual({ alert: { level: "warning", percent: 80 }, overageAvailable: true });
    expect(await bannerAt(5_000)).toEqual({ alert: { level: "spent", percent: 100 }, overageAvailable: true });
  });

  test("a cap the page must not ask for, and Free, are refused with a reason", async () => {
    const shop = await givenShop({ plan: "free" });
    expect(await postPlans(shop, { intent: "overage-on", capUsd: "0" })).toMatchObject({
      ok: false,
      code: "VALIDATION_ERROR",
    });
    expect(await postPlans(shop, { intent: "overage-on", capUsd: "20" })).toMatchObject({
      ok: false,
      code: "PLAN_LIMIT_REACHED",
    });
    expect(emulator.usageCharges(shop).records).toEqual([]);
  });
});
