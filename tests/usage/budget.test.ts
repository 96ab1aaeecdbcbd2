import { afterEach, describe, expect, test, vi } from "vitest";
import { metricsRegistry } from "~/lib/metrics.server";
import { clock } from "~/lib/clock";
import { PLANS } from "~/services/plans";
import { customerShare, monthlyUsage, usagePeriod } from "~/services/usage/monthly-budget.server";
import { CUSTOMER_OPERATION_RATE } from "~/services/usage/rate-limits.server";
import { callProxy, givenShop, setMonthlyUsage } from "../support/app";
import { aSaveRequest, identityQuery } from "../support/fixtures";
import { emulator } from "../support/platform";

afterEach(() => vi.restoreAllMocks());

const customers = (count: number) => Array.from({ length: count }, (_, index) => String(5000 + index));

describe("monthly request budget (§8)", () => {
  test("every operation counts 1, a batch counts 1, refused requests count 0", async () => {
    const shop = await givenShop({ plan: "starter" });
    await callProxy("/proxy/api/save", { body: aSaveRequest() });
    await callProxy("/proxy/api/is-saved", { query: identityQuery() });
    await callProxy("/proxy/api/list", { query: { context: "wishlist" } });
    await callProxy("/proxy/api/batch", {
      body: {
        operations: [
          { action: "toggle", ...identityQuery() },
          { action: "save", ...identityQuery({ context: "b" }) },
        ],
      },
    });
    await callProxy("/proxy/api/save", { body: aSaveRequest(), secret: "wrong" });
    await callProxy("/proxy/api/save", { body: aSaveRequest(), customerId: "" });
    await callProxy("/proxy/api/save", { body: { context: "" } });
    expect(await monthlyUsage(shop)).toBe(4);
  });

  test("once the budget is spent the next request is PLAN_LIMIT_REACHED 402, saying when it resets", async () => {
    const shop = await givenShop({ plan: "free" });
    await setMonthlyUsage(shop, 499);
    expect((await callProxy("/proxy/api/list", { query: { context: "wishlist" } })).status).toBe(200);
    const refused = await callProxy("/proxy/api/save", { body: aSaveRequest() });
    expect(refused.status).toBe(402);
    expect(refused.body.error).toMatchObject({ code: "PLAN_LIMIT_REACHED", retryable: false });
    expect(refused.body.error.message).toMatch(/500/);
    expect(refused.body.error.message).toMatch(/resets at \d{4}-\d\d-01T00:00:00.000Z/);
    expect(await monthlyUsage(shop)).toBe(500);
  });

  test("the budget resets at the start of the calendar month, UTC", async () => {
    const shop = await givenShop({ plan: "free" });
    vi.spyOn(clock, "now").mockReturnValue(new Date("2026-11-30T23:59:59Z"));
    await setMonthlyUsage(shop, 500, "2026-11");
    expect((await callProxy("/proxy/api/list", { query: { context: "w" } })).status).toBe(402);
    vi.spyOn(clock, "now").mockReturnValue(new Date("2026-12-01T00:00:00Z"));
    expect((await callProxy("/proxy/api/list", { query: { context: "w" } })).status).toBe(200);
    expect(await monthlyUsage(shop, new Date("2026-12-01T00:00:00Z"))).toBe(1);
  });

  test("a month is named by its UTC calendar month, to the millisecond either side of its bounds, in any order", () => {
    const cases: [string, string][] = [
      ["2026-11-30T23:59:59.999Z", "2026-11"],
      ["2026-12-01T00:00:00.000Z", "2026-12"],
      ["2026-12-31T23:59:59.999Z", "2026-12"],
      ["2027-01-01T00:00:00.000Z", "2027-01"],
      ["2026-11-01T00:00:00.000Z", "2026-11"],
      ["2026-10-31T23:59:59.999Z", "2026-10"],
      ["2026-12-01T00:00:00.000Z", "2026-12"],
    ];
    expect(cases.map(([at]) => usagePeriod(new Date(at)))).toEqual(cases.map(([, period]) => period));
  });

  test("concurrent requests are counted exactly and never overshoot the budget", async () => {
    const shop = await givenShop({ plan: "free" });
    await setMonthlyUsage(shop, 470);
    const results = await Promise.all(
      customers(60).map((customerId) => callProxy("/proxy/api/list", { customerId, query: { context: "wishlist" } })),
    );
    const statuses = results.map((result) => result.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(30);
    expect(statuses.filter((status) => status === 402)).toHaveLength(30);
    expect(await monthlyUsage(shop)).toBe(500);
  });

  test("a process takes the budget in blocks: no database write per request", async () => {
    const shop = await givenShop({ plan: "pro" });
    const blocks = async () =>
      (
        (await metricsRegistry.getSingleMetric("quota_blocks_taken_total")!.get()).values as {
          labels: { quota: string };
          value: number;
        }[]
      ).map(({ labels, value }) => [labels.quota, value] as const);
    const before = Object.fromEntries(await blocks());
    for (let index = 0; index < 30; index++) await callProxy("/proxy/api/is-saved", { query: identityQuery() });
    const taken = Object.fromEntries((await blocks()).map(([quota, value]) => [quota, value - (before[quota] ?? 0)]));
    // Pro (50,000 a month, 5,000 a customer): blocks of 500 units of the shop's budget and 200 of a customer's share.
    expect(taken).toEqual({ "shop-budget": 1, "customer-share": 1 });
    expect(await monthlyUsage(shop)).toBe(30);
  });
});

describe("retryable failures are free", () => {
  test("20 refused requests, then 500 requests on a throttling Free shop, each 429 retried: exactly 500 succeed", async () => {
    const shop = await givenShop({ plan: "free" });
    for (let index = 0; index < 20; index++) {
      await callProxy("/proxy/api/save", { body: { context: "" } });
    }
    // The platform throttles for a while: requests it keeps refusing are RATE_LIMITED, retryable.
    emulator.injectFault({ kind: "throttled", api: "admin", times: 30 });
    // 25 requests each: within every customer's burst, so each 429 here is the platform's.
    const who = customers(20);
    let succeeded = 0;
    let throttled = 0;
    for (let index = 0; index < 500; index++) {
      const customerId = who[index % who.length]!;
      for (;;) {
        // Each request reads an item the customer has not read yet, so the platform is asked.
        const result = await callProxy("/proxy/api/is-saved", {
          customerId,
          query: identityQuery({ entityGid: `gid://shopify/Product/${index}` }),
        });
        if (result.status === 429) {
          throttled++;
          expect(result.body.error).toMatchObject({ code: "RATE_LIMITED", retryable: true });
          continue;
        }
        expect(result.status).toBe(200);
        succeeded++;
        break;
      }
    }
    expect(succeeded).toBe(500);
    expect(throttled).toBeGreaterThan(0);
    expect(await monthlyUsage(shop)).toBe(500);
    const next = await callProxy("/proxy/api/is-saved", { customerId: "5999", query: identityQuery() });
    expect(next.status).toBe(402);
    expect(next.body.error.code).toBe("PLAN_LIMIT_REACHED");
  }, 120_000);

  test("an upstream failure is free, a non-retryable outcome counts", async () => {
    const shop = await givenShop({ plan: "starter" });
    emulator.injectFault({ kind: "http500", api: "admin" });
    expect((await callProxy("/proxy/api/save", { body: aSaveRequest() })).status).toBe(502);
    expect(await monthlyUsage(shop)).toBe(0);
    expect(
      (await callProxy("/proxy/api/remove", { body: identityQuery({ entityGid: "gid://shopify/Product/404" }) }))
        .status,
    ).toBe(404);
    expect(await monthlyUsage(shop)).toBe(1);
  });
});

describe("one shopper cannot hurt a shop", () => {
  test("a customer over their rate is RATE_LIMITED 429 with Retry-After, and it costs the budget nothing", async () => {
    const shop = await givenShop({ plan: "pro" });
    // The bucket refills 2 calls a second: on a loaded machine the 30 calls take long enough to earn one back.
    const frozen = clock.now().getTime();
    vi.spyOn(clock, "now").mockImplementation(() => new Date(frozen));
    for (let index = 0; index < CUSTOMER_OPERATION_RATE.capacity; index++) {
      expect((await callProxy("/proxy/api/is-saved", { query: identityQuery() })).status).toBe(200);
    }
    const { sendToApp, proxyRequest } = await import("../support/app");
    const response = await sendToApp(proxyRequest("/proxy/api/is-saved", { query: identityQuery() }));
    expect(response.status).toBe(429);
    expect(Number(response.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    expect((await response.json()).error).toMatchObject({ code: "RATE_LIMITED", retryable: true });
    expect(await monthlyUsage(shop)).toBe(CUSTOMER_OPERATION_RATE.capacity);
  });

  test("one customer at 100 requests/s for 10 s spends at most its rate and its share; another customer is unaffected", async () => {
    const shop = await givenShop({ plan: "free" });
    const start = Date.parse("2026-11-20T10:00:00Z");
    let nowMs = start;
    vi.spyOn(clock, "now").mockImplementation(() => new Date(nowMs));
    const flood = { ok: 0, limited: 0, share: 0 };
    for (let index = 0; index < 1000; index++) {
      nowMs = start + index * 10;
      const result = await callProxy("/proxy/api/is-saved", { customerId: "6666", query: identityQuery() });
      if (result.status === 200) flood.ok++;
      else if (result.status === 429) flood.limited++;
      else if (result.status === 402 && /share/.test(result.body.error.message)) flood.share++;
      if (index % 100 === 50) {
        const other = await callProxy("/proxy/api/is-saved", { customerId: "7777", query: identityQuery() });
        expect(other.status).toBe(200);
      }
    }
    const rateAllows = CUSTOMER_OPERATION_RATE.capacity + CUSTOMER_OPERATION_RATE.refillPerSecond * 10;
    expect(flood.ok).toBeLessThanOrEqual(Math.min(rateAllows, customerShare(PLANS.free)));
    expect(flood.ok + flood.limited + flood.share).toBe(1000);
    expect(await monthlyUsage(shop)).toBe(flood.ok + 10);
  }, 60_000);

  test("a customer who used their monthly share gets PLAN_LIMIT_REACHED saying so; the shop's budget stays for the others", async () => {
    const shop = await givenShop({ plan: "free" });
    let nowMs = Date.parse("2026-11-20T10:00:00Z");
    vi.spyOn(clock, "now").mockImplementation(() => new Date((nowMs += 1_000)));
    const share = customerShare(PLANS.free);
    for (let index = 0; index < share; index++) {
      expect((await callProxy("/proxy/api/is-saved", { customerId: "8888", query: identityQuery() })).status).toBe(200);
    }
    const refused = await callProxy("/proxy/api/is-saved", { customerId: "8888", query: identityQuery() });
    expect(refused.status).toBe(402);
    expect(refused.body.error).toMatchObject({ code: "PLAN_LIMIT_REACHED", retryable: false });
    expect(refused.body.error.message).toMatch(/share/);
    expect((await callProxy("/proxy/api/is-saved", { customerId: "9999", query: identityQuery() })).status).toBe(200);
    expect(await monthlyUsage(shop)).toBe(share + 1);
  });
});
