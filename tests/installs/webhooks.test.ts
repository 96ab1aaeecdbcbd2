import { describe, expect, test } from "vitest";
import db from "~/db.server";
import { readShopVersion } from "~/infrastructure/coordination/shop-version.server";
import { loadOfflineSession } from "~/platform/offline-sessions.server";
import { afterAuth } from "~/shopify.server";
import { deliverWebhook, reinstall, signedWebhook, webhookUri } from "../support/admin";
import { callProxy, givenShop, sendToApp } from "../support/app";
import { aSaveRequest, anIdentity, identityQuery } from "../support/fixtures";
import { emulator } from "../support/platform";

const CUSTOMER = { id: "gid://shopify/Customer/1001" };

/** Every topic the app subscribes to, with a payload of the platform's shape. */
const TOPICS: Record<string, (shop: string) => unknown> = {
  "app/uninstalled": (shop) => ({ id: 1, domain: shop, myshopify_domain: shop }),
  "app/scopes_update": () => ({ previous: ["read_metaobjects"], current: ["read_metaobjects", "write_metaobjects"] }),
  "app_subscriptions/update": () => ({ app_subscription: { name: "Pro", status: "ACTIVE", plan_handle: "pro" } }),
  "products/update": () => ({ id: 1, admin_graphql_api_id: "gid://shopify/Product/1", variants: [] }),
  "customers/data_request": (shop) => ({
    shop_id: 1,
    shop_domain: shop,
    orders_requested: [],
    customer: { id: 1001, email: "a@example.com", phone: null },
    data_request: { id: 9 },
  }),
  "customers/redact": (shop) => ({ shop_id: 1, shop_domain: shop, customer: { id: 1001 }, orders_to_redact: [] }),
  "shop/redact": (shop) => ({ shop_id: 1, shop_domain: shop }),
};

describe("webhook verification (the library's authenticate.webhook)", () => {
  test.each(Object.keys(TOPICS))(
    "%s: declared in shopify.app.toml, accepted when signed with the app secret",
    async (topic) => {
      const shop = await givenShop({ plan: "starter" });
      expect(webhookUri(topic)).toMatch(/^\/webhooks\//);
      const response = await deliverWebhook(topic, { shop, payload: TOPICS[topic]!(shop) });
      expect(response.status).toBe(200);
    },
  );

  test.each(Object.keys(TOPICS))("%s: a wrong signature is 401 and changes nothing", async (topic) => {
    const shop = await givenShop({ plan: "starter", customers: [CUSTOMER] });
    await callProxy("/proxy/api/save", { body: aSaveRequest() });
    const before = {
      shop: await db.shop.findUnique({ where: { domain: shop } }),
      sessions: await db.session.count({ where: { shop } }),
      items: emulator.metaobjects(shop, "$app:save_item").length,
    };
    emulator.clearRequests();
    for (const forged of [{ secret: "not-the-app-secret" }, { hmac: "" }, { hmac: "bm90IGEgc2lnbmF0dXJl" }]) {
      const response = await deliverWebhook(topic, { shop, payload: TOPICS[topic]!(shop), ...forged });
      expect(response.status).toBe(forged.hmac === "" ? 400 : 401);
    }
    expect(await db.shop.findUnique({ where: { domain: shop } })).toEqual(before.shop);
    expect(await db.session.count({ where: { shop } })).toBe(before.sessions);
    expect(emulator.metaobjects(shop, "$app:save_item")).toHaveLength(before.items);
    expect(emulator.countRequests()).toBe(0);
  });

  test("a body altered after signing is rejected", async () => {
    const shop = await givenShop();
    const signed = signedWebhook("app/uninstalled", { shop, payload: { domain: shop } });
    const tampered = new Request(signed.url, {
      method: "POST",
      headers: signed.headers,
      body: JSON.stringify({ domain: "other.myshopify.com" }),
    });
    expect((await sendToApp(tampered)).status).toBe(401);
    expect((await db.shop.findUniqueOrThrow({ where: { domain: shop } })).uninstalledAt).toBeNull();
  });
});

describe("app/uninstalled and reinstall", () => {
  const allOperations = () => [
    callProxy("/proxy/api/save", { body: aSaveRequest() }),
    callProxy("/proxy/api/toggle", { body: aSaveRequest() }),
    callProxy("/proxy/api/remove", { body: anIdentity() }),
    callProxy("/proxy/api/batch", { body: { operations: [{ action: "save", ...anIdentity() }] } }),
    callProxy("/proxy/api/list", { query: { context: "wishlist" } }),
    callProxy("/proxy/api/is-saved", { query: identityQuery() }),
  ];

  test("marks the shop uninstalled and drops its sessions; every proxy route then answers 403 SHOP_NOT_INSTALLED", async () => {
    const shop = await givenShop({ plan: "pro" });
    const response = await deliverWebhook("app/uninstalled", { shop, payload: TOPICS["app/uninstalled"]!(shop) });
    expect(response.status).toBe(200);
    expect((await db.shop.findUniqueOrThrow({ where: { domain: shop } })).uninstalledAt).toBeInstanceOf(Date);
    expect(await db.session.count({ where: { shop } })).toBe(0);
    emulator.clearRequests();
    for (const { status, body } of await Promise.all(allOperations())) {
      expect(status).toBe(403);
      expect(body).toEqual({
        ok: false,
        error: { code: "SHOP_NOT_INSTALLED", message: expect.any(String), retryable: false },
      });
    }
    expect(emulator.countRequests()).toBe(0);
  });

  test("is idempotent: a redelivery keeps the first uninstall time", async () => {
    const shop = await givenShop();
    await deliverWebhook("app/uninstalled", { shop });
    const first = (await db.shop.findUniqueOrThrow({ where: { domain: shop } })).uninstalledAt;
    const again = await deliverWebhook("app/uninstalled", { shop });
    expect(again.status).toBe(200);
    expect((await db.shop.findUniqueOrThrow({ where: { domain: shop } })).uninstalledAt).toEqual(first);
    // Even for a shop the app never recorded.
    expect((await deliverWebhook("app/uninstalled", { shop: "never-seen.myshopify.com" })).status).toBe(200);
  });

  test("a reinstall (the afterAuth hook) restores service and keeps the customer's saved items", async () => {
    const shop = await givenShop({ plan: "pro" });
    await callProxy("/proxy/api/save", { body: aSaveRequest({ entityGid: "gid://shopify/Product/7" }) });
    await callProxy("/proxy/api/save", {
      body: aSaveRequest({ entityGid: "gid://shopify/Product/8", context: "gifts" }),
    });

    await deliverWebhook("app/uninstalled", { shop });
    expect((await callProxy("/proxy/api/list", { query: { context: "wishlist" } })).status).toBe(403);

    await reinstall(shop, afterAuth);
    const record = await db.shop.findUniqueOrThrow({ where: { domain: shop } });
    expect(record.uninstalledAt).toBeNull();
    expect(record.plan).toBe("pro");

    const wishlist = await callProxy("/proxy/api/list", { query: { context: "wishlist" } });
    expect(wishlist.status).toBe(200);
    expect(wishlist.body.data.items.map((item: { entityGid: string }) => item.entityGid)).toEqual([
      "gid://shopify/Product/7",
    ]);
    const gifts = await callProxy("/proxy/api/is-saved", {
      query: identityQuery({ context: "gifts", entityGid: "gid://shopify/Product/8" }),
    });
    expect(gifts.body).toEqual({ ok: true, data: { saved: true } });
  });

  test("a reinstall reads the plan the shop pays for now", async () => {
    const shop = await givenShop({ plan: "pro" });
    await deliverWebhook("app/uninstalled", { shop });
    // Uninstalling cancels the app's subscriptions on the platform.
    emulator.setPlan(shop, "free");
    await reinstall(shop, afterAuth);
    expect((await db.shop.findUniqueOrThrow({ where: { domain: shop } })).plan).toBe("free");
  });
});

test("app/scopes_update stores the granted scopes on the offline session", async () => {
  const shop = await givenShop();
  const response = await deliverWebhook("app/scopes_update", { shop, payload: TOPICS["app/scopes_update"]!(shop) });
  expect(response.status).toBe(200);
  expect((await db.session.findUniqueOrThrow({ where: { id: `offline_${shop}` } })).scope).toBe(
    "read_metaobjects,write_metaobjects",
  );
});

test("app/scopes_update is seen through the cached offline session, here and by every other instance", async () => {
  const shop = await givenShop();
  const before = await loadOfflineSession(shop);
  expect(before?.scope).not.toBe("read_metaobjects,write_metaobjects");
  const versionBefore = await readShopVersion(shop);
  const response = await deliverWebhook("app/scopes_update", { shop, payload: TOPICS["app/scopes_update"]!(shop) });
  expect(response.status).toBe(200);
  expect((await loadOfflineSession(shop))?.scope).toBe("read_metaobjects,write_metaobjects");
  // Other instances hold their own cached copy; the shop version they check moved on.
  expect(await readShopVersion(shop)).toBeGreaterThan(versionBefore);
});
