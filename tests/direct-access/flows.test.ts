import { describe, expect, test } from "vitest";
import { monthlyUsage } from "~/services/usage/monthly-budget.server";
import { callProxy, DEMO_SHOP } from "../support/app";
import {
  CORS_EXPECTATION,
  CUSTOMER,
  OTHER_CUSTOMER,
  STOREFRONT_TOKEN,
  aSessionToken,
  bearerTokenOf,
  callDirect,
  corsHeadersOf,
  errorEnvelope,
  exchangeCustomerAccount,
  exchangeHeadless,
  givenDirectShop,
  type DirectCall,
} from "../support/direct";
import { aSaveRequest, anIdentity, identityQuery } from "../support/fixtures";
import { emulator } from "../support/platform";

const ok = (data: unknown) => ({ ok: true, data });

/** Exchanges for a token on a namespace the way its real client does. */
async function signIn(
  namespace: "headless" | "customer-account",
  customer = CUSTOMER,
  shop = DEMO_SHOP,
): Promise<string> {
  const prefix = shop === DEMO_SHOP ? "" : `${shop.split(".")[0]}-`;
  const result =
    namespace === "headless"
      ? await exchangeHeadless({ shop, customerAccountAccessToken: `${prefix}${customer.customerAccountAccessToken}` })
      : await exchangeCustomerAccount(await aSessionToken({ dest: shop, sub: customer.id }));
  return bearerTokenOf(result);
}

function client(namespace: "headless" | "customer-account", token: string) {
  const send = (name: string, call: DirectCall) => callDirect(`/api/${namespace}/${name}`, { token, ...call });
  return {
    save: (body: unknown) => send("save", { method: "POST", body }),
    remove: (body: unknown) => send("remove", { method: "POST", body }),
    toggle: (body: unknown) => send("toggle", { method: "POST", body }),
    batch: (body: unknown) => send("batch", { method: "POST", body }),
    list: (query: Record<string, string>) => send("list", { method: "GET", query }),
    isSaved: (query: Record<string, string>) => send("is-saved", { method: "GET", query }),
  };
}

describe.each(["headless", "customer-account"] as const)("full flow on /api/%s", (namespace) => {
  test("exchange → save → list → is-saved → remove → is-saved, with the Online Store envelope and shapes", async () => {
    const shop = await givenDirectShop({ plan: "scale" });
    const api = client(namespace, await signIn(namespace));

    const saved = await api.save(aSaveRequest({ snapshot: { title: "Boots" } }));
    expect(saved).toMatchObject({
      status: 200,
      body: ok({ id: expect.stringMatching(/^gid:\/\/shopify\/Metaobject\/\d+$/), state: "active" }),
    });
    expect(emulator.metaobjects(shop, "$app:save_item")).toHaveLength(1);

    const listed = await api.list({ context: "wishlist" });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual(
      ok({
        items: [
          {
            id: saved.body.data.id,
            entityType: "product",
            entityGid: "gid://shopify/Product/1",
            status: "active",
            savedAt: expect.any(String),
            snapshot: { title: "Boots" },
            product: expect.objectContaining({ availability: "unavailable" }),
          },
        ],
        pageInfo: { hasNextPage: false, endCursor: expect.any(String) },
      }),
    );

    expect((await api.isSaved(identityQuery())).body).toEqual(ok({ saved: true }));
    expect((await api.remove(anIdentity())).body).toEqual(ok({ id: saved.body.data.id, state: "removed" }));
    expect((await api.isSaved(identityQuery())).body).toEqual(ok({ saved: false }));
    expect((await api.list({ context: "wishlist" })).body.data.items).toEqual([]);

    const headers = saved.headers;
    if (namespace === "customer-account") expect(corsHeadersOf(headers)).toEqual(CORS_EXPECTATION);
    else expect(headers.get("access-control-allow-origin")).toBeNull();
  });

  test("toggle, batch and the state-table errors behave as on the Online Store channel", async () => {
    await givenDirectShop({ plan: "scale" });
    const api = client(namespace, await signIn(namespace));
    expect((await api.toggle(aSaveRequest())).body).toEqual(ok({ id: expect.any(String), state: "active" }));
    expect(await api.save(aSaveRequest())).toMatchObject({ status: 409, body: errorEnvelope("DUPLICATE_SAVE") });
    expect(await api.remove(anIdentity({ context: "nowhere" }))).toMatchObject({
      status: 404,
      body: errorEnvelope("ITEM_NOT_FOUND"),
    });
    const batch = await api.batch({
      operations: [
        { action: "toggle", ...anIdentity() },
        { action: "save", ...aSaveRequest({ entityGid: "gid://shopify/Product/2" }) },
      ],
    });
    expect(batch.body).toMatchObject(ok({ total: 2, succeeded: 2, failed: 0 }));
    const conflict = await api.batch({
      operations: [
        { action: "save", ...anIdentity() },
        { action: "remove", ...anIdentity() },
      ],
    });
    expect(conflict).toMatchObject({ status: 409, body: errorEnvelope("BATCH_CONFLICT") });
    expect(await api.list({ context: "wishlist", limit: "101" })).toMatchObject({
      status: 400,
      body: errorEnvelope("VALIDATION_ERROR"),
    });
  });

  test("every operation counts 1 against the shop's monthly budget; refused ones and the exchange count 0", async () => {
    const shop = await givenDirectShop({ plan: "scale" });
    const api = client(namespace, await signIn(namespace));
    await api.save(aSaveRequest());
    await api.list({ context: "wishlist" });
    await api.isSaved(identityQuery());
    await client(namespace, "forged").save(aSaveRequest());
    await api.save({ context: "" });
    expect(await monthlyUsage(shop)).toBe(3);
  });
});

test("a token from the legacy headless exchange acts for the same customer as the modern one", async () => {
  await givenDirectShop({ plan: "scale" });
  const legacy = bearerTokenOf(
    await exchangeHeadless({
      shop: DEMO_SHOP,
      storefrontCustomerAccessToken: CUSTOMER.storefrontCustomerAccessToken,
      storefrontAccessToken: STOREFRONT_TOKEN,
    }),
  );
  await client("headless", await signIn("headless")).save(aSaveRequest());
  expect((await client("headless", legacy).isSaved(identityQuery())).body).toEqual(ok({ saved: true }));
});

describe("§5.2 rule 2: shop, channel and customer come only from the verified token", () => {
  test.each(["headless", "customer-account"] as const)(
    "/api/%s: a token from shop A with shop B and another customer named in body and query acts on A's customer only",
    async (namespace) => {
      const shopA = await givenDirectShop({ plan: "scale" });
      const shopB = await givenDirectShop({ domain: "shop-b.myshopify.com", plan: "scale" });
      const tokenA = await signIn(namespace, CUSTOMER, shopA);
      const api = client(namespace, tokenA);
      const impostor = {
        shop: shopB,
        customerId: OTHER_CUSTOMER.id,
        customerGid: OTHER_CUSTOMER.id,
        sub: OTHER_CUSTOMER.id,
        channel: "online-store",
      };

      expect((await api.save({ ...aSaveRequest(), ...impostor })).status).toBe(200);
      const query = { ...identityQuery(), shop: shopB, customerId: OTHER_CUSTOMER.id, logged_in_customer_id: "1002" };
      expect((await api.isSaved(query)).body).toEqual(ok({ saved: true }));

      // Nothing was written on B, and on A the item belongs to customer 1001, not 1002.
      expect(emulator.metaobjects(shopB)).toEqual([]);
      expect(emulator.countRequests({ api: "admin", shop: shopB })).toBe(0);
      expect(
        (await client(namespace, await signIn(namespace, OTHER_CUSTOMER, shopA)).isSaved(identityQuery())).body,
      ).toEqual(ok({ saved: false }));
      expect((await client(namespace, await signIn(namespace, CUSTOMER, shopB)).isSaved(identityQuery())).body).toEqual(
        ok({ saved: false }),
      );
      expect(await monthlyUsage(shopB)).toBe(1);
      expect(await monthlyUsage(shopA)).toBe(3);
    },
  );
});

describe("§1.4 one dispatcher behind all three channels", () => {
  test("an item saved on one channel is seen and changed on the others, for the same customer and context", async () => {
    await givenDirectShop({ plan: "scale" });
    const headless = client("headless", await signIn("headless"));
    const customerAccount = client("customer-account", await signIn("customer-account"));

    const saved = await headless.save(aSaveRequest());
    expect(saved.status).toBe(200);
    expect((await customerAccount.isSaved(identityQuery())).body).toEqual(ok({ saved: true }));
    expect((await callProxy("/proxy/api/is-saved", { query: identityQuery(), customerId: "1001" })).body).toEqual(
      ok({ saved: true }),
    );
    expect(
      (await customerAccount.list({ context: "wishlist" })).body.data.items.map((item: { id: string }) => item.id),
    ).toEqual([saved.body.data.id]);

    // Saving again on another channel is the same item, hence a duplicate.
    expect((await callProxy("/proxy/api/save", { body: aSaveRequest(), customerId: "1001" })).status).toBe(409);

    expect((await callProxy("/proxy/api/remove", { body: anIdentity(), customerId: "1001" })).body).toEqual(
      ok({ id: saved.body.data.id, state: "removed" }),
    );
    expect((await headless.isSaved(identityQuery())).body).toEqual(ok({ saved: false }));
    expect((await customerAccount.toggle(aSaveRequest())).body).toEqual(
      ok({ id: saved.body.data.id, state: "active" }),
    );
    expect(
      (await callProxy("/proxy/api/list", { query: { context: "wishlist" }, customerId: "1001" })).body.data.items,
    ).toHaveLength(1);

    // Another context is another list, on every channel.
    expect((await headless.isSaved(identityQuery({ context: "gift-ideas" }))).body).toEqual(ok({ saved: false }));
  });
});
