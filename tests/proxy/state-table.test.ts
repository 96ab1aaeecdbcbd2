import { describe, expect, test } from "vitest";
import { callProxy, givenShop } from "../support/app";
import { aSaveRequest, anIdentity, identityQuery } from "../support/fixtures";
import { emulator } from "../support/platform";

const ok = (data: unknown) => ({ ok: true, data });
const err = (code: string, retryable = false) => ({
  ok: false,
  error: { code, message: expect.any(String), retryable },
});

describe("§3 state table on the Online Store channel", () => {
  test("save with no list and no item creates both and returns active", async () => {
    const shop = await givenShop();
    const { status, body } = await callProxy("/proxy/api/save", { body: aSaveRequest() });
    expect(status).toBe(200);
    expect(body).toEqual(ok({ id: expect.stringMatching(/^gid:\/\/shopify\/Metaobject\/\d+$/), state: "active" }));
    expect(emulator.metaobjects(shop, "$app:save_list")).toHaveLength(1);
    const [item] = emulator.metaobjects(shop, "$app:save_item");
    expect(item?.id).toBe(body.data.id);
  });

  test("save of a removed item reactivates the same record", async () => {
    await givenShop();
    const saved = await callProxy("/proxy/api/save", { body: aSaveRequest() });
    await callProxy("/proxy/api/remove", { body: anIdentity() });
    const again = await callProxy("/proxy/api/save", { body: aSaveRequest() });
    expect(again).toEqual({ status: 200, body: ok({ id: saved.body.data.id, state: "active" }) });
  });

  test("save of an active item is DUPLICATE_SAVE 409 and changes nothing", async () => {
    const shop = await givenShop();
    await callProxy("/proxy/api/save", { body: aSaveRequest() });
    const before = emulator.metaobjects(shop, "$app:save_item");
    const duplicate = await callProxy("/proxy/api/save", { body: aSaveRequest() });
    expect(duplicate).toEqual({ status: 409, body: err("DUPLICATE_SAVE") });
    expect(emulator.metaobjects(shop, "$app:save_item")).toEqual(before);
  });

  test("remove of an active item soft-removes it", async () => {
    const shop = await givenShop();
    const saved = await callProxy("/proxy/api/save", { body: aSaveRequest() });
    const removed = await callProxy("/proxy/api/remove", { body: anIdentity() });
    expect(removed).toEqual({ status: 200, body: ok({ id: saved.body.data.id, state: "removed" }) });
    expect(emulator.metaobjects(shop, "$app:save_item")).toHaveLength(1);
  });

  test("remove of a removed item is idempotent", async () => {
    await givenShop();
    const saved = await callProxy("/proxy/api/save", { body: aSaveRequest() });
    await callProxy("/proxy/api/remove", { body: anIdentity() });
    const again = await callProxy("/proxy/api/remove", { body: anIdentity() });
    expect(again).toEqual({ status: 200, body: ok({ id: saved.body.data.id, state: "removed" }) });
  });

  test("remove with no list, or with a list but no such item, is ITEM_NOT_FOUND 404", async () => {
    await givenShop();
    expect(await callProxy("/proxy/api/remove", { body: anIdentity() })).toEqual({
      status: 404,
      body: err("ITEM_NOT_FOUND"),
    });
    await callProxy("/proxy/api/save", { body: aSaveRequest() });
    expect(
      await callProxy("/proxy/api/remove", { body: anIdentity({ entityGid: "gid://shopify/Product/2" }) }),
    ).toEqual({ status: 404, body: err("ITEM_NOT_FOUND") });
  });

  test("toggle removes an active save, then saves it again", async () => {
    await givenShop();
    const saved = await callProxy("/proxy/api/save", { body: aSaveRequest() });
    const off = await callProxy("/proxy/api/toggle", { body: aSaveRequest() });
    expect(off).toEqual({ status: 200, body: ok({ id: saved.body.data.id, state: "removed" }) });
    const on = await callProxy("/proxy/api/toggle", { body: aSaveRequest() });
    expect(on).toEqual({ status: 200, body: ok({ id: saved.body.data.id, state: "active" }) });
  });

  test("toggle with no item saves it", async () => {
    await givenShop();
    const on = await callProxy("/proxy/api/toggle", { body: aSaveRequest() });
    expect(on).toEqual({ status: 200, body: ok({ id: expect.any(String), state: "active" }) });
  });

  test("is-saved is true only for an active save, false with no list or item", async () => {
    await givenShop();
    const query = identityQuery();
    expect(await callProxy("/proxy/api/is-saved", { query })).toEqual({ status: 200, body: ok({ saved: false }) });
    await callProxy("/proxy/api/save", { body: aSaveRequest() });
    expect(await callProxy("/proxy/api/is-saved", { query })).toEqual({ status: 200, body: ok({ saved: true }) });
    await callProxy("/proxy/api/remove", { body: anIdentity() });
    expect(await callProxy("/proxy/api/is-saved", { query })).toEqual({ status: 200, body: ok({ saved: false }) });
  });

  test("the identity is context + entityType + entityGid: each differing part is a separate item", async () => {
    await givenShop();
    await callProxy("/proxy/api/save", { body: aSaveRequest() });
    for (const variant of [
      { context: "gifts" },
      { entityType: "variant", entityGid: "gid://shopify/Product/1" },
      { entityGid: "gid://shopify/Product/9" },
    ]) {
      const { status } = await callProxy("/proxy/api/save", { body: aSaveRequest(variant) });
      expect(status).toBe(200);
    }
  });

  test("two concurrent saves of the same item: exactly one succeeds, the other is DUPLICATE_SAVE", async () => {
    await givenShop();
    emulator.setLatency(20);
    const results = await Promise.all([
      callProxy("/proxy/api/save", { body: aSaveRequest() }),
      callProxy("/proxy/api/save", { body: aSaveRequest() }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)?.body.error.code).toBe("DUPLICATE_SAVE");
  });

  test("concurrent toggles of one item alternate instead of racing", async () => {
    await givenShop();
    emulator.setLatency(10);
    const results = await Promise.all(
      Array.from({ length: 4 }, () => callProxy("/proxy/api/toggle", { body: aSaveRequest() })),
    );
    expect(results.map((r) => r.body.data.state).sort()).toEqual(["active", "active", "removed", "removed"]);
    expect(await callProxy("/proxy/api/is-saved", { query: identityQuery() })).toMatchObject({
      body: { data: { saved: false } },
    });
  });
});

describe("customers are isolated", () => {
  test("customer B neither sees nor changes customer A's items in the same context", async () => {
    await givenShop();
    await callProxy("/proxy/api/save", { body: aSaveRequest(), customerId: "1001" });
    expect(await callProxy("/proxy/api/is-saved", { query: identityQuery(), customerId: "2002" })).toMatchObject({
      body: { data: { saved: false } },
    });
    expect(await callProxy("/proxy/api/list", { query: { context: "wishlist" }, customerId: "2002" })).toMatchObject({
      body: { data: { items: [] } },
    });
    expect(await callProxy("/proxy/api/remove", { body: anIdentity(), customerId: "2002" })).toMatchObject({
      status: 404,
    });
    expect(await callProxy("/proxy/api/save", { body: aSaveRequest(), customerId: "2002" })).toMatchObject({
      status: 200,
    });
    expect(await callProxy("/proxy/api/is-saved", { query: identityQuery(), customerId: "1001" })).toMatchObject({
      body: { data: { saved: true } },
    });
  });

  test("shops are isolated: the same customer id on another shop has its own items", async () => {
    await givenShop();
    await givenShop({ domain: "other.myshopify.com" });
    await callProxy("/proxy/api/save", { body: aSaveRequest() });
    expect(
      await callProxy("/proxy/api/is-saved", { query: identityQuery(), shop: "other.myshopify.com" }),
    ).toMatchObject({ body: { data: { saved: false } } });
  });
});
