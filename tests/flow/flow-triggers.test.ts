import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parse } from "smol-toml";
import { afterEach, describe, expect, test, vi } from "vitest";
import { afterAnswerSettled } from "~/lib/after-answer.server";
import { clock } from "~/lib/clock";
import { metricsRegistry } from "~/lib/metrics.server";
import { fanOutResumeJob } from "~/services/flow/fan-outs.server";
import { CUSTOMER_RATE, ITEM_SAVED_WINDOW_MS, SHOP_RATE } from "~/services/flow/item-saved-rules";
import { action as setupAction, loader as setupLoader } from "~/routes/app.setup";
import { TEST_ENV } from "../support/test-env";
import { loadAdmin, signedFlowLifecycle, signedWebhook } from "../support/admin";
import { APP_URL, callProxy, givenShop, sendToApp } from "../support/app";
import { aSaveRequest, anIdentity } from "../support/fixtures";
import { loggedLines, warningsContaining } from "../support/logs";
import { emulator } from "../support/platform";
import { withAdminSession } from "../support/session-token";
import { advanceTime } from "../support/time";

// Before any app module reads the configuration (tests/support/test-env.ts turns them off elsewhere).
vi.hoisted(() => {
  process.env.FLOW_TRIGGERS = "on";
});

afterEach(() => vi.restoreAllMocks());

const PRODUCT = "gid://shopify/Product/1";
const VARIANT = "gid://shopify/ProductVariant/11";
const OTHER_VARIANT = "gid://shopify/ProductVariant/12";

const fired = (shop: string) => emulator.flowTriggersFired(shop);
const TRIGGERS = ["item-saved", "saved-item-price-dropped", "saved-item-back-in-stock"];

/** Flow reports, as it does when a merchant turns a workflow on, that workflows start with the triggers. */
async function listening(shop: string, handles = TRIGGERS, enabled = true, timestamp?: string) {
  for (const handle of handles) {
    const response = await sendToApp(signedFlowLifecycle({ shop, handle, enabled, timestamp }));
    expect(response.status).toBe(204);
  }
  return shop;
}

async function save(customerId: string, overrides: Record<string, unknown> = {}) {
  const result = await callProxy("/proxy/api/save", { customerId, body: aSaveRequest(overrides) });
  expect(result.status).toBe(200);
}

/** A products/update delivery as the platform sends it; send it again for a redelivery. */
function productUpdate(shop: string, variants: { id: string; price: string; inventory?: number }[]) {
  const request = signedWebhook("products/update", {
    shop,
    payload: {
      id: 1,
      admin_graphql_api_id: PRODUCT,
      title: "Linen shirt",
      variants: variants.map((variant) => ({
        admin_graphql_api_id: variant.id,
        price: variant.price,
        ...(variant.inventory === undefined ? {} : { inventory_quantity: variant.inventory }),
      })),
    },
  });
  return async () => {
    const response = await sendToApp(request.clone());
    expect(response.status).toBe(200);
    await afterAnswerSettled();
  };
}

describe("Item saved", () => {
  test("fires after a save and a toggle-on, with the declared payload; not for a duplicate or a toggle-off", async () => {
    const shop = await listening(await givenShop({ plan: "starter" }));
    await save("1001");
    await afterAnswerSettled();
    const payload = { customer_id: 1001, product_id: 1, "Variant ID": "", "List name": "wishlist" };
    expect(fired(shop)).toEqual([{ handle: "item-saved", payload }]);

    expect((await callProxy("/proxy/api/save", { body: aSaveRequest() })).status).toBe(409);
    await callProxy("/proxy/api/toggle", { body: aSaveRequest() }); // off
    await afterAnswerSettled();
    expect(fired(shop)).toHaveLength(1);
    advanceTime(ITEM_SAVED_WINDOW_MS); // toggling on again within the window is the next test's
    await callProxy("/proxy/api/toggle", { body: aSaveRequest() }); // on
    await afterAnswerSettled();
    expect(fired(shop)).toEqual([
      { handle: "item-saved", payload },
      { handle: "item-saved", payload },
    ]);
    expect(emulator.schemaViolations).toEqual([]);
  });

  describe("at most once per customer, entity and window, under the customer's and the shop's rates", () => {
    const triggerRequests = (shop: string) =>
      emulator.requests.filter((request) => request.shop === shop && /SavedItemsFlowTrigger/.test(request.query ?? ""));
    const batch = async (customerId: string, operations: Record<string, unknown>[]) => {
      expect((await callProxy("/proxy/api/batch", { customerId, body: { operations } })).status).toBe(200);
      await afterAnswerSettled();
    };
    const products = (from: number, count: number) =>
      Array.from({ length: count }, (_, index) => ({
        action: "save",
        ...aSaveRequest({ entityGid: `gid://shopify/Product/${from + index}` }),
      }));

    test("toggling one product 100 times, across lists, fires one trigger; again only after the window", async () => {
      const shop = await listening(await givenShop({ plan: "pro" }));
      // A batch names an item once, so each of its toggles is the product in another list.
      const toggles = ["wishlist", "saved-for-later", ...Array.from({ length: 18 }, (_, index) => `list-${index}`)].map(
        (context) => ({ action: "toggle", ...aSaveRequest({ context }) }),
      );
      // Each batch is followed by the time its platform points take to refill (the customer's share
      // of the shop's bucket, docs/rate-limits.md), which this test is not about.
      const GAP_MS = 60_000;
      const paidBatch = async (operations: Record<string, unknown>[]) => {
        await batch("1001", operations);
        advanceTime(GAP_MS);
      };
      for (let round = 0; round < 5; round++) await paidBatch(toggles); // on, off, on, off, on
      expect(fired(shop)).toHaveLength(1);
      expect(triggerRequests(shop)).toHaveLength(1);

      // The first fire was at 0 and the clock is at 5 gaps: the next two batches stay inside the window.
      advanceTime(ITEM_SAVED_WINDOW_MS - 8 * GAP_MS);
      await paidBatch(toggles); // off
      await paidBatch(toggles); // on
      expect(fired(shop)).toHaveLength(1);
      advanceTime(2 * GAP_MS);
      await paidBatch(toggles); // off
      await paidBatch(toggles); // on
      expect(fired(shop)).toHaveLength(2);
      await batch("1002", toggles); // another customer is another pair
      expect(fired(shop)).toHaveLength(3);
    });

    test("one customer's distinct products fire up to the customer's burst; the others still fire", async () => {
      const shop = await listening(await givenShop({ plan: "pro" }));
      await batch("1001", products(1, CUSTOMER_RATE.capacity + 5));
      expect(fired(shop)).toHaveLength(CUSTOMER_RATE.capacity);
      await batch("1002", products(1, 1));
      expect(fired(shop)).toHaveLength(CUSTOMER_RATE.capacity + 1);
    });

    test("distinct pairs fire within the shop's rate; beyond it they are dropped, counted and logged once", async () => {
      const shop = await listening(await givenShop({ plan: "pro" }));
      let now = Date.now(); // the shop's rate refills with the app's clock: held still, moved by hand
      vi.spyOn(clock, "now").mockImplementation(() => new Date(now));
      const output = vi.spyOn(process.stdout, "write");
      const customers = Math.ceil((SHOP_RATE.capacity + 15) / CUSTOMER_RATE.capacity);
      for (let customer = 0; customer < customers; customer++)
        await batch(String(2001 + customer), products(1, CUSTOMER_RATE.capacity));
      expect(fired(shop)).toHaveLength(SHOP_RATE.capacity);
      expect(triggerRequests(shop)).toHaveLength(SHOP_RATE.capacity);
      const drops = output.mock.calls
        .map(([chunk]) => String(chunk))
        .filter((line) => line.includes("flow trigger over its rate") && line.includes(shop));
      expect(drops.map((line) => JSON.parse(line) as unknown)).toEqual([
        {
          t: expect.any(String),
          level: "warn",
          msg: "flow trigger over its rate: dropped",
          shop,
          trigger: "item-saved",
          reason: "shop-rate",
        },
      ]);
      const metrics = await metricsRegistry.getSingleMetricAsString("flow_triggers_dropped_total");
      expect(metrics).toMatch(/flow_triggers_dropped_total\{trigger="item-saved",reason="shop-rate"\} \d+/);

      now += 3_000; // three more tokens
      await batch("3001", products(1, 5));
      expect(fired(shop)).toHaveLength(SHOP_RATE.capacity + 3);
    });

    test("the payload names the list's kind, never the key a shopper chose", async () => {
      const shop = await listening(await givenShop({ plan: "pro" }));
      const contexts = ["wishlist", "saved-for-later", "call-me-555-0100", "<a href=https://evil.example>"];
      await batch(
        "1001",
        contexts.map((context, index) => ({
          action: "save",
          ...aSaveRequest({ context, entityGid: `gid://shopify/Product/${index + 1}` }),
        })),
      );
      expect(fired(shop).map((trigger) => trigger.payload["List name"])).toEqual([
        "wishlist",
        "saved-for-later",
        "other",
        "other",
      ]);
      expect(emulator.schemaViolations).toEqual([]);
    });
  });

  test("a batch fires for its saves only", async () => {
    const shop = await listening(await givenShop({ plan: "pro" }));
    await save("1001", { entityGid: "gid://shopify/Product/3" });
    const operations = [
      { action: "save", ...aSaveRequest({ entityGid: "gid://shopify/Product/2" }) },
      { action: "remove", ...anIdentity({ entityGid: "gid://shopify/Product/3" }) },
      { action: "save", ...aSaveRequest({ entityType: "collection", entityGid: "gid://shopify/Collection/4" }) },
    ];
    expect((await callProxy("/proxy/api/batch", { body: { operations } })).status).toBe(200);
    await afterAnswerSettled();
    expect(fired(shop).map((trigger) => trigger.payload.product_id)).toEqual([3, 2]);
  });

  describe("for a variant", () => {
    const variantReads = (shop: string) =>
      emulator.requests.filter((request) => request.shop === shop && /VariantProducts/.test(request.query ?? ""));
    const catalogue = (shop: string) =>
      emulator.addProducts(shop, [
        {
          id: PRODUCT,
          title: "Linen shirt",
          totalInventory: 5,
          variants: [VARIANT, OTHER_VARIANT].map((id) => ({ id, title: "M", price: "50.00", availableForSale: true })),
        },
      ]);

    test("fires with the variant's product and the variant; a batch's variants are read in one request", async () => {
      const shop = await listening(await givenShop({ plan: "starter" }));
      catalogue(shop);
      await save("1001", { entityType: "variant", entityGid: VARIANT });
      await afterAnswerSettled();
      expect(fired(shop)).toEqual([
        {
          handle: "item-saved",
          payload: { customer_id: 1001, product_id: 1, "Variant ID": VARIANT, "List name": "wishlist" },
        },
      ]);

      const operations = [OTHER_VARIANT, "gid://shopify/Product/2", VARIANT].map((entityGid) => ({
        action: "save",
        ...aSaveRequest({
          entityGid,
          context: "gifts",
          entityType: entityGid.includes("Variant") ? "variant" : "product",
        }),
      }));
      expect((await callProxy("/proxy/api/batch", { body: { operations } })).status).toBe(200);
      await afterAnswerSettled();
      expect(
        fired(shop)
          .slice(1)
          .map((trigger) => [trigger.payload.product_id, trigger.payload["Variant ID"]]),
      ).toEqual([
        [1, OTHER_VARIANT],
        [2, ""],
        // VARIANT again, in another list: this customer heard of it in this window
      ]);
      expect(variantReads(shop)).toHaveLength(2);
      expect(emulator.schemaViolations).toEqual([]);
    });

    test("without a workflow using the trigger, the variant's product is not read", async () => {
      const shop = await givenShop({ plan: "starter" });
      catalogue(shop);
      await save("1001", { entityType: "variant", entityGid: VARIANT });
      await afterAnswerSettled();
      expect(variantReads(shop)).toEqual([]);
      expect(fired(shop)).toEqual([]);
    });

    test("a variant deleted since fires nothing, and the batch's other saves still fire", async () => {
      const shop = await listening(await givenShop({ plan: "starter" }));
      const logged = loggedLines();
      const operations = [
        { action: "save", ...aSaveRequest({ entityType: "variant", entityGid: "gid://shopify/ProductVariant/99" }) },
        { action: "save", ...aSaveRequest({ entityGid: "gid://shopify/Product/2" }) },
      ];
      expect((await callProxy("/proxy/api/batch", { body: { operations } })).status).toBe(200);
      await afterAnswerSettled();
      expect(fired(shop).map((trigger) => trigger.payload.product_id)).toEqual([2]);
      expect(variantReads(shop)).toHaveLength(1);
      expect(logged({ level: "error" })).toEqual([]);
    });
  });

  test("Flow failing is logged and never fails the save", async () => {
    const shop = await listening(await givenShop({ plan: "starter" }));
    const logged = loggedLines();
    emulator.injectFault({ kind: "http500", api: "admin", operationName: "SavedItemsFlowTrigger" });
    await save("1001");
    await afterAnswerSettled();
    expect(fired(shop)).toEqual([]);
    expect(logged({ level: "error", text: "item-saved" })).not.toEqual([]);
  });
});

describe("products/update → price dropped and back in stock", () => {
  async function givenSavers() {
    const shop = await listening(await givenShop({ plan: "starter" }));
    await save("1001"); // the product
    await save("1001", { context: "gifts" }); // the same product in a second list: still one customer
    await save("1002", { entityType: "variant", entityGid: VARIANT });
    await save("1003", { entityGid: "gid://shopify/Product/2" }); // another product
    await callProxy("/proxy/api/save", { customerId: "1004", body: aSaveRequest() });
    await callProxy("/proxy/api/remove", { customerId: "1004", body: anIdentity() }); // no longer saved
    await afterAnswerSettled();
    return shop;
  }

  test("a drop on a product saved by two customers fires exactly two triggers; redelivery and a rise fire none", async () => {
    const shop = await givenSavers();
    const before = fired(shop).length;
    await productUpdate(shop, [{ id: VARIANT, price: "100.00" }])(); // the first price seen is the baseline
    expect(fired(shop)).toHaveLength(before);

    const drop = productUpdate(shop, [{ id: VARIANT, price: "80.00" }]);
    await drop();
    const drops = fired(shop).slice(before);
    expect(drops).toHaveLength(2);
    expect(drops).toEqual(
      expect.arrayContaining(
        [1001, 1002].map((customer) => ({
          handle: "saved-item-price-dropped",
          payload: { customer_id: customer, product_id: 1, "Variant ID": VARIANT, "Old price": 100, "New price": 80 },
        })),
      ),
    );

    await drop(); // the same webhook id again
    await productUpdate(shop, [{ id: VARIANT, price: "80.00" }])(); // a new delivery, nothing changed
    await productUpdate(shop, [{ id: VARIANT, price: "90.00" }])(); // a rise
    expect(fired(shop)).toHaveLength(before + 2);
    expect(emulator.schemaViolations).toEqual([]);
  });

  test("a webhook id is handled once, even when a later update makes its payload look new again", async () => {
    const shop = await givenSavers();
    const before = fired(shop).length;
    await productUpdate(shop, [{ id: VARIANT, price: "100.00" }])();
    const drop = productUpdate(shop, [{ id: VARIANT, price: "80.00" }]);
    await drop();
    await productUpdate(shop, [{ id: VARIANT, price: "100.00" }])(); // back up: the baseline is 100 again
    await drop(); // redelivered late: compared with 100 it would be a drop, but its id was handled
    expect(fired(shop)).toHaveLength(before + 2);
  });

  test("back in stock fires once per saver when inventory goes from none to some", async () => {
    const shop = await givenSavers();
    const before = fired(shop).length;
    await productUpdate(shop, [
      { id: VARIANT, price: "50.00", inventory: 0 },
      { id: OTHER_VARIANT, price: "50.00", inventory: 0 },
    ])();
    await productUpdate(shop, [
      { id: VARIANT, price: "50.00", inventory: 3 },
      { id: OTHER_VARIANT, price: "50.00", inventory: 2 },
    ])();
    const restocks = fired(shop).slice(before);
    // The product's saver hears once (of its first restocked variant); the variant's saver once.
    expect(restocks).toEqual(
      expect.arrayContaining([
        { handle: "saved-item-back-in-stock", payload: { customer_id: 1001, product_id: 1, "Variant ID": VARIANT } },
        { handle: "saved-item-back-in-stock", payload: { customer_id: 1002, product_id: 1, "Variant ID": VARIANT } },
      ]),
    );
    expect(restocks).toHaveLength(2);
    await productUpdate(shop, [{ id: VARIANT, price: "50.00", inventory: 5 }])(); // some to more
    expect(fired(shop)).toHaveLength(before + 2);
  });

  test("a payload the app cannot read is taken and dropped", async () => {
    const shop = await givenShop();
    const warnings = warningsContaining("webhook payload not understood");
    const response = await sendToApp(signedWebhook("products/update", { shop, payload: { id: 1 } }));
    expect(response.status).toBe(200);
    expect(warnings()).toHaveLength(1);
  });
});

/** The second customer's trigger is throttled through every retry: the platform ran none of them. */
const throttleTheSecondCustomer = () =>
  emulator.injectFault({
    kind: "throttled",
    api: "admin",
    operationName: "SavedItemsFlowTrigger",
    skip: 1,
    times: 9,
  });

describe("a fan-out cut short resumes", () => {
  /** Four savers of the product or its variant, told in customer order; only price drops listened to. */
  async function givenFourSavers() {
    const shop = await listening(await givenShop({ plan: "starter" }), ["saved-item-price-dropped"]);
    await save("1001");
    await save("1002", { entityType: "variant", entityGid: VARIANT });
    await save("1003");
    await save("1004", { entityType: "variant", entityGid: VARIANT });
    await afterAnswerSettled();
    await productUpdate(shop, [{ id: VARIANT, price: "100.00" }])(); // the baseline
    return shop;
  }

  const toldCustomers = (shop: string) => fired(shop).map((trigger) => trigger.payload.customer_id);
  const nothingChanged = (shop: string) => productUpdate(shop, [{ id: VARIANT, price: "80.00" }]);

  /** Moves the app's clock past the retry delay of a failed run (30 s). */
  function laterBy(ms: number) {
    const realNow = Date.now.bind(Date);
    vi.spyOn(Date, "now").mockImplementation(() => realNow() + ms);
  }

  test("throttled after the first customer: the next delivery after the retry delay tells the rest, each once", async () => {
    const shop = await givenFourSavers();
    const logged = loggedLines();
    throttleTheSecondCustomer();
    await productUpdate(shop, [{ id: VARIANT, price: "80.00" }])();
    expect(toldCustomers(shop)).toEqual([1001]);
    expect(logged({ level: "error", text: "fan-out" })).not.toEqual([]);

    await nothingChanged(shop)(); // too soon: the failed run's retry waits
    expect(toldCustomers(shop)).toEqual([1001]);

    laterBy(31_000);
    await nothingChanged(shop)();
    expect(toldCustomers(shop)).toEqual([1001, 1002, 1003, 1004]);
    expect(fired(shop).every((trigger) => trigger.payload["Old price"] === 100)).toBe(true);
    await nothingChanged(shop)(); // finished: nothing is left to resume
    expect(toldCustomers(shop)).toEqual([1001, 1002, 1003, 1004]);
  });

  test("with no further delivery, the fan-outs' background job tells the rest after the retry delay", async () => {
    const shop = await givenFourSavers();
    loggedLines();
    throttleTheSecondCustomer();
    await productUpdate(shop, [{ id: VARIANT, price: "80.00" }])();
    expect(toldCustomers(shop)).toEqual([1001]);

    const run = () => fanOutResumeJob.run(new AbortController().signal);
    await run(); // too soon: the failed run's retry waits
    expect(toldCustomers(shop)).toEqual([1001]);
    laterBy(31_000);
    await run();
    expect(toldCustomers(shop)).toEqual([1001, 1002, 1003, 1004]);
    await run(); // finished: nothing is left to resume
    expect(toldCustomers(shop)).toEqual([1001, 1002, 1003, 1004]);
  });

  test("a resumed fan-out tells nobody of a trigger whose workflow was turned off meanwhile", async () => {
    const shop = await listening(await givenFourSavers(), ["saved-item-back-in-stock"]);
    loggedLines();
    emulator.injectFault({ kind: "http500", api: "admin", operationName: "SavedItemsFlowTrigger", skip: 1 });
    await productUpdate(shop, [{ id: VARIANT, price: "80.00" }])();
    await listening(shop, ["saved-item-price-dropped"], false);

    laterBy(31_000);
    await nothingChanged(shop)();
    await listening(shop, ["saved-item-price-dropped"]);
    await nothingChanged(shop)(); // the resumed run finished the fan-out: nothing is left
    expect(toldCustomers(shop)).toEqual([1001]);
  });

  test("a failure that may have reached Flow counts as told: the rest hear once, that customer not again", async () => {
    const shop = await givenFourSavers();
    loggedLines();
    emulator.injectFault({ kind: "http500", api: "admin", operationName: "SavedItemsFlowTrigger", skip: 1 });
    await productUpdate(shop, [{ id: VARIANT, price: "80.00" }])();
    expect(toldCustomers(shop)).toEqual([1001]);

    laterBy(31_000);
    await nothingChanged(shop)();
    await nothingChanged(shop)();
    expect(toldCustomers(shop)).toEqual([1001, 1003, 1004]);
    expect(emulator.schemaViolations).toEqual([]);
  });
});

const INVENTORY_ITEM = "gid://shopify/InventoryItem/111";

/** The emulator's catalogue: the variant with its inventory item and total inventory (replaced on each call). */
function stock(shop: string, quantity: number) {
  emulator.addProducts(shop, [
    {
      id: PRODUCT,
      title: "Linen shirt",
      totalInventory: quantity,
      variants: [
        {
          id: VARIANT,
          title: "M",
          price: "50.00",
          availableForSale: quantity > 0,
          inventoryItemId: INVENTORY_ITEM,
          inventoryQuantity: quantity,
        },
      ],
    },
  ]);
}

/** An inventory_levels/update delivery for one location, as the platform sends it. */
function levelUpdate(shop: string, available: number) {
  const request = signedWebhook("inventory_levels/update", {
    shop,
    payload: {
      inventory_item_id: 111,
      location_id: 24826418,
      available,
      updated_at: "2026-11-23T08:30:00Z",
      admin_graphql_api_id: "gid://shopify/InventoryLevel/24826418?inventory_item_id=111",
    },
  });
  return async () => {
    const response = await sendToApp(request.clone());
    expect(response.status).toBe(200);
    await afterAnswerSettled();
  };
}

describe("inventory_levels/update → back in stock", () => {
  const inventoryRequests = (shop: string) =>
    emulator.requests.filter(
      (request) => request.shop === shop && /inventoryItem|flowTriggerReceive|FindSavers/.test(request.query ?? ""),
    );

  test("a saved variant from none to some fires back in stock once per saver; redelivery fires nothing", async () => {
    const shop = await listening(await givenShop({ plan: "starter" }));
    await save("1001"); // the product
    await save("1001", { context: "gifts" }); // the same product in a second list: still one customer
    await save("1002", { entityType: "variant", entityGid: VARIANT });
    await afterAnswerSettled();
    const before = fired(shop).length;

    stock(shop, 0);
    await levelUpdate(shop, 0)(); // the first inventory seen is the baseline
    expect(fired(shop)).toHaveLength(before);

    stock(shop, 4);
    const restock = levelUpdate(shop, 4);
    await restock();
    const restocks = fired(shop).slice(before);
    expect(restocks).toEqual(
      expect.arrayContaining(
        [1001, 1002].map((customer) => ({
          handle: "saved-item-back-in-stock",
          payload: { customer_id: customer, product_id: 1, "Variant ID": VARIANT },
        })),
      ),
    );
    expect(restocks).toHaveLength(2);

    await restock(); // the same webhook id again
    await levelUpdate(shop, 6)(); // a new delivery: some to more
    expect(fired(shop)).toHaveLength(before + 2);
    expect(emulator.schemaViolations).toEqual([]);
  });

  test("without a workflow using the trigger nothing is queried or fired", async () => {
    const shop = await givenShop({ plan: "starter" });
    await save("1001");
    await afterAnswerSettled();
    stock(shop, 0);
    await levelUpdate(shop, 0)();
    stock(shop, 4);
    await levelUpdate(shop, 4)();
    expect(fired(shop)).toEqual([]);
    expect(inventoryRequests(shop)).toEqual([]);
  });

  test("a payload the app cannot read is taken and dropped", async () => {
    const shop = await givenShop();
    const warnings = warningsContaining("webhook payload not understood");
    const response = await sendToApp(signedWebhook("inventory_levels/update", { shop, payload: { available: 1 } }));
    expect(response.status).toBe(200);
    expect(warnings()).toHaveLength(1);
  });
});

describe("Saved item low in stock", () => {
  const LOW = "saved-item-low-in-stock";

  /** The Setup page's form post, as the embedded admin's fetcher sends it with App Bridge's session token. */
  async function setThreshold(shop: string, threshold: string) {
    const request = await withAdminSession(
      new Request(new URL("/app/setup", APP_URL), { method: "POST", body: new URLSearchParams({ threshold }) }),
      { shop, apiKey: TEST_ENV.SHOPIFY_API_KEY, apiSecret: TEST_ENV.SHOPIFY_API_SECRET },
      "bearer",
    );
    return setupAction({ request, params: {}, context: {} });
  }

  /** Two savers of the product (one of them in two lists) and one of its variant; only low stock listened to. */
  async function givenSavers(threshold = "5") {
    const shop = await listening(await givenShop({ plan: "starter" }), [LOW]);
    expect(await setThreshold(shop, threshold)).toEqual({ ok: true, threshold: Number(threshold) });
    await save("1001");
    await save("1001", { context: "gifts" });
    await save("1002", { entityType: "variant", entityGid: VARIANT });
    await afterAnswerSettled();
    return shop;
  }

  const lowStock = (inventory: number, threshold = 5) =>
    [1001, 1002].map((customer) => ({
      handle: LOW,
      payload: {
        customer_id: customer,
        product_id: 1,
        "Variant ID": VARIANT,
        Inventory: inventory,
        Threshold: threshold,
      },
    }));
  const inventory = (shop: string, quantity: number) =>
    productUpdate(shop, [{ id: VARIANT, price: "50.00", inventory: quantity }]);

  test("products/update: falling to or below the threshold fires once per saver; staying low fires nothing, a restock above arms it again", async () => {
    const shop = await givenSavers();
    await inventory(shop, 9)(); // the baseline
    expect(fired(shop)).toEqual([]);
    const fall = inventory(shop, 5);
    await fall();
    expect(fired(shop)).toEqual(expect.arrayContaining(lowStock(5)));
    expect(fired(shop)).toHaveLength(2);

    await fall(); // the same webhook id again
    await inventory(shop, 2)(); // lower still: no new crossing
    await inventory(shop, 0)();
    expect(fired(shop)).toHaveLength(2);

    await inventory(shop, 6)(); // above again
    await inventory(shop, 1)(); // a second crossing: each saver hears once more
    expect(fired(shop).slice(2)).toEqual(expect.arrayContaining(lowStock(1)));
    expect(fired(shop)).toHaveLength(4);
    expect(emulator.schemaViolations).toEqual([]);
  });

  test("inventory_levels/update: the crossing fires once per saver, though no workflow uses back in stock", async () => {
    const shop = await givenSavers("3");
    stock(shop, 8);
    await levelUpdate(shop, 8)();
    stock(shop, 3);
    const fall = levelUpdate(shop, 3);
    await fall();
    await fall();
    expect(fired(shop)).toEqual(expect.arrayContaining(lowStock(3, 3)));
    expect(fired(shop)).toHaveLength(2);
  });

  test("without a threshold, or without a workflow using it, nothing fires", async () => {
    const shop = await givenSavers();
    expect(await setThreshold(shop, "")).toEqual({ ok: true, threshold: null });
    await inventory(shop, 9)();
    await inventory(shop, 1)();
    stock(shop, 1);
    await levelUpdate(shop, 1)();
    expect(fired(shop)).toEqual([]);

    await setThreshold(shop, "5");
    await listening(shop, [LOW], false);
    await inventory(shop, 9)();
    await inventory(shop, 1)();
    expect(fired(shop)).toEqual([]);
  });

  test("a fan-out cut short resumes: the next delivery after the retry delay tells the rest, each once", async () => {
    const shop = await givenSavers();
    loggedLines();
    await inventory(shop, 9)();
    throttleTheSecondCustomer();
    await inventory(shop, 4)();
    expect(fired(shop)).toHaveLength(1);
    const realNow = Date.now.bind(Date);
    vi.spyOn(Date, "now").mockImplementation(() => realNow() + 31_000);
    await inventory(shop, 4)(); // nothing changed: only the resume runs
    await inventory(shop, 4)();
    expect(fired(shop)).toEqual(expect.arrayContaining(lowStock(4)));
    expect(fired(shop)).toHaveLength(2);
  });

  test("the Setup page shows the threshold and refuses what is not a whole number of units", async () => {
    const shop = await givenSavers("12");
    expect((await loadAdmin(setupLoader, "/app/setup", shop)).lowStockThreshold).toBe(12);
    for (const threshold of ["-1", "1.5", "ten", "2000000", " 5"]) {
      expect(await setThreshold(shop, threshold)).toMatchObject({ ok: false, code: "VALIDATION_ERROR" });
    }
    expect((await loadAdmin(setupLoader, "/app/setup", shop)).lowStockThreshold).toBe(12);
  });
});

describe("Flow's trigger lifecycle callback", () => {
  const flowRequests = (shop: string) =>
    emulator.requests.filter(
      (request) => request.shop === shop && /flowTriggerReceive|FindSavers/.test(request.query ?? ""),
    );

  test("with no enabled workflow nothing is fired and no saver is searched for; Flow's newest report wins", async () => {
    const shop = await givenShop({ plan: "starter" });
    await save("1001");
    await afterAnswerSettled();
    await productUpdate(shop, [{ id: VARIANT, price: "50.00", inventory: 0 }])(); // the baseline
    await productUpdate(shop, [{ id: VARIANT, price: "40.00", inventory: 3 }])(); // a drop and a restock
    expect(fired(shop)).toEqual([]);
    expect(flowRequests(shop)).toEqual([]);

    await listening(shop, ["item-saved"], true, "2026-11-23T10:00:00Z");
    await listening(shop, ["item-saved"], false, "2026-11-23T09:00:00Z"); // older: ignored
    await save("1002");
    await afterAnswerSettled();
    expect(fired(shop).map((trigger) => trigger.handle)).toEqual(["item-saved"]);

    await listening(shop, ["item-saved"], false, "2026-11-23T11:00:00Z");
    await save("1003");
    await afterAnswerSettled();
    expect(fired(shop)).toHaveLength(1);
  });

  test("an unsigned or wrongly signed callback is refused and changes nothing", async () => {
    const shop = await givenShop({ plan: "starter" });
    const forged = signedFlowLifecycle({ shop, handle: "item-saved", enabled: true, secret: "not-the-app-secret" });
    expect((await sendToApp(forged)).status).toBe(401);
    const unsigned = signedFlowLifecycle({ shop, handle: "item-saved", enabled: true });
    unsigned.headers.delete("X-Shopify-Hmac-Sha256");
    expect((await sendToApp(unsigned)).status).toBe(401);
    await save("1001");
    await afterAnswerSettled();
    expect(fired(shop)).toEqual([]);
  });

  test("a report naming the trigger by its title, in any case and spacing, turns that trigger on", async () => {
    const shop = await listening(await givenShop({ plan: "starter" }), ["  ITEM   saved "]);
    await save("1001");
    await afterAnswerSettled();
    expect(fired(shop).map((trigger) => trigger.handle)).toEqual(["item-saved"]);
    await productUpdate(shop, [{ id: VARIANT, price: "50.00" }])(); // the baseline
    await productUpdate(shop, [{ id: VARIANT, price: "40.00" }])();
    expect(fired(shop).map((trigger) => trigger.handle)).toEqual(["item-saved"]);
  });

  test("an identifier the app cannot map is logged, and every trigger fires until Flow reports it unused", async () => {
    const shop = await givenShop({ plan: "starter" });
    const identifier = "gid://shopify/FlowTriggerDefinition/42";
    const output = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    await listening(shop, [identifier], true, "2026-11-23T10:00:00Z");
    const lines = output.mock.calls.map(([chunk]) => String(chunk)).filter((line) => line.includes(identifier));
    output.mockRestore();
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual([
      {
        t: expect.any(String),
        level: "warn",
        msg: "flow lifecycle report for an unmapped trigger identifier",
        shop,
        identifier,
        hasEnabledFlow: true,
      },
    ]);

    await save("1001");
    await afterAnswerSettled();
    await productUpdate(shop, [{ id: VARIANT, price: "50.00", inventory: 0 }])(); // the baseline
    await productUpdate(shop, [{ id: VARIANT, price: "40.00", inventory: 3 }])();
    expect(fired(shop).map((trigger) => trigger.handle)).toEqual([
      "item-saved",
      "saved-item-price-dropped",
      "saved-item-back-in-stock",
    ]);

    await listening(shop, [identifier], false, "2026-11-23T11:00:00Z");
    await save("1002");
    await afterAnswerSettled();
    expect(fired(shop)).toHaveLength(3);
  });
});

describe("the admin setup page lists the triggers", () => {
  test("name, whether a workflow uses each, when it last fired (stamped once a minute), and a link to Flow", async () => {
    const shop = await listening(
      await givenShop({ plan: "starter" }),
      ["item-saved", "saved-item-back-in-stock"],
      true,
      "2026-11-23T09:00:00Z",
    );
    await listening(shop, ["saved-item-back-in-stock"], false, "2026-11-23T10:00:00Z"); // turned off again
    const before = await loadAdmin(setupLoader, "/app/setup", shop);
    expect(before.flowUrl).toBe(`https://${shop}/admin/apps/flow`);
    expect(before.flowTriggers).toEqual({
      triggers: [
        {
          handle: "item-saved",
          name: "Item saved",
          inUse: true,
          reportedAt: "2026-11-23T09:00:00.000Z",
          lastFiredAt: null,
        },
        {
          handle: "saved-item-price-dropped",
          name: "Saved item price dropped",
          inUse: false,
          reportedAt: null,
          lastFiredAt: null,
        },
        {
          handle: "saved-item-back-in-stock",
          name: "Saved item back in stock",
          inUse: false,
          reportedAt: "2026-11-23T10:00:00.000Z",
          lastFiredAt: null,
        },
        {
          handle: "saved-item-low-in-stock",
          name: "Saved item low in stock",
          inUse: false,
          reportedAt: null,
          lastFiredAt: null,
        },
      ],
      unmapped: [],
    });

    const startedAt = Date.now();
    await save("1001");
    await afterAnswerSettled();
    const firstFiredBy = Date.now();
    await save("1001", { entityGid: "gid://shopify/Product/2" });
    await save("1002");
    await afterAnswerSettled();
    expect(fired(shop)).toHaveLength(3);

    const after = await loadAdmin(setupLoader, "/app/setup", shop);
    const { triggers } = after.flowTriggers;
    const lastFiredAt = Date.parse(triggers.find((trigger) => trigger.handle === "item-saved")!.lastFiredAt!);
    // Stamped by the first firing; the next two, within the minute, wrote nothing.
    expect(lastFiredAt).toBeGreaterThanOrEqual(startedAt);
    expect(lastFiredAt).toBeLessThanOrEqual(firstFiredBy);
    expect(triggers.filter((trigger) => trigger.lastFiredAt !== null)).toHaveLength(1);
  });

  test("names each trigger as its extension TOML does, the name Flow may report it by", async () => {
    const extensions = path.resolve(import.meta.dirname, "../../extensions");
    const declared = readdirSync(extensions)
      .filter((dir) => dir.startsWith("flow-") && dir !== "flow-trigger-lifecycle")
      .map((dir) => {
        const toml = parse(readFileSync(path.join(extensions, dir, "shopify.extension.toml"), "utf8")) as {
          extensions: { handle: string; name: string }[];
        };
        return { handle: toml.extensions[0]!.handle, name: toml.extensions[0]!.name };
      });
    const page = await loadAdmin(setupLoader, "/app/setup", await givenShop({ plan: "starter" }));
    expect(page.flowTriggers.triggers.map(({ handle, name }) => ({ handle, name }))).toEqual(
      expect.arrayContaining(declared),
    );
    expect(page.flowTriggers.triggers).toHaveLength(declared.length);
  });

  test("a trigger Flow named by its title is shown as reported; an unmapped identifier as Flow sent it, with every trigger in use", async () => {
    const shop = await listening(
      await givenShop({ plan: "starter" }),
      ["Saved item price dropped"],
      true,
      "2026-11-23T09:00:00Z",
    );
    const named = await loadAdmin(setupLoader, "/app/setup", shop);
    expect(named.flowTriggers.triggers.map(({ handle, inUse, reportedAt }) => ({ handle, inUse, reportedAt }))).toEqual(
      [
        { handle: "item-saved", inUse: false, reportedAt: null },
        { handle: "saved-item-price-dropped", inUse: true, reportedAt: "2026-11-23T09:00:00.000Z" },
        { handle: "saved-item-back-in-stock", inUse: false, reportedAt: null },
        { handle: "saved-item-low-in-stock", inUse: false, reportedAt: null },
      ],
    );

    vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    await listening(shop, ["Saved item: something new"], true, "2026-11-23T10:00:00Z");
    const unmapped = await loadAdmin(setupLoader, "/app/setup", shop);
    expect(unmapped.flowTriggers.unmapped).toEqual([
      { identifier: "Saved item: something new", enabled: true, reportedAt: "2026-11-23T10:00:00.000Z" },
    ]);
    expect(unmapped.flowTriggers.triggers.map((trigger) => trigger.inUse)).toEqual([true, true, true, true]);
  });
});
