import { describe, expect, test, vi } from "vitest";
import prisma from "~/db.server";
import { retentionWindowMs } from "~/config/env.server";
import { clock } from "~/lib/clock";
import { observeBucket } from "~/platform/shop-buckets.server";
import { runComposedAdminGraphql } from "~/platform/admin-graphql.server";
import { requireOfflineAdmin } from "~/platform/offline-admin.server";
import { startJobs, stopJobs } from "~/services/background-jobs.server";
import { retentionJob, runRetentionSweep } from "~/services/saved-items/retention.server";
import { itemHandle, listDirectoryHandle, listHandle } from "~/services/saved-items/handles.server";
import { MAX_LISTS_PER_CUSTOMER, MAX_STORED_ITEMS_PER_LIST } from "~/services/saved-items/storage-bounds";
import { DEMO_SHOP } from "../support/app";
import { CUSTOMER, aServiceToken, callDirect, givenDirectShop } from "../support/direct";
import { aSaveRequest } from "../support/fixtures";
import { emulator } from "../support/platform";
import { advanceTime, refillCustomerPoints } from "../support/time";

// The per-customer bounds and retention (docs/decisions/0017-bounded-storage.md), through the real
// handler on the headless channel (a Scale shop: batches of 50), the platform emulated.

async function direct(path: string, body?: unknown) {
  refillCustomerPoints();
  const token = await aServiceToken({ customerGid: CUSTOMER.id, channel: "headless" });
  return callDirect(`/api/headless/${path}`, { token, body });
}

const product = (n: number) => `gid://shopify/Product/${n}`;

/** One batch of saves (or removes) of products `from`..`from + count - 1` in `context`. */
async function batch(action: "save" | "remove", context: string, from: number, count: number) {
  const operations = Array.from({ length: count }, (_, offset) => ({
    action,
    ...aSaveRequest({ context, entityGid: product(from + offset) }),
  }));
  const { status, body } = await direct("batch", { operations });
  expect(status).toBe(200);
  return body.data as { succeeded: number; results: { ok: boolean; code?: string; message?: string }[] };
}

/** Fills a list to the bound: `active` saved, the rest saved then removed (stored, within the window). */
async function fillList(context: string, active: number) {
  for (let from = 1; from <= MAX_STORED_ITEMS_PER_LIST; from += 50) {
    const count = Math.min(50, MAX_STORED_ITEMS_PER_LIST - from + 1);
    expect((await batch("save", context, from, count)).succeeded).toBe(count);
  }
  for (let from = active + 1; from <= MAX_STORED_ITEMS_PER_LIST; from += 50) {
    const count = Math.min(50, MAX_STORED_ITEMS_PER_LIST - from + 1);
    expect((await batch("remove", context, from, count)).succeeded).toBe(count);
  }
}

const items = (status?: string) =>
  emulator
    .metaobjects(DEMO_SHOP, "$app:save_item")
    .filter((item) => status === undefined || item.fields.status === status);
const lists = () => emulator.metaobjects(DEMO_SHOP, "$app:save_list");

/** Past the retention window, then one sweep of the retention pass. */
async function afterRetention() {
  advanceTime(retentionWindowMs() + 1000);
  await runRetentionSweep();
}

describe("the bound on a customer's lists", () => {
  test("saves to new contexts make lists up to the bound, then answer PLAN_LIMIT_REACHED saying what to do", async () => {
    await givenDirectShop();
    const contexts = Array.from({ length: MAX_LISTS_PER_CUSTOMER + 1 }, (_, index) => `ctx-${index}`);
    for (let start = 0; start < MAX_LISTS_PER_CUSTOMER; start += 50) {
      const operations = contexts
        .slice(start, Math.min(start + 50, MAX_LISTS_PER_CUSTOMER))
        .map((context) => ({ action: "save", ...aSaveRequest({ context }) }));
      expect((await direct("batch", { operations })).body.data.succeeded).toBe(operations.length);
    }
    const refused = await direct("save", aSaveRequest({ context: contexts.at(-1)! }));
    expect(refused.status).toBe(402);
    expect(refused.body).toMatchObject({
      ok: false,
      error: { code: "PLAN_LIMIT_REACHED", retryable: false, message: expect.stringMatching(/delete a list/) },
    });
    const created = await direct("create-list", { name: "One more", context: "one-more" });
    expect(created.body.error.message).toMatch(/delete a list/);
    expect(created.status).toBe(402);
    expect(lists()).toHaveLength(MAX_LISTS_PER_CUSTOMER);
    // A list already stored still takes saves.
    expect((await direct("save", aSaveRequest({ context: "ctx-0", entityGid: product(2) }))).status).toBe(200);
  });

  test("a deleted list counts until retention deletes it; then another list can be made", async () => {
    await givenDirectShop();
    const operations = Array.from({ length: MAX_LISTS_PER_CUSTOMER }, (_, index) => ({
      action: "save",
      ...aSaveRequest({ context: `ctx-${index}` }),
    }));
    expect((await direct("batch", { operations: operations.slice(0, 50) })).body.data.succeeded).toBe(50);
    expect((await direct("batch", { operations: operations.slice(50) })).body.data.succeeded).toBe(
      MAX_LISTS_PER_CUSTOMER - 50,
    );
    expect((await direct("delete-list", { context: "ctx-0" })).status).toBe(200);
    expect((await direct("save", aSaveRequest({ context: "fresh" }))).status).toBe(402);

    await afterRetention();

    expect(lists().map((list) => list.fields.context)).not.toContain("ctx-0");
    expect(lists()).toHaveLength(MAX_LISTS_PER_CUSTOMER - 1);
    expect((await direct("save", aSaveRequest({ context: "fresh" }))).status).toBe(200);
  });

  test("two saves at once to two new contexts, one list short of the bound: exactly one list is made", async () => {
    await givenDirectShop();
    const operations = Array.from({ length: MAX_LISTS_PER_CUSTOMER - 1 }, (_, index) => ({
      action: "save",
      ...aSaveRequest({ context: `ctx-${index}` }),
    }));
    for (let start = 0; start < operations.length; start += 50) {
      await direct("batch", { operations: operations.slice(start, start + 50) });
    }
    expect(lists()).toHaveLength(MAX_LISTS_PER_CUSTOMER - 1);
    // The first write reaches the platform late: without the directory's lock, the other save would
    // count the same lists meanwhile, and both would make one.
    emulator.injectFault({ kind: "delay", api: "admin", operationName: "SavedItemsApplyWrites", delayMs: 300 });
    const answers = await Promise.all(["new-a", "new-b"].map((context) => direct("save", aSaveRequest({ context }))));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 402]);
    expect(lists()).toHaveLength(MAX_LISTS_PER_CUSTOMER);
  });
});

describe("lists stored before the bounds", () => {
  test("are counted at their next write, delete-list's included, and then retained", async () => {
    await givenDirectShop();
    const identity = { context: "old", entityType: "product", entityGid: product(1) } as const;
    const item = itemHandle(CUSTOMER.id, identity);
    emulator.importMetaobjects(DEMO_SHOP, "$app:save_list", [
      {
        handle: listHandle(CUSTOMER.id, "old"),
        fields: { customer_id: CUSTOMER.id, context: "old", name: "Old", active_items: JSON.stringify([item]) },
      },
    ]);
    emulator.importMetaobjects(DEMO_SHOP, "$app:save_list_directory", [
      { handle: listDirectoryHandle(CUSTOMER.id), fields: { customer_id: CUSTOMER.id, named_lists: '["old"]' } },
    ]);
    emulator.importMetaobjects(DEMO_SHOP, "$app:save_item", [
      {
        handle: item,
        fields: {
          list_key: listHandle(CUSTOMER.id, "old"),
          customer_id: CUSTOMER.id,
          context: "old",
          entity_type: "product",
          entity_gid: product(1),
          status: "active",
          saved_at: "2026-01-01T00:00:00Z",
        },
      },
    ]);

    expect((await direct("delete-list", { context: "old" })).body.data).toMatchObject({ removedItems: 1 });
    const [directory] = emulator.metaobjects(DEMO_SHOP, "$app:save_list_directory");
    expect(JSON.parse(directory!.fields.lists!)).toEqual(["old"]);
    expect(JSON.parse(directory!.fields.named_lists!)).toEqual([]);

    await afterRetention();
    expect(items()).toEqual([]);
    expect(lists()).toEqual([]);
  });
});

describe("the bound on a list's stored items", () => {
  test("saving and removing new items meets the bound: removed items count until retention deletes them", async () => {
    await givenDirectShop();
    await fillList("wishlist", 10);
    const refused = await direct("save", aSaveRequest({ context: "wishlist", entityGid: product(10_000) }));
    expect(refused.status).toBe(402);
    expect(refused.body.error).toMatchObject({
      code: "PLAN_LIMIT_REACHED",
      retryable: false,
      message: expect.stringMatching(/remove items or delete the list/),
    });
    // Saving a removed item again stores nothing more, so it is taken at the bound.
    expect((await direct("save", aSaveRequest({ context: "wishlist", entityGid: product(11) }))).status).toBe(200);
    expect(items()).toHaveLength(MAX_STORED_ITEMS_PER_LIST);

    await afterRetention();

    // Only the removed items went: every active one is still stored and listed.
    expect(items()).toHaveLength(11);
    expect(items("active")).toHaveLength(11);
    const listed = await callDirect("/api/headless/list", {
      token: await aServiceToken({ customerGid: CUSTOMER.id, channel: "headless" }),
      query: { context: "wishlist", limit: "100" },
    });
    expect(listed.body.data.items).toHaveLength(11);
    // A retained-away item is "no item": its remove is ITEM_NOT_FOUND, a save makes it anew.
    const gone = await direct("remove", aSaveRequest({ context: "wishlist", entityGid: product(20) }));
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe("ITEM_NOT_FOUND");
    expect((await direct("save", aSaveRequest({ context: "wishlist", entityGid: product(10_000) }))).status).toBe(200);
    expect((await direct("save", aSaveRequest({ context: "wishlist", entityGid: product(20) }))).status).toBe(200);
    expect(items()).toHaveLength(13);
  });

  test("retention never deletes an active item, even one its list names as removed", async () => {
    await givenDirectShop();
    await batch("save", "wishlist", 1, 2);
    await batch("remove", "wishlist", 1, 2);
    // Active again on the platform behind the list's back (as a write whose answer was lost could leave it).
    const [first] = items().filter((item) => item.fields.entity_gid === product(1));
    await runComposedAdminGraphql(
      await requireOfflineAdmin(DEMO_SHOP),
      `mutation Reactivate($id: ID!) {
        metaobjectUpdate(id: $id, metaobject: { fields: [{ key: "status", value: "active" }] }) { metaobject { id } }
      }`,
      { id: first!.id },
    );
    await afterRetention();
    expect(items().map((item) => [item.fields.entity_gid, item.fields.status])).toEqual([[product(1), "active"]]);
    const [list] = lists();
    expect(JSON.parse(list!.fields.removed_items!)).toEqual({});
  });

  test("instances sweeping together run each list's retention once", async () => {
    await givenDirectShop();
    await batch("save", "wishlist", 1, 3);
    await batch("remove", "wishlist", 1, 3);
    advanceTime(retentionWindowMs() + 1000);
    // Answered requests only: a month's wait expires the access token, and its 401 is renewed and retried.
    const answered = (operationName: string) =>
      emulator.requests.filter((request) => request.operationName === operationName && request.status === 200);
    await Promise.all([runRetentionSweep(), runRetentionSweep()]);
    expect(answered("SavedItemsDeleteItems")).toHaveLength(1);
    expect(items()).toEqual([]);
    // A finished pass is not run again until its next turn.
    await runRetentionSweep();
    expect(answered("SavedItemsRetentionPage")).toHaveLength(1);
    expect(await prisma.listRetention.findUnique({ where: { shopDomain: DEMO_SHOP } })).toMatchObject({
      cursor: null,
      claimToken: null,
    });
  });

  test("two saves at once at the bound: exactly one is taken", async () => {
    await givenDirectShop();
    await fillList("wishlist", MAX_STORED_ITEMS_PER_LIST - 1);
    await afterRetention();
    expect(items()).toHaveLength(MAX_STORED_ITEMS_PER_LIST - 1);

    emulator.injectFault({ kind: "delay", api: "admin", operationName: "SavedItemsApplyWrites", delayMs: 300 });
    const answers = await Promise.all(
      [20_001, 20_002].map((n) => direct("save", aSaveRequest({ context: "wishlist", entityGid: product(n) }))),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 402]);
    expect(items()).toHaveLength(MAX_STORED_ITEMS_PER_LIST);
  });
});

describe("the retention pass on the shop's bucket", () => {
  test("waits while the bucket is below the shoppers' reserve, stops at once when stopped, and the next sweep does the work", async () => {
    await givenDirectShop();
    await batch("save", "wishlist", 1, 3);
    await batch("remove", "wishlist", 1, 3);
    advanceTime(retentionWindowMs() + 1000);
    // A shopper's request renews the shop's expired access token first.
    const token = await aServiceToken({ customerGid: CUSTOMER.id, channel: "headless" });
    expect((await callDirect("/api/headless/lists", { token, query: {} })).status).toBe(200);
    // The shop's last answer left its bucket empty, and the time it takes to refill never passes.
    observeBucket(DEMO_SHOP, { maximumAvailable: 2_000, currentlyAvailable: 0, restoreRate: 100 });
    const sleep = vi.spyOn(clock, "sleep").mockImplementation(() => new Promise(() => {}));
    const retention = () =>
      emulator.requests.filter((request) => request.operationName?.startsWith("SavedItemsRetention"));

    void startJobs([retentionJob]);
    await vi.waitFor(() => expect(sleep).toHaveBeenCalled());
    await stopJobs([retentionJob]);
    expect(retention()).toEqual([]);
    expect(items()).toHaveLength(3);

    // Now the pacer's waits pass on the platform's clock, which refills the bucket as the time would.
    sleep.mockImplementation(async (ms) => advanceTime(ms));
    await runRetentionSweep();
    expect(items()).toEqual([]);
  });
});
