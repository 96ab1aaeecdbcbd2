import { afterEach, describe, expect, test, vi } from "vitest";
import db from "~/db.server";
import { loader as appLoader } from "~/routes/app";
import { loader as billingReturnLoader } from "~/routes/app.billing.return";
import { PLAN_KEYS, type PlanKey } from "~/services/plans";
import { deliverWebhook, loadAdmin } from "../support/admin";
import { givenShop } from "../support/app";
import { emulator } from "../support/platform";
import { loggedLines } from "../support/logs";

afterEach(() => vi.restoreAllMocks());

const planOnRecord = async (shop: string) => (await db.shop.findUniqueOrThrow({ where: { domain: shop } })).plan;

const subscriptionUpdate = (planHandle: string, status = "ACTIVE") => ({
  app_subscription: {
    admin_graphql_api_id: "gid://shopify/AppSubscription/1",
    name: planHandle.charAt(0).toUpperCase() + planHandle.slice(1),
    status,
    admin_graphql_api_shop_id: "gid://shopify/Shop/1",
    created_at: "2026-11-01T00:00:00Z",
    updated_at: "2026-11-01T00:00:00Z",
    currency: "USD",
    plan_handle: planHandle,
  },
});

/** Each path that re-reads the shop's subscription, run the way the platform triggers it. */
const REFRESH_PATHS: Record<string, (shop: string) => Promise<void>> = {
  "admin load (app.tsx loader)": async (shop) => {
    await loadAdmin(appLoader, "/app", shop);
  },
  "app_subscriptions/update webhook": async (shop) => {
    // The payload claims Scale on purpose: the platform's active subscription is what counts.
    const response = await deliverWebhook("app_subscriptions/update", { shop, payload: subscriptionUpdate("scale") });
    expect(response.status).toBe(200);
  },
  "billing return (managed-pricing welcome link)": async (shop) => {
    const response = (await loadAdmin(billingReturnLoader, "/app/billing/return", shop)) as Response;
    expect(response.status).toBe(302);
    expect(new URL(response.headers.get("Location")!).pathname).toBe("/app");
  },
};

describe.each(Object.entries(REFRESH_PATHS))("plan refresh on %s", (_name, refresh) => {
  test.each(PLAN_KEYS.filter((key) => key !== "free"))("an upgrade from free to %s is recorded", async (key) => {
    const shop = await givenShop({ plan: "free" });
    emulator.setPlan(shop, key as PlanKey);
    await refresh(shop);
    expect(await planOnRecord(shop)).toBe(key);
    const record = await db.shop.findUniqueOrThrow({ where: { domain: shop } });
    expect(record.planRefreshedAt).toBeInstanceOf(Date);
  });

  test("a cancelled subscription (none active) drops the shop to free", async () => {
    const shop = await givenShop({ plan: "pro" });
    emulator.setPlan(shop, "free");
    await refresh(shop);
    expect(await planOnRecord(shop)).toBe("free");
  });
});

describe("app_subscriptions/update when the platform cannot be asked", () => {
  test("with no offline session, the payload's ACTIVE plan_handle is recorded", async () => {
    const shop = await givenShop({ plan: "free", installed: false });
    const response = await deliverWebhook("app_subscriptions/update", { shop, payload: subscriptionUpdate("pro") });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ plan: "pro", source: "payload" });
    expect(await planOnRecord(shop)).toBe("pro");
    expect(emulator.countRequests({ api: "admin", shop })).toBe(0);
  });

  test("an ended subscription drops to free only when it is the plan on record", async () => {
    const shop = await givenShop({ plan: "pro", installed: false });
    // A plan change ends the old subscription; its webhook may arrive after the new one's.
    await deliverWebhook("app_subscriptions/update", { shop, payload: subscriptionUpdate("starter", "CANCELLED") });
    expect(await planOnRecord(shop)).toBe("pro");
    const response = await deliverWebhook("app_subscriptions/update", {
      shop,
      payload: subscriptionUpdate("pro", "CANCELLED"),
    });
    expect(await response.json()).toEqual({ plan: "free", source: "payload" });
    expect(await planOnRecord(shop)).toBe("free");
  });

  test("a revoked token falls back to the payload instead of failing", async () => {
    const shop = await givenShop({ plan: "starter" });
    emulator.revokeAdminToken(shop);
    const response = await deliverWebhook("app_subscriptions/update", { shop, payload: subscriptionUpdate("scale") });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ plan: "scale", source: "payload" });
  });

  test("a platform outage answers 500 so the platform redelivers, and keeps the plan on record", async () => {
    const shop = await givenShop({ plan: "starter" });
    emulator.setPlan(shop, "pro");
    emulator.injectFault({ kind: "http500", api: "admin", operationName: "SavedItemsBillingCurrentSubscriptions" });
    loggedLines();
    const failed = await deliverWebhook("app_subscriptions/update", { shop, payload: subscriptionUpdate("pro") });
    expect(failed.status).toBe(500);
    expect(await planOnRecord(shop)).toBe("starter");
    const redelivered = await deliverWebhook("app_subscriptions/update", { shop, payload: subscriptionUpdate("pro") });
    expect(redelivered.status).toBe(200);
    expect(await planOnRecord(shop)).toBe("pro");
  });
});

describe("plan refresh boundaries", () => {
  test("a platform failure on admin load shows the plan on record instead of an error page", async () => {
    const shop = await givenShop({ plan: "pro" });
    emulator.injectFault({ kind: "http500", api: "admin", operationName: "SavedItemsBillingCurrentSubscriptions" });
    loggedLines();
    const data = await loadAdmin(appLoader, "/app", shop);
    expect(data).toMatchObject({ shop, plan: "pro" });
  });

  test("the hot path never reads the subscription: proxy requests use the plan on record", async () => {
    const { callProxy } = await import("../support/app");
    const shop = await givenShop({ plan: "starter" });
    emulator.setPlan(shop, "scale");
    const batch = await callProxy("/proxy/api/batch", {
      body: {
        operations: Array.from({ length: 11 }, (_, index) => ({
          action: "save",
          context: "wishlist",
          entityType: "product",
          entityGid: `gid://shopify/Product/${index + 1}`,
        })),
      },
    });
    // Still Starter's batch limit: the platform's Scale subscription is not seen until a refresh path runs.
    expect(batch.status).toBe(402);
    await callProxy("/proxy/api/list", { query: { context: "wishlist" } });
    expect(
      emulator.requests.filter((request) => request.operationName === "SavedItemsBillingCurrentSubscriptions"),
    ).toEqual([]);
  });
});

test("a revoked token on admin load goes through the library's re-authentication bounce, not an error page", async () => {
  const shop = await givenShop({ plan: "pro" });
  emulator.revokeAdminToken(shop);
  const response = (await loadAdmin(appLoader, "/app", shop)) as unknown as Response;
  expect(response).toBeInstanceOf(Response);
  expect(response.status).toBe(302);
  expect(response.headers.get("Location")).toContain("/auth/session-token");
});
