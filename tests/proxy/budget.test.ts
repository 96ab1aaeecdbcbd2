import { afterEach, describe, expect, test, vi } from "vitest";
import { callProxy, givenShop } from "../support/app";
import { aSaveRequest, identityQuery } from "../support/fixtures";
import db from "~/db.server";
import { clock } from "~/lib/clock";
import { monthlyUsage } from "~/services/usage/monthly-budget.server";

afterEach(() => vi.restoreAllMocks());

async function useUp(shop: string, count: number, period = new Date().toISOString().slice(0, 7)) {
  await db.usageCounter.upsert({
    where: { shopDomain_period: { shopDomain: shop, period } },
    create: { shopDomain: shop, period, count },
    update: { count },
  });
}

describe("monthly request budget (§8)", () => {
  test("every operation counts 1, a batch counts 1, refused requests count 0", async () => {
    const shop = await givenShop({ plan: "starter" });
    await callProxy("/proxy/api/save", { body: aSaveRequest() });
    await callProxy("/proxy/api/is-saved", { query: identityQuery() });
    await callProxy("/proxy/api/list", { query: { context: "wishlist" } });
    await callProxy("/proxy/api/batch", {
      body: { operations: [{ action: "toggle", ...identityQuery() }, { action: "save", ...identityQuery({ context: "b" }) }] },
    });
    await callProxy("/proxy/api/save", { body: aSaveRequest(), secret: "wrong" });
    await callProxy("/proxy/api/save", { body: aSaveRequest(), customerId: "" });
    await callProxy("/proxy/api/save", { body: { context: "" } });
    expect(await monthlyUsage(shop)).toBe(4);
  });

  test("once the budget is spent the next request is PLAN_LIMIT_REACHED 402, saying when it resets", async () => {
    const shop = await givenShop({ plan: "free" });
    await useUp(shop, 499);
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
    await useUp(shop, 500, "2026-11");
    expect((await callProxy("/proxy/api/list", { query: { context: "w" } })).status).toBe(402);
    vi.spyOn(clock, "now").mockReturnValue(new Date("2026-12-01T00:00:00Z"));
    expect((await callProxy("/proxy/api/list", { query: { context: "w" } })).status).toBe(200);
    expect(await monthlyUsage(shop, new Date("2026-12-01T00:00:00Z"))).toBe(1);
  });

  test("concurrent requests are counted exactly and never overshoot the budget", async () => {
    const shop = await givenShop({ plan: "free" });
    await useUp(shop, 470);
    const results = await Promise.all(
      Array.from({ length: 60 }, () => callProxy("/proxy/api/list", { query: { context: "wishlist" } })),
    );
    const statuses = results.map((result) => result.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(30);
    expect(statuses.filter((status) => status === 402)).toHaveLength(30);
    expect(await monthlyUsage(shop)).toBe(500);
  });
});
