import { describe, expect, test } from "vitest";
import { isServiceError } from "~/lib/errors";
import { dispatchSavedItems } from "~/operations/dispatcher.server";
import { MAX_BATCH_OPERATIONS } from "~/services/saved-items/schemas";
import { CHANNELS, type Channel } from "~/services/channels";
import { PLAN_KEYS, PLANS, type PlanKey } from "~/services/plans";
import { monthlyUsage } from "~/services/usage/monthly-budget.server";
import { unauthenticated } from "~/shopify.server";
import { callProxy, givenShop } from "../support/app";

// Every expectation below is derived from PLANS, the one plan table, so a change to the table
// changes what is tested rather than silently diverging from it.
const entitlements = PLAN_KEYS.flatMap((plan) => CHANNELS.map((channel) => [plan, channel] as [PlanKey, Channel]));

describe("channel entitlement per plan (the dispatcher behind every channel)", () => {
  test.each(entitlements)("%s plan, %s channel", async (plan, channel) => {
    const shop = await givenShop({ plan });
    const { admin } = await unauthenticated.admin(shop);
    const caller = { shop, customerGid: "gid://shopify/Customer/1001", channel, admin };
    const run = dispatchSavedItems(caller, "is-saved", {
      context: "wishlist",
      entityType: "product",
      entityGid: "gid://shopify/Product/1",
    });
    if (PLANS[plan].channels.includes(channel)) {
      await expect(run).resolves.toEqual({ saved: false });
      expect(await monthlyUsage(shop)).toBe(1);
    } else {
      const error = await run.catch((thrown: unknown) => thrown);
      expect(isServiceError(error) && { code: error.code, status: error.status }).toEqual({
        code: "CHANNEL_NOT_ENTITLED",
        status: 403,
      });
      expect(await monthlyUsage(shop)).toBe(0);
    }
  });
});

const batchOf = (size: number) => ({
  operations: Array.from({ length: size }, (_, index) => ({
    action: "save",
    context: "wishlist",
    entityType: "product",
    entityGid: `gid://shopify/Product/${index + 1}`,
  })),
});

describe("batch size per plan", () => {
  test.each(PLAN_KEYS)("%s: a batch at the plan's limit runs, one more is refused", async (key) => {
    const plan = PLANS[key];
    const shop = await givenShop({ plan: key });
    if (plan.maxBatchOperations > 0) {
      const atLimit = await callProxy("/proxy/api/batch", { body: batchOf(plan.maxBatchOperations) });
      expect(atLimit.status).toBe(200);
      expect(atLimit.body.data).toMatchObject({ total: plan.maxBatchOperations, succeeded: plan.maxBatchOperations });
    }
    const over = await callProxy("/proxy/api/batch", { body: batchOf(Math.max(1, plan.maxBatchOperations + 1)) });
    if (plan.maxBatchOperations + 1 > MAX_BATCH_OPERATIONS) {
      // Above the structural maximum the body is refused before any plan check (§8).
      expect(over.status).toBe(400);
      expect(over.body.error.code).toBe("VALIDATION_ERROR");
    } else {
      expect(over.status).toBe(402);
      expect(over.body.error.code).toBe("PLAN_LIMIT_REACHED");
      expect(over.body.error.message).toContain(plan.name);
    }
    // The refused batch did not count; the accepted one counted once.
    expect(await monthlyUsage(shop)).toBe(plan.maxBatchOperations > 0 ? 1 : 0);
  });
});

test("the monthly budget of each plan is the table's", async () => {
  const { consumeMonthlyRequest } = await import("~/services/usage/monthly-budget.server");
  const db = (await import("~/db.server")).default;
  for (const key of PLAN_KEYS) {
    const shop = await givenShop({ domain: `${key}-budget.myshopify.com`, plan: key });
    const period = new Date().toISOString().slice(0, 7);
    await db.usageCounter.create({ data: { shopDomain: shop, period, count: PLANS[key].monthlyRequests - 1 } });
    // Two customers, so the second refusal is the shop's budget and not one customer's share.
    await expect(consumeMonthlyRequest(shop, PLANS[key], "gid://shopify/Customer/1")).resolves.toBeDefined();
    await expect(consumeMonthlyRequest(shop, PLANS[key], "gid://shopify/Customer/2")).rejects.toMatchObject({
      code: "PLAN_LIMIT_REACHED",
      message: expect.stringContaining(`${PLANS[key].name} plan's monthly budget`),
    });
  }
});
