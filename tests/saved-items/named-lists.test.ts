import { describe, expect, test } from "vitest";
import { PLANS } from "~/services/plans";
import { MAX_STORED_ITEMS_PER_LIST } from "~/services/saved-items/storage-bounds";
import { DEMO_SHOP, callProxy, givenShop, setMonthlyUsage } from "../support/app";
import { CUSTOMER, OTHER_CUSTOMER, aServiceToken, callDirect, givenDirectShop } from "../support/direct";
import { aSaveRequest } from "../support/fixtures";
import { advancePlatformClock, emulator } from "../support/platform";
import { refillCustomerPoints } from "../support/time";

type Channel = "headless" | "customer-account";

async function direct(
  path: string,
  body?: unknown,
  query?: Record<string, string>,
  options: { customerGid?: string; channel?: Channel } = {},
) {
  refillCustomerPoints();
  const channel = options.channel ?? "headless";
  const token = await aServiceToken({ customerGid: options.customerGid ?? CUSTOMER.id, channel });
  return callDirect(`/api/${channel}/${path}`, { token, body, query });
}

async function saveMany(context: string, count: number) {
  for (let start = 0; start < count; start += 50) {
    const operations = Array.from({ length: Math.min(50, count - start) }, (_, offset) => ({
      action: "save",
      ...aSaveRequest({ context, entityGid: `gid://shopify/Product/${start + offset + 1}` }),
    }));
    const { status, body } = await direct("batch", { operations });
    expect(status).toBe(200);
    expect(body.data.succeeded).toBe(operations.length);
  }
}

const itemsOf = (context: string) =>
  emulator.metaobjects(DEMO_SHOP, "$app:save_item").filter((item) => item.fields.context === context);

describe("named lists on the headless channel", () => {
  test("create → lists → save → rename → delete → lists; the items stay stored as removed", async () => {
    await givenDirectShop();
    const created = await direct("create-list", { name: "  Birthday  ", context: "birthday" });
    expect(created.status).toBe(200);
    expect(created.body.data).toEqual({
      context: "birthday",
      name: "Birthday",
      itemCount: 0,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    await saveMany("birthday", 2);
    await direct("save", aSaveRequest({ context: "wishlist" }));

    const listed = await direct("lists", undefined, {});
    expect(listed.status).toBe(200);
    // Newest first: the wishlist a save made after the named list.
    expect(listed.body.data.lists.map((list: { context: string }) => list.context)).toEqual(["wishlist", "birthday"]);
    expect(listed.body.data.lists[0]).toMatchObject({ name: null, itemCount: 1 });
    expect(listed.body.data.lists[1]).toMatchObject({ name: "Birthday", itemCount: 2 });
    expect(listed.body.data.pageInfo).toEqual({ hasNextPage: false, endCursor: expect.any(String) });

    const renamed = await direct("rename-list", { context: "wishlist", name: "Wishes" });
    expect(renamed.body.data).toMatchObject({ context: "wishlist", name: "Wishes", itemCount: 1 });

    const deleted = await direct("delete-list", { context: "birthday" });
    expect(deleted.body).toEqual({ ok: true, data: { context: "birthday", deleted: true, removedItems: 2 } });
    expect(itemsOf("birthday").map((item) => item.fields.status)).toEqual(["removed", "removed"]);
    const after = await direct("lists", undefined, {});
    expect(after.body.data.lists).toEqual([expect.objectContaining({ context: "wishlist", name: "Wishes" })]);
    expect((await direct("list", undefined, { context: "birthday" })).body.data.items).toEqual([]);
    expect((await direct("is-saved", undefined, { ...aSaveRequest({ context: "birthday" }) })).body.data).toEqual({
      saved: false,
    });
    expect(emulator.schemaViolations).toEqual([]);
  });

  test("without a context the service makes a unique key; a taken context is LIST_EXISTS", async () => {
    await givenDirectShop();
    const first = await direct("create-list", { name: "Gifts" });
    const second = await direct("create-list", { name: "Gifts" });
    expect(first.body.data.context).toMatch(/^list-[0-9a-f]{16}$/);
    expect(second.body.data.context).not.toBe(first.body.data.context);
    const taken = await direct("create-list", { name: "Again", context: first.body.data.context });
    expect(taken).toMatchObject({ status: 409, body: { ok: false, error: { code: "LIST_EXISTS", retryable: false } } });
    // The same create repeated (a retry after a lost answer) answers the list it made, writing nothing.
    const before = emulator.requests.length;
    const repeated = await direct("create-list", { name: "Gifts", context: first.body.data.context });
    expect(repeated).toMatchObject({ status: 200, body: { ok: true, data: first.body.data } });
    const sent = emulator.requests.slice(before).map((request) => request.operationName);
    expect(sent).not.toContain("SavedItemsWriteNamedList");
    // A list a save made is taken too.
    await direct("save", aSaveRequest());
    expect((await direct("create-list", { name: "W", context: "wishlist" })).body.error.code).toBe("LIST_EXISTS");
  });

  test("unknown and deleted lists are NOT_FOUND; another customer's lists are not the caller's", async () => {
    await givenDirectShop();
    await direct("create-list", { name: "Mine", context: "mine" });
    const asOther = { customerGid: OTHER_CUSTOMER.id };
    expect((await direct("rename-list", { context: "mine", name: "x" }, undefined, asOther)).status).toBe(404);
    expect((await direct("delete-list", { context: "mine" }, undefined, asOther)).status).toBe(404);
    expect((await direct("lists", undefined, {}, asOther)).body.data.lists).toEqual([]);
    expect((await direct("delete-list", { context: "mine" })).status).toBe(200);
    for (const [path, body] of [
      ["delete-list", { context: "mine" }],
      ["rename-list", { context: "mine", name: "x" }],
      ["rename-list", { context: "never", name: "x" }],
      ["delete-list", { context: "never" }],
    ] as const) {
      expect(await direct(path, body)).toMatchObject({ status: 404, body: { error: { code: "NOT_FOUND" } } });
    }
  });

  test("a save to a deleted list brings it back unnamed; a deleted list's share link stops working", async () => {
    await givenDirectShop();
    await direct("create-list", { name: "Old", context: "old" });
    await direct("save", aSaveRequest({ context: "old" }));
    const { token } = (await direct("share-create", { context: "old" })).body.data;
    await direct("delete-list", { context: "old" });
    expect((await direct("shared-list", undefined, { token })).status).toBe(404);
    const again = await direct("save", aSaveRequest({ context: "old" }));
    expect(again.body.data).toMatchObject({ state: "active" });
    expect((await direct("lists", undefined, {})).body.data.lists).toEqual([
      expect.objectContaining({ context: "old", name: null, itemCount: 1 }),
    ]);
  });

  test("a list of more than one page of items is deleted completely", async () => {
    await givenDirectShop();
    // As many as a list may hold: more than one round of removals (50).
    await saveMany("big", MAX_STORED_ITEMS_PER_LIST);
    // The saves emptied the shop's point bucket; a minute of the platform's time refills it.
    advancePlatformClock(60_000);
    const deleted = await direct("delete-list", { context: "big" });
    expect(deleted.body.data).toEqual({ context: "big", deleted: true, removedItems: MAX_STORED_ITEMS_PER_LIST });
    expect(itemsOf("big").filter((item) => item.fields.status !== "removed")).toEqual([]);
    expect(itemsOf("big")).toHaveLength(MAX_STORED_ITEMS_PER_LIST);
    expect((await direct("list", undefined, { context: "big" })).body.data.items).toEqual([]);
  });

  test("a delete cut off by a platform failure keeps the list; a retry removes the rest", async () => {
    await givenDirectShop();
    await saveMany("cut", 70);
    advancePlatformClock(60_000);
    // The second round of removals fails as a whole.
    emulator.injectFault({ kind: "http500", api: "admin", operationName: "SavedItemsApplyWrites", skip: 1 });
    const failed = await direct("delete-list", { context: "cut" });
    expect(failed).toMatchObject({
      status: 502,
      body: { error: { code: "PLATFORM_UPSTREAM_ERROR", retryable: true } },
    });
    expect(itemsOf("cut").filter((item) => item.fields.status === "active")).toHaveLength(20);
    expect((await direct("lists", undefined, {})).body.data.lists).toEqual([
      expect.objectContaining({ context: "cut", itemCount: 20 }),
    ]);
    const retried = await direct("delete-list", { context: "cut" });
    expect(retried.body.data).toEqual({ context: "cut", deleted: true, removedItems: 20 });
    expect(itemsOf("cut").filter((item) => item.fields.status === "active")).toEqual([]);
  });

  test("a delete racing saves on the same list leaves the list and its items consistent", async () => {
    await givenDirectShop();
    await saveMany("race", 3);
    const results = await Promise.all([
      direct("delete-list", { context: "race" }),
      ...[10, 11, 12].map((id) =>
        direct("save", aSaveRequest({ context: "race", entityGid: `gid://shopify/Product/${id}` })),
      ),
    ]);
    expect(results.map((result) => result.status)).toEqual([200, 200, 200, 200]);
    const active = itemsOf("race").filter((item) => item.fields.status === "active");
    const [list] = emulator.metaobjects(DEMO_SHOP, "$app:save_list").filter((entry) => entry.fields.context === "race");
    // The saves that came after the delete brought the list back with exactly their items.
    expect(JSON.parse(list!.fields.active_items!).length).toBe(active.length);
    const shown = (await direct("lists", undefined, {})).body.data.lists;
    if (active.length === 0) expect(shown).toEqual([]);
    else expect(shown).toEqual([expect.objectContaining({ context: "race", itemCount: active.length })]);
    expect(results[0]!.body.data.removedItems).toBe(3 + 3 - active.length);
  });

  test("names are trimmed and checked at the edge, before the platform", async () => {
    await givenDirectShop();
    const before = emulator.requests.length;
    for (const name of ["", "   ", "x".repeat(61), "a\nb"]) {
      const refused = await direct("create-list", { name });
      expect(refused, JSON.stringify(name)).toMatchObject({
        status: 400,
        body: { error: { code: "VALIDATION_ERROR" } },
      });
    }
    expect((await direct("rename-list", { context: "wishlist" })).status).toBe(400);
    expect((await direct("lists", undefined, { limit: "101" })).status).toBe(400);
    expect(emulator.requests.length).toBe(before);
    expect((await direct("create-list", { name: ` ${"x".repeat(60)} ` })).body.data.name).toBe("x".repeat(60));
  });

  test("lists pages with limit and a cursor bound to the customer", async () => {
    await givenDirectShop();
    for (const context of ["a", "b", "c"]) await direct("create-list", { name: context.toUpperCase(), context });
    const first = await direct("lists", undefined, { limit: "2" });
    expect(first.body.data.lists.map((list: { context: string }) => list.context)).toEqual(["c", "b"]);
    expect(first.body.data.pageInfo.hasNextPage).toBe(true);
    const cursor = first.body.data.pageInfo.endCursor;
    const second = await direct("lists", undefined, { limit: "2", cursor });
    expect(second.body.data.lists.map((list: { context: string }) => list.context)).toEqual(["a"]);
    const foreign = await direct("lists", undefined, { cursor }, { customerGid: OTHER_CUSTOMER.id });
    expect(foreign).toMatchObject({ status: 400, body: { error: { code: "VALIDATION_ERROR" } } });
  });

  test("every list operation counts one request against the budget", async () => {
    await givenDirectShop();
    await direct("create-list", { name: "A", context: "a" });
    await setMonthlyUsage(DEMO_SHOP, PLANS.scale.monthlyRequests);
    for (const [path, body, query] of [
      ["lists", undefined, {}],
      ["create-list", { name: "B" }, undefined],
      ["rename-list", { context: "a", name: "C" }, undefined],
      ["delete-list", { context: "a" }, undefined],
    ] as const) {
      const refused = await direct(path, body, query);
      expect(refused, path).toMatchObject({ status: 402, body: { error: { code: "PLAN_LIMIT_REACHED" } } });
    }
  });
});

describe("the plan's list limit", () => {
  test("counts the lists create-list made that are not deleted, never save's", async () => {
    await givenShop({ plan: "free" });
    const create = (name: string) => callProxy("/proxy/api/create-list", { body: { name } });
    const made = [await create("One"), await create("Two")];
    expect(made.map((result) => result.status)).toEqual([200, 200]);
    const refused = await create("Three");
    expect(refused).toMatchObject({ status: 402, body: { ok: false, error: { code: "PLAN_LIMIT_REACHED" } } });
    expect(refused.body.error.message).toContain("Free");
    // save is the spec's: any number of contexts, whatever the limit.
    for (const context of ["x", "y", "z"]) {
      expect((await callProxy("/proxy/api/save", { body: aSaveRequest({ context }) })).status).toBe(200);
    }
    await callProxy("/proxy/api/delete-list", { body: { context: made[0]!.body.data.context } });
    expect((await create("Three")).status).toBe(200);
  });

  test("concurrent creates past the limit: exactly the limit succeed", async () => {
    await givenShop({ plan: "free" });
    const results = await Promise.all(
      ["A", "B", "C", "D", "E"].map((name) => callProxy("/proxy/api/create-list", { body: { name } })),
    );
    const statuses = results.map((result) => result.status).sort();
    expect(statuses).toEqual([200, 200, 402, 402, 402]);
    const listed = await callProxy("/proxy/api/lists");
    expect(listed.body.data.lists).toHaveLength(PLANS.free.maxNamedLists);
  });
});

describe("the proxy and customer-account channels serve the list operations", () => {
  test("proxy", async () => {
    await givenShop();
    await callProxy("/proxy/api/save", { body: aSaveRequest() });
    const created = await callProxy("/proxy/api/create-list", { body: { name: "Later", context: "later" } });
    expect(created.body.data).toMatchObject({ context: "later", name: "Later" });
    const renamed = await callProxy("/proxy/api/rename-list", { body: { context: "wishlist", name: "Wish" } });
    expect(renamed.body.data).toMatchObject({ name: "Wish", itemCount: 1 });
    const listed = await callProxy("/proxy/api/lists", { query: { limit: "5" } });
    expect(listed.body.data.lists.map((list: { name: string }) => list.name)).toEqual(["Later", "Wish"]);
    const deleted = await callProxy("/proxy/api/delete-list", { body: { context: "wishlist" } });
    expect(deleted.body.data).toEqual({ context: "wishlist", deleted: true, removedItems: 1 });
    expect((await callProxy("/proxy/api/delete-list", { body: { context: "wishlist" } })).status).toBe(404);
  });

  test("customer-account", async () => {
    await givenDirectShop({ plan: "pro" });
    const channel = { channel: "customer-account" as const };
    const created = await direct("create-list", { name: "Gifts", context: "gifts" }, undefined, channel);
    expect(created.status).toBe(200);
    expect(created.headers.get("Access-Control-Allow-Origin")).toBe("*");
    await direct("save", aSaveRequest({ context: "gifts" }), undefined, channel);
    expect((await direct("lists", undefined, {}, channel)).body.data.lists).toEqual([
      expect.objectContaining({ context: "gifts", name: "Gifts", itemCount: 1 }),
    ]);
    expect(
      (await direct("rename-list", { context: "gifts", name: "Presents" }, undefined, channel)).body.data.name,
    ).toBe("Presents");
    expect((await direct("delete-list", { context: "gifts" }, undefined, channel)).body.data.removedItems).toBe(1);
    expect((await direct("lists", undefined, {}, channel)).body.data.lists).toEqual([]);
  });
});
