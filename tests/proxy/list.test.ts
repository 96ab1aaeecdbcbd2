import { describe, expect, test } from "vitest";
import { callProxy, givenShop } from "../support/app";
import { aSaveRequest, anIdentity } from "../support/fixtures";

async function saveProducts(ids: number[], context = "wishlist") {
  for (const id of ids) {
    const { status } = await callProxy("/proxy/api/save", {
      body: aSaveRequest({ context, entityGid: `gid://shopify/Product/${id}` }),
    });
    expect(status).toBe(200);
  }
}

const gids = (body: any) => body.data.items.map((item: { entityGid: string }) => item.entityGid);

describe("GET /proxy/api/list", () => {
  test("with no list yet it is 200 with no items", async () => {
    await givenShop();
    expect(await callProxy("/proxy/api/list", { query: { context: "wishlist" } })).toEqual({
      status: 200,
      body: { ok: true, data: { items: [], pageInfo: { hasNextPage: false, endCursor: null } } },
    });
  });

  test("returns only active items of that context, newest save first, in the ListItem shape", async () => {
    await givenShop();
    await saveProducts([1, 2, 3]);
    await saveProducts([7], "gifts");
    await callProxy("/proxy/api/remove", { body: anIdentity({ entityGid: "gid://shopify/Product/2" }) });
    const { status, body } = await callProxy("/proxy/api/list", { query: { context: "wishlist" } });
    expect(status).toBe(200);
    expect(gids(body)).toEqual(["gid://shopify/Product/3", "gid://shopify/Product/1"]);
    expect(body.data.items[0]).toEqual({
      id: expect.stringMatching(/^gid:\/\/shopify\/Metaobject\//),
      entityType: "product",
      entityGid: "gid://shopify/Product/3",
      status: "active",
      savedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      // Not in the emulated catalogue: its card says so (decision 0020).
      product: expect.objectContaining({ availability: "unavailable", title: null, url: null }),
    });
  });

  test("a reactivated item moves to the front", async () => {
    await givenShop();
    await saveProducts([1, 2]);
    await callProxy("/proxy/api/remove", { body: anIdentity({ entityGid: "gid://shopify/Product/1" }) });
    await saveProducts([1]);
    const { body } = await callProxy("/proxy/api/list", { query: { context: "wishlist" } });
    expect(gids(body)).toEqual(["gid://shopify/Product/1", "gid://shopify/Product/2"]);
  });

  test("the snapshot given at save comes back parsed", async () => {
    await givenShop();
    const snapshot = { title: "Linen shirt", price: { amount: "49.00", currencyCode: "EUR" }, tags: ["new"] };
    await callProxy("/proxy/api/save", { body: aSaveRequest({ snapshot }) });
    const { body } = await callProxy("/proxy/api/list", { query: { context: "wishlist" } });
    expect(body.data.items[0].snapshot).toEqual(snapshot);
  });

  test("pages forward with the opaque cursor until hasNextPage is false", async () => {
    await givenShop();
    await saveProducts([1, 2, 3, 4, 5]);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    for (;;) {
      const { status, body } = await callProxy("/proxy/api/list", {
        query: { context: "wishlist", limit: "2", ...(cursor ? { cursor } : {}) },
      });
      expect(status).toBe(200);
      pages++;
      seen.push(...gids(body));
      if (!body.data.pageInfo.hasNextPage) break;
      cursor = body.data.pageInfo.endCursor;
      expect(cursor).toEqual(expect.any(String));
    }
    expect(pages).toBe(3);
    expect(seen).toEqual([5, 4, 3, 2, 1].map((id) => `gid://shopify/Product/${id}`));
  });

  test("limit defaults to 20 and accepts up to 100", async () => {
    await givenShop();
    await saveProducts(Array.from({ length: 21 }, (_, index) => index + 1));
    const byDefault = await callProxy("/proxy/api/list", { query: { context: "wishlist" } });
    expect(byDefault.body.data.items).toHaveLength(20);
    expect(byDefault.body.data.pageInfo.hasNextPage).toBe(true);
    const max = await callProxy("/proxy/api/list", { query: { context: "wishlist", limit: "100" } });
    expect(max.body.data.items).toHaveLength(21);
    expect(max.body.data.pageInfo.hasNextPage).toBe(false);
  });

  test.each([["101"], ["0"], ["-1"], ["2.5"], ["ten"]])("limit=%s is VALIDATION_ERROR naming limit", async (limit) => {
    await givenShop();
    const { status, body } = await callProxy("/proxy/api/list", { query: { context: "wishlist", limit } });
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: "VALIDATION_ERROR", retryable: false });
    expect(body.error.message).toMatch(/^limit:/);
  });

  test("a cursor of another list, or a forged one, is VALIDATION_ERROR", async () => {
    await givenShop();
    await saveProducts([1, 2, 3]);
    const first = await callProxy("/proxy/api/list", { query: { context: "wishlist", limit: "1" } });
    const cursor = first.body.data.pageInfo.endCursor;
    for (const [context, badCursor] of [
      ["gifts", cursor],
      ["wishlist", "not-a-cursor"],
    ]) {
      const { status, body } = await callProxy("/proxy/api/list", { query: { context, cursor: badCursor } });
      expect(status).toBe(400);
      expect(body.error.message).toMatch(/^cursor:/);
    }
    const other = await callProxy("/proxy/api/list", {
      query: { context: "wishlist", limit: "1", cursor },
      customerId: "2002",
    });
    expect(other.status).toBe(400);
  });

  test("context is required", async () => {
    await givenShop();
    const { status, body } = await callProxy("/proxy/api/list", {});
    expect(status).toBe(400);
    expect(body.error.message).toMatch(/^context:/);
  });
});
