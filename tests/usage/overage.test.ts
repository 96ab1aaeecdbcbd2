import { afterEach, describe, expect, test, vi } from "vitest";
import db from "~/db.server";
import { loader as appLoader } from "~/routes/app";
import { action as plansAction, loader as plansLoader } from "~/routes/app.plans";
import { OVERAGE_BLOCK_REQUESTS, OVERAGE_METER_HANDLE, PLANS } from "~/services/plans";
import { releaseUsageLeases } from "~/services/usage/monthly-budget.server";
import { overageIdempotencyKey } from "~/services/usage/overage-decision";
import { admitPastBudget, overageThisMonth } from "~/services/usage/overage.server";
import { TEST_ENV } from "../support/test-env";
import { afterAuth } from "~/shopify.server";
import { deliverWebhook, loadAdmin, reinstall } from "../support/admin";
import { withAdminSession } from "../support/session-token";
import { APP_URL, callProxy, givenShop, setMonthlyUsage } from "../support/app";
import { identityQuery } from "../support/fixtures";
import { emulator, holdPlatformSleeps, platformNow } from "../support/platform";
import { advanceTime, controlTimeouts, followPlatformClock } from "../support/time";
import { loggedLines, warningsContaining } from "../support/logs";

afterEach(() => vi.restoreAllMocks());

const NOW = Date.parse("2026-11-20T10:00:00Z");
const PERIOD = "2026-11";
const HOUR = 60 * 60 * 1000;

/** The app's clock and the platform's both at NOW (and running), so the shop's billing cycle begins there. */
function startAtNow() {
  advanceTime(NOW - platformNow().getTime());
}

/** Overage on, with the merchant's monthly cap. */
async function givenOverage(shop: string, capUsd: number) {
  await db.overageSetting.create({ data: { shopDomain: shop, enabled: true, capCents: capUsd * 100 } });
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

/** Makes the month's billed blocks spent, as if their requests had been served. */
async function spendBilledBlocks(shop: string) {
  await releaseUsageLeases();
  const blocks = await db.overageBlock.count({ where: { shopDomain: shop, period: PERIOD, sentAt: { not: null } } });
  await db.overageUsage.update({
    where: { shopDomain_period: { shopDomain: shop, period: PERIOD } },
    data: { count: blocks * OVERAGE_BLOCK_REQUESTS },
  });
}

/** The billing events the platform charged the shop this cycle: their keys and what each cost. */
const charged = (shop: string) =>
  emulator.billingCharges(shop).events.map((event) => ({ key: event.idempotencyKey, cents: event.chargedCents }));

/** The key of a block of the shop's current install. */
const keyOf = async (shop: string, period: string, block: number) =>
  overageIdempotencyKey(
    shop,
    (await db.shop.findUniqueOrThrow({ where: { domain: shop } })).installedAt,
    period,
    block,
  );

/** A Starter shop, from NOW, whose budget is spent, with overage on and a $20 cap. */
async function starterPastBudget(capUsd = 20) {
  startAtNow();
  const shop = await givenShop({ plan: "starter" });
  await givenOverage(shop, capUsd);
  await setMonthlyUsage(shop, PLANS.starter.monthlyRequests);
  return shop;
}

const eventsSent = () => emulator.countRequests({ api: "app-events" });

/** The Plans page's form action, as the merchant's admin posts it. */
async function postPlans(shop: string, fields: Record<string, string>) {
  const request = await withAdminSession(
    new Request(new URL("/app/plans", APP_URL), { method: "POST", body: new URLSearchParams(fields) }),
    { shop, apiKey: TEST_ENV.SHOPIFY_API_KEY, apiSecret: TEST_ENV.SHOPIFY_API_SECRET },
    "bearer",
  );
  return plansAction({ request, params: {}, context: {} });
}

/** Blocks begun and spent one after another, each by a new throwaway customer, five minutes apart. */
async function billBlocksFast(shop: string, count: number, firstCustomer: number) {
  for (let block = 0; block < count; block++) {
    advanceTime(5 * 60 * 1000);
    expect((await requestsFromManyCustomers(1, firstCustomer + block))[0]).toBe(200);
    await spendBilledBlocks(shop);
  }
}

const isSavedBy = (customerId: string) => callProxy("/proxy/api/is-saved", { customerId, query: identityQuery() });

describe("overage as billing events of Shopify App Pricing (issue #30)", () => {
  test("a block past the budget is one billing event of the meter: its first request and the 59 after it charge once", async () => {
    const shop = await starterPastBudget();

    const statuses = await requestsFromManyCustomers(60);

    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect(charged(shop)).toEqual([{ key: await keyOf(shop, PERIOD, 1), cents: 200 }]);
    expect(emulator.appEvents(shop)).toEqual([
      expect.objectContaining({ eventHandle: OVERAGE_METER_HANDLE, attributes: { value: 1 }, kind: "billing" }),
    ]);
    expect(await overageThisMonth(shop, PERIOD)).toEqual({ requests: 60, blocks: 1, chargedCents: 200 });

    await spendBilledBlocks(shop);
    expect((await requestsFromManyCustomers(1, 6000))[0]).toBe(200);
    const keys = charged(shop).map((charge) => charge.key);
    expect(keys).toEqual([await keyOf(shop, PERIOD, 1), await keyOf(shop, PERIOD, 2)]);
    for (const key of keys) expect(key.length).toBeLessThanOrEqual(64);
  });

  test("the first request past the merchant's cap is 402 PLAN_LIMIT_REACHED, and so is every one after it, without a billing event", async () => {
    startAtNow();
    const shop = await givenShop({ plan: "starter" });
    // $5 pays for two $2 blocks; the third would pass the cap.
    await givenOverage(shop, 5);
    await setMonthlyUsage(shop, PLANS.starter.monthlyRequests);
    for (let block = 1; block <= 2; block++) {
      expect((await requestsFromManyCustomers(1))[0]).toBe(200);
      await spendBilledBlocks(shop);
    }

    const sent = eventsSent();
    const refused = await callProxy("/proxy/api/is-saved", { customerId: "6000", query: identityQuery() });
    expect(refused.status).toBe(402);
    expect(refused.body.error).toMatchObject({ code: "PLAN_LIMIT_REACHED", retryable: false });
    expect((await callProxy("/proxy/api/is-saved", { customerId: "6001", query: identityQuery() })).status).toBe(402);
    expect(eventsSent()).toBe(sent);
    expect(emulator.billingCharges(shop).chargedCents).toBe(400);
  });

  test("overage off: the paid shop's request past the budget is refused as without overage, and nothing is sent", async () => {
    const shop = await givenShop({ plan: "pro" });
    await setMonthlyUsage(shop, PLANS.pro.monthlyRequests);
    const refused = await callProxy("/proxy/api/is-saved", { query: identityQuery() });
    expect(refused.status).toBe(402);
    expect(refused.body.error.code).toBe("PLAN_LIMIT_REACHED");
    expect(refused.body.error.message).toMatch(/50,000 requests is used up/);
    expect(eventsSent()).toBe(0);
  });

  test("Free has no overage: 402 as today, even with a choice on record", async () => {
    const shop = await givenShop({ plan: "free" });
    await db.overageSetting.create({ data: { shopDomain: shop, enabled: true, capCents: 1_000 } });
    await setMonthlyUsage(shop, PLANS.free.monthlyRequests);
    const refused = await callProxy("/proxy/api/is-saved", { query: identityQuery() });
    expect(refused.status).toBe(402);
    expect(refused.body.error.message).toMatch(/500 requests is used up/);
    expect(emulator.countRequests({ shop, api: "admin" })).toBe(0);
    expect(eventsSent()).toBe(0);
  });

  test("an event whose answer is lost: the request fails retryably, serves nothing, and its retry sends the same key, charged once", async () => {
    startAtNow();
    const shop = await givenShop({ plan: "scale" });
    await givenOverage(shop, 10);
    await setMonthlyUsage(shop, PLANS.scale.monthlyRequests);
    // The platform receives the event and its answer never arrives: the app's bound on the call fires.
    emulator.injectFault({ kind: "hangAfterWork", api: "app-events" });
    const timeouts = controlTimeouts();
    const first = callProxy("/proxy/api/is-saved", { query: identityQuery() });
    await vi.waitFor(() => expect(charged(shop)).toHaveLength(1), { timeout: 20_000 });
    timeouts.fire();
    const failed = await first;
    expect(failed.status).toBe(502);
    expect(failed.body.error.retryable).toBe(true);
    expect(await overageThisMonth(shop, PERIOD)).toMatchObject({ requests: 0, blocks: 0 });

    expect((await callProxy("/proxy/api/is-saved", { query: identityQuery() })).status).toBe(200);
    expect(eventsSent()).toBe(2);
    expect(charged(shop)).toEqual([{ key: await keyOf(shop, PERIOD, 1), cents: 100 }]);
    expect(await overageThisMonth(shop, PERIOD)).toMatchObject({ requests: 1, blocks: 1, chargedCents: 100 });
  });

  test("a block whose event went unanswered a day ago is never sent again: the key no longer protects it", async () => {
    startAtNow();
    const shop = await givenShop({ plan: "scale" });
    await givenOverage(shop, 10);
    await setMonthlyUsage(shop, PLANS.scale.monthlyRequests);
    const key = await keyOf(shop, PERIOD, 1);
    await db.overageBlock.create({
      data: {
        shopDomain: shop,
        period: PERIOD,
        block: 1,
        priceCents: 100,
        idempotencyKey: key,
        attemptedAt: new Date(NOW),
      },
    });
    loggedLines();
    advanceTime(24 * HOUR);

    expect((await callProxy("/proxy/api/is-saved", { query: identityQuery() })).status).toBe(200);
    expect(eventsSent()).toBe(0);
    expect(await db.overageBlock.findMany({ where: { shopDomain: shop } })).toEqual([
      expect.objectContaining({ block: 1, sentAt: expect.any(Date) }),
    ]);
  });

  test("a block begun last month and never answered is not sent in this one: its month's cycle is over", async () => {
    startAtNow();
    const shop = await givenShop({ plan: "starter" });
    await givenOverage(shop, 10);
    await setMonthlyUsage(shop, PLANS.starter.monthlyRequests);
    await db.overageBlock.create({
      data: {
        shopDomain: shop,
        period: "2026-10",
        block: 3,
        priceCents: 200,
        idempotencyKey: await keyOf(shop, "2026-10", 3),
        attemptedAt: new Date(NOW - 2 * HOUR),
      },
    });

    expect((await callProxy("/proxy/api/is-saved", { query: identityQuery() })).status).toBe(200);
    expect(charged(shop)).toEqual([{ key: await keyOf(shop, PERIOD, 1), cents: 200 }]);
    expect(
      await db.overageBlock.findUnique({
        where: { shopDomain_period_block: { shopDomain: shop, period: "2026-10", block: 3 } },
      }),
    ).toMatchObject({ sentAt: null });
  });
});

describe("overage after shop/redact and a reinstall (issue #31 B6)", () => {
  test("the month's first block after the reinstall is billed: its key is not the redacted install's", async () => {
    const shop = await starterPastBudget();
    expect((await requestsFromManyCustomers(1))[0]).toBe(200);
    const before = await keyOf(shop, PERIOD, 1);

    await releaseUsageLeases();
    await deliverWebhook("app/uninstalled", { shop });
    const redacted = await deliverWebhook("shop/redact", { shop, payload: { shop_id: 1, shop_domain: shop } });
    expect(await redacted.json()).toMatchObject({ result: { redacted: true } });
    // Within the platform's 24-hour idempotency window of block 1's first event.
    advanceTime(2 * HOUR);
    await reinstall(shop, afterAuth);
    await givenOverage(shop, 20);
    await setMonthlyUsage(shop, PLANS.starter.monthlyRequests);

    expect((await requestsFromManyCustomers(1, 6000))[0]).toBe(200);
    const after = await keyOf(shop, PERIOD, 1);
    expect(after).not.toBe(before);
    expect(charged(shop)).toEqual([
      { key: before, cents: 200 },
      { key: after, cents: 200 },
    ]);
  });
});

describe("the overage velocity guard (issue #31 A6)", () => {
  test("throwaway customers billing blocks fast: billing pauses past the hour's allowance, nothing more is sent, requests get 402 saying why, and the pause is logged once", async () => {
    const shop = await starterPastBudget();
    const warnings = warningsContaining("overage billing paused");
    // A shop with no overage history may begin VELOCITY_FLOOR_BLOCKS (2) blocks an hour.
    await billBlocksFast(shop, 2, 7100);
    const sent = eventsSent();

    for (const customerId of ["7190", "7191", "7192"]) {
      const refused = await isSavedBy(customerId);
      expect(refused.status).toBe(402);
      expect(refused.body.error).toMatchObject({ code: "PLAN_LIMIT_REACHED", retryable: false });
      expect(refused.body.error.message).toMatch(/overage billing is paused for review by the merchant/);
    }
    // The Plans page says so, with the blocks of the hour that led to it.
    const { paused } = (await loadAdmin(plansLoader, "/app/plans", shop)).usage.overage!;
    expect(paused).toEqual({ since: expect.any(String), blocksInHour: 2 });
    expect(Date.parse(paused!.since)).toBeGreaterThan(NOW + 10 * 60 * 1000);
    // The hour passes; billing stays paused until the merchant has looked.
    advanceTime(2 * HOUR);
    expect((await isSavedBy("7193")).status).toBe(402);

    expect(eventsSent()).toBe(sent);
    expect(emulator.appEvents(shop)).toHaveLength(2);
    expect(emulator.billingCharges(shop).chargedCents).toBe(400);
    expect(warnings()).toHaveLength(1);
    expect(JSON.parse(warnings()[0]!)).toMatchObject({ shop, blocksInHour: 2, allowance: 2 });
  });

  test("the merchant's Resume on the Plans page bills again; the guard's hour counts from the resume, at the pace the merchant vouched for", async () => {
    const shop = await starterPastBudget(100); // a cap that is not what stops it here
    await billBlocksFast(shop, 2, 7200);
    expect((await isSavedBy("7290")).status).toBe(402);

    expect(await postPlans(shop, { intent: "overage-resume" })).toEqual({ ok: true });
    expect((await loadAdmin(plansLoader, "/app/plans", shop)).usage.overage?.paused).toBeNull();
    // For a day the hour may hold 4 x the 2 blocks of the hour before the resume.
    await billBlocksFast(shop, 8, 7210);
    expect(emulator.billingCharges(shop).chargedCents).toBe(2_000);
    // One more within the hour since the resume: paused again.
    const refused = await isSavedBy("7291");
    expect(refused.status).toBe(402);
    expect(refused.body.error.message).toContain("paused for review");
    expect(emulator.appEvents(shop)).toHaveLength(10);
  });
});

describe("the merchant's overage choice on the plans page", () => {
  test("turning overage on records the merchant's monthly cap, which binds at once: no approval on the platform", async () => {
    startAtNow();
    const shop = await givenShop({ plan: "pro" });
    expect(await postPlans(shop, { intent: "overage-on", capUsd: "30" })).toEqual({ ok: true });
    const page = await loadAdmin(plansLoader, "/app/plans", shop);
    expect(page.usage.overage).toEqual({
      blockRequests: 1_000,
      blockPriceCents: 150,
      enabled: true,
      capCents: 3_000,
      paused: null,
      pricingPlansUrl: "https://admin.shopify.com/store/demo/charges/saved-items/pricing_plans",
    });
    expect(page.plans.map((plan) => plan.overage)).toEqual([
      "Past the budget: requests are refused",
      "Past the budget, if you turn overage on: $2.00 per 1,000 requests, up to your cap",
      "Past the budget, if you turn overage on: $1.50 per 1,000 requests, up to your cap",
      "Past the budget, if you turn overage on: $1.00 per 1,000 requests, up to your cap",
    ]);
    expect(emulator.countRequests({ shop, api: "admin" })).toBeGreaterThan(0);
    expect(emulator.requests.filter((request) => /appSubscriptionLineItemUpdate/.test(request.query ?? ""))).toEqual(
      [],
    );

    await setMonthlyUsage(shop, PLANS.pro.monthlyRequests);
    expect((await callProxy("/proxy/api/is-saved", { query: identityQuery() })).status).toBe(200);
    expect(charged(shop)).toHaveLength(1);

    expect(await postPlans(shop, { intent: "overage-off" })).toEqual({ ok: true });
    expect(await db.overageSetting.findUnique({ where: { shopDomain: shop } })).toMatchObject({ enabled: false });
  });

  test("every admin page's frame carries the budget banner: none below 80%, a warning from 80%, spent at 100%", async () => {
    const shop = await givenShop({ plan: "starter" });
    const bannerAt = async (used: number) => {
      await setMonthlyUsage(shop, used);
      return (await loadAdmin(appLoader, "/app", shop)).budget.banner?.title ?? null;
    };
    expect(await bannerAt(3_999)).toBeNull();
    expect(await bannerAt(4_000)).toBe("80% of this month's request budget is used");
    expect(await bannerAt(5_000)).toBe("This month's request budget is spent");
  });

  test("a cap the page must not take, and Free, are refused with a reason", async () => {
    const shop = await givenShop({ plan: "free" });
    expect(await postPlans(shop, { intent: "overage-on", capUsd: "0" })).toMatchObject({
      ok: false,
      code: "VALIDATION_ERROR",
    });
    expect(await postPlans(shop, { intent: "overage-on", capUsd: "20" })).toMatchObject({
      ok: false,
      code: "PLAN_LIMIT_REACHED",
    });
    expect(await db.overageSetting.count()).toBe(0);
  });
});

// Last in the file: the second instance's fresh modules (vi.resetModules) would be what later tests load.
describe("two instances", () => {
  test("another instance finishing a block in flight sends the same key: the platform charges the block once", async () => {
    startAtNow();
    const shop = await givenShop({ plan: "pro" });
    await givenOverage(shop, 10);
    await setMonthlyUsage(shop, PLANS.pro.monthlyRequests);
    // This instance's event reaches the platform late, after the other instance's: held until then.
    const delays = holdPlatformSleeps();
    emulator.injectFault({ kind: "delay", api: "app-events", delayMs: 1_500 });
    const first = callProxy("/proxy/api/is-saved", { customerId: "7001", query: identityQuery() });
    await vi.waitFor(() => expect(delays.waiting()).toEqual([1_500]), { timeout: 20_000 });
    expect(eventsSent()).toBe(1);

    // A second instance: its own modules, leases, token and in-process wait, the same database.
    vi.resetModules();
    const [other, { planFor }, { clock: otherClock }] = await Promise.all([
      import("~/services/usage/overage.server"),
      import("~/services/plans"),
      import("~/lib/clock"),
    ]);
    followPlatformClock(otherClock);
    expect(await other.admitPastBudget(shop, planFor("pro"), PERIOD)).toBe("admitted");

    delays.wakeAll();
    expect((await first).status).toBe(200);
    expect(eventsSent()).toBe(2);
    expect(charged(shop)).toEqual([{ key: await keyOf(shop, PERIOD, 1), cents: 150 }]);
    await other.releaseOverageLeases();
  });

  test("two instances racing at the velocity guard's allowance begin one block between them, pause once, and bill nothing past the pause", async () => {
    const shop = await starterPastBudget();
    await billBlocksFast(shop, 1, 7300);
    const warnings = warningsContaining("overage billing paused");
    vi.resetModules();
    const [other, { planFor }, { clock: otherClock }] = await Promise.all([
      import("~/services/usage/overage.server"),
      import("~/services/plans"),
      import("~/lib/clock"),
    ]);
    followPlatformClock(otherClock);
    // This instance (the request handler's) and the other, each taking a request past the budget at once.
    const race = () =>
      Promise.all([admitPastBudget, other.admitPastBudget].map((admit) => admit(shop, planFor("starter"), PERIOD)));

    // Both find block 1 spent and the hour's allowance (2) one block short: they begin the same block 2.
    expect(await race()).toEqual(["admitted", "admitted"]);
    expect(charged(shop).map((charge) => charge.key)).toEqual([
      await keyOf(shop, PERIOD, 1),
      await keyOf(shop, PERIOD, 2),
    ]);
    await other.releaseOverageLeases();
    await spendBilledBlocks(shop);
    const sent = eventsSent();

    // Both find the allowance spent: one pause, logged once, and no event from either.
    expect(await race()).toEqual(["paused", "paused"]);
    expect(await race()).toEqual(["paused", "paused"]);
    expect((await isSavedBy("7390")).status).toBe(402);
    expect(eventsSent()).toBe(sent);
    expect(await db.overageBlock.count({ where: { shopDomain: shop } })).toBe(2);
    expect(warnings()).toHaveLength(1);
  });
});
