import { afterEach, describe, expect, test, vi } from "vitest";
import db from "~/db.server";
import { runDueRedactions } from "~/services/compliance/pending-redactions.server";
import { afterAuth } from "~/shopify.server";
import { deliverWebhook, reinstall } from "../support/admin";
import { callProxy, givenShop } from "../support/app";
import { ALICE, BOB, customers, gid, owners, redact } from "../support/compliance";
import { aSaveRequest } from "../support/fixtures";
import { emulator } from "../support/platform";
import { advanceTime } from "../support/time";
import { loggedLines } from "../support/logs";

afterEach(() => vi.restoreAllMocks());

/** Each customer saves two products in "wishlist" and one in "gifts". */
async function givenSavedItems(shop: string) {
  for (const customerId of [ALICE, BOB]) {
    for (const [context, product] of [
      ["wishlist", 1],
      ["wishlist", 2],
      ["gifts", 3],
    ] as const) {
      const saved = await callProxy("/proxy/api/save", {
        shop,
        customerId,
        body: aSaveRequest({
          context,
          entityGid: `gid://shopify/Product/${product}`,
          snapshot: { title: `P${product}` },
        }),
      });
      expect(saved.status).toBe(200);
    }
  }
  // One removed save: data the customer still has with the app.
  await callProxy("/proxy/api/remove", {
    shop,
    customerId: ALICE,
    body: { context: "wishlist", entityType: "product", entityGid: "gid://shopify/Product/2" },
  });
}

/** When a pass that finds nothing completes a redaction: 30 s for writes under way, plus the 60 s search bound. */
const SETTLE_MS = 90_000;

/** Time passes until the redaction settles, and the instances' timer runs what is due. */
async function afterTheSearchCaughtUp(): Promise<void> {
  advanceTime(SETTLE_MS);
  await runDueRedactions(10);
}

describe("customers/redact", () => {
  test("deletes exactly that customer's save_items and save_lists, in every context, and nothing else; completes only after a later pass", async () => {
    const shop = await givenShop({ plan: "pro", customers });
    const other = await givenShop({ domain: "other.myshopify.com", plan: "pro", customers });
    await givenSavedItems(shop);
    await givenSavedItems(other);
    expect(owners(shop, "$app:save_item")).toEqual([...Array(3).fill(gid(ALICE)), ...Array(3).fill(gid(BOB))]);
    expect(owners(shop, "$app:save_list")).toEqual([gid(ALICE), gid(ALICE), gid(BOB), gid(BOB)]);
    const bobItemsBefore = emulator
      .metaobjects(shop, "$app:save_item")
      .filter((e) => e.fields.customer_id === gid(BOB));

    const response = await redact(shop, ALICE);

    expect(response.status).toBe(200);
    // Everything was found, but a search that lags writes cannot prove that: it looks again later.
    expect(await response.json()).toEqual({
      topic: "CUSTOMERS_REDACT",
      customerId: gid(ALICE),
      status: "pending",
      deleted: { items: 3, lists: 2 },
      nextPassAt: expect.any(String),
    });
    expect(owners(shop, "$app:save_item")).toEqual(Array(3).fill(gid(BOB)));
    expect(owners(shop, "$app:save_list")).toEqual([gid(BOB), gid(BOB)]);
    expect(emulator.metaobjects(shop, "$app:save_item")).toEqual(bobItemsBefore);
    // The same customer id on another shop is another shop's data.
    expect(owners(other, "$app:save_item")).toHaveLength(6);
    // Bob is served as before; Alice starts from nothing.
    const bob = await callProxy("/proxy/api/list", { shop, customerId: BOB, query: { context: "wishlist" } });
    expect(bob.body.data.items).toHaveLength(2);
    const alice = await callProxy("/proxy/api/list", { shop, customerId: ALICE, query: { context: "gifts" } });
    expect(alice.body.data.items).toEqual([]);
    expect(await db.pendingCustomerRedaction.count()).toBe(1);

    loggedLines();
    await afterTheSearchCaughtUp();

    expect(await db.pendingCustomerRedaction.count()).toBe(0);
    expect(owners(shop, "$app:save_item")).toEqual(Array(3).fill(gid(BOB)));
  });

  test("deletes the customer's list directory with the lists create-list made", async () => {
    const shop = await givenShop({ plan: "pro", customers });
    for (const customerId of [ALICE, BOB]) {
      const created = await callProxy("/proxy/api/create-list", { shop, customerId, body: { name: "Gifts" } });
      expect(created.status).toBe(200);
    }
    expect(owners(shop, "$app:save_list_directory")).toEqual([gid(ALICE), gid(BOB)]);

    await redact(shop, ALICE);

    expect(owners(shop, "$app:save_list_directory")).toEqual([gid(BOB)]);
    expect(owners(shop, "$app:save_list")).toEqual([gid(BOB)]);
  });

  test("is idempotent: a redelivery, or a customer with nothing saved, succeeds and deletes nothing more", async () => {
    const shop = await givenShop({ plan: "pro", customers });
    await givenSavedItems(shop);
    await redact(shop, ALICE);
    const again = await redact(shop, ALICE);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ status: "pending", deleted: { items: 0, lists: 0 } });
    expect(owners(shop, "$app:save_item")).toHaveLength(3);
    expect((await redact(shop, "424242")).status).toBe(200);
  });

  test("a redaction that fails half-way answers 500, and the redelivery finishes it", async () => {
    const shop = await givenShop({ plan: "pro", customers });
    await givenSavedItems(shop);
    loggedLines();
    // Items are gone after the first two requests; the lists phase then fails.
    emulator.injectFault({ kind: "http500", api: "admin", operationName: "SavedItemsComplianceCustomerListIds" });

    const failed = await redact(shop, ALICE);

    expect(failed.status).toBe(500);
    expect(owners(shop, "$app:save_item")).toEqual(Array(3).fill(gid(BOB)));
    expect(owners(shop, "$app:save_list")).toEqual([gid(ALICE), gid(ALICE), gid(BOB), gid(BOB)]);
    expect(await db.pendingCustomerRedaction.findMany()).toEqual([
      expect.objectContaining({ shopDomain: shop, customerGid: gid(ALICE), claimToken: null, attempts: 1 }),
    ]);

    const redelivered = await redact(shop, ALICE);

    expect(redelivered.status).toBe(200);
    expect(await redelivered.json()).toMatchObject({ status: "pending", deleted: { items: 0, lists: 2 } });
    expect(owners(shop, "$app:save_list")).toEqual([gid(BOB), gid(BOB)]);
    expect(await db.pendingCustomerRedaction.count()).toBe(1);
  });

  test("while the app is uninstalled it is recorded, carried out on reinstall, and completed by a later pass", async () => {
    const shop = await givenShop({ plan: "pro", customers });
    await givenSavedItems(shop);
    await deliverWebhook("app/uninstalled", { shop });
    loggedLines();

    const response = await redact(shop, ALICE);

    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: "deferred" });
    expect(owners(shop, "$app:save_item")).toHaveLength(6);

    // Without access nothing can be deleted, however long it waits.
    await afterTheSearchCaughtUp();
    expect(owners(shop, "$app:save_item")).toHaveLength(6);

    await reinstall(shop, afterAuth);

    expect(owners(shop, "$app:save_item")).toEqual(Array(3).fill(gid(BOB)));
    expect(owners(shop, "$app:save_list")).toEqual([gid(BOB), gid(BOB)]);
    expect(await db.pendingCustomerRedaction.count()).toBe(1);
    advanceTime(60_000);
    await runDueRedactions(10);
    expect(await db.pendingCustomerRedaction.count()).toBe(0);
  });
});

describe("customers/data_request", () => {
  test("assembles every save_list and save_item of that customer, removed saves included, and logs the record", async () => {
    const shop = await givenShop({ plan: "pro", customers });
    await givenSavedItems(shop);
    const logged = loggedLines();

    const response = await deliverWebhook("customers/data_request", {
      shop,
      payload: {
        shop_id: 1,
        shop_domain: shop,
        orders_requested: [],
        customer: { id: Number(ALICE), email: "alice@example.com", phone: null },
        data_request: { id: 77 },
      },
    });

    expect(response.status).toBe(200);
    const { record } = await response.json();
    expect(record).toMatchObject({ shop, customerId: gid(ALICE), dataRequestId: "77", appInstalled: true });
    expect(record.lists.map((list: { context: string }) => list.context).sort()).toEqual(["gifts", "wishlist"]);
    expect(
      record.items.map((item: any) => `${item.context} ${item.entityGid} ${item.status} ${item.snapshot.title}`).sort(),
    ).toEqual([
      "gifts gid://shopify/Product/3 active P3",
      "wishlist gid://shopify/Product/1 active P1",
      "wishlist gid://shopify/Product/2 removed P2",
    ]);
    expect(record.items[0]).toEqual({
      id: expect.stringMatching(/^gid:\/\/shopify\/Metaobject\//),
      context: expect.any(String),
      entityType: "product",
      entityGid: expect.any(String),
      status: expect.any(String),
      source: "product-page",
      savedAt: expect.any(String),
      updatedAt: expect.any(String),
      snapshot: expect.any(Object),
    });
    expect(logged({ level: "info", text: "[compliance] customers/data_request" })).toEqual([
      expect.objectContaining({ record: expect.objectContaining({ customerId: gid(ALICE) }) }),
    ]);
    // Reading changes nothing.
    expect(owners(shop, "$app:save_item")).toHaveLength(6);
  });

  test("for an uninstalled shop it answers with an empty record that says the app had no access", async () => {
    const shop = await givenShop({ plan: "pro", installed: false, customers });
    loggedLines();
    const response = await deliverWebhook("customers/data_request", { shop, payload: { customer: { id: 1001 } } });
    expect(response.status).toBe(200);
    expect((await response.json()).record).toMatchObject({ appInstalled: false, lists: [], items: [] });
  });

  test("a payload without a customer id is refused with 400", async () => {
    const shop = await givenShop();
    loggedLines();
    for (const customer of [undefined, { id: "1 OR fields.status:active" }]) {
      const response = await deliverWebhook("customers/data_request", { shop, payload: { customer } });
      expect(response.status).toBe(400);
    }
    expect(emulator.countRequests()).toBe(0);
  });
});

describe("shop/redact", () => {
  test("deletes the shop's records, usage counters and sessions; the saved items on the platform are not the app's to delete", async () => {
    const shop = await givenShop({ plan: "pro", customers });
    const kept = await givenShop({ domain: "kept.myshopify.com", plan: "starter" });
    await givenSavedItems(shop);
    await callProxy("/proxy/api/list", { shop: kept, query: { context: "w" } });
    await deliverWebhook("app/uninstalled", { shop });
    await db.session.create({ data: { id: `stale_${shop}`, shop, state: "", accessToken: "x" } });
    await db.savedByRecount.create({ data: { shopDomain: shop, runAfter: new Date() } });
    await db.listRetention.create({ data: { shopDomain: shop, runAfter: new Date() } });

    const response = await deliverWebhook("shop/redact", { shop, payload: { shop_id: 1, shop_domain: shop } });

    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ topic: "SHOP_REDACT", result: { redacted: true } });
    expect(await db.shop.findUnique({ where: { domain: shop } })).toBeNull();
    expect(await db.usageCounter.count({ where: { shopDomain: shop } })).toBe(0);
    expect(await db.session.count({ where: { shop } })).toBe(0);
    expect(await db.savedByRecount.count({ where: { shopDomain: shop } })).toBe(0);
    expect(await db.listRetention.count({ where: { shopDomain: shop } })).toBe(0);
    // Other shops are untouched.
    expect(await db.shop.findUnique({ where: { domain: kept } })).not.toBeNull();
    expect(await db.usageCounter.count({ where: { shopDomain: kept } })).toBe(1);
    // Idempotent.
    expect((await deliverWebhook("shop/redact", { shop, payload: { shop_id: 1, shop_domain: shop } })).status).toBe(
      200,
    );
  });

  test("a shop that has reinstalled since is left alone", async () => {
    const shop = await givenShop({ plan: "pro" });
    await callProxy("/proxy/api/list", { query: { context: "w" } });
    const response = await deliverWebhook("shop/redact", { shop, payload: { shop_id: 1, shop_domain: shop } });
    expect(await response.json()).toEqual({ topic: "SHOP_REDACT", result: { redacted: false, reason: "reinstalled" } });
    expect(await db.shop.findUnique({ where: { domain: shop } })).not.toBeNull();
    expect((await callProxy("/proxy/api/list", { query: { context: "w" } })).status).toBe(200);
  });
});
