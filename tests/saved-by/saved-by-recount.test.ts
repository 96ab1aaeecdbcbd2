import { describe, expect, test } from "vitest";
import prisma from "~/db.server";
import { afterAnswerSettled } from "~/lib/after-answer.server";
import { clock } from "~/lib/clock";
import { SAVED_BY_MAX_DELAY_MS } from "~/services/saved-by/flush-plan";
import { RECOUNT_INTERVAL_MS, RECOUNT_LEASE_MS, RECOUNT_RETRY_MS } from "~/services/saved-by/recount-plan";
import { runSavedBySweep } from "~/services/saved-by/saved-by-flush.server";
import { runSavedByRecounts } from "~/services/saved-by/saved-by-recount.server";
import { callProxy, givenCountingShop, givenShop } from "../support/app";
import { aSaveRequest } from "../support/fixtures";
import { emulator, savedByMetafield } from "../support/platform";
import { advanceTime } from "../support/time";

const PRODUCT = "gid://shopify/Product/1";
const OTHER = "gid://shopify/Product/2";

const customers = (count: number, first = 3001) => Array.from({ length: count }, (_, index) => String(first + index));

async function save(shop: string, customerId: string, entityGid = PRODUCT) {
  const result = await callProxy("/proxy/api/save", { shop, customerId, body: aSaveRequest({ entityGid }) });
  expect(result.status).toBe(200);
  await afterAnswerSettled();
}

/**
 * Saves of a product nobody had marked whose answers went out but whose marks never reached the
 * database (the process killed before the write, the database refusing it): the product has no row.
 */
async function saveWithLostMarks(shop: string, customerIds: readonly string[], productGid = PRODUCT) {
  for (const customerId of customerIds) await save(shop, customerId, productGid);
  await prisma.savedByProduct.deleteMany({ where: { shopDomain: shop, productGid } });
}

const savedBy = (shop: string, product = PRODUCT) => savedByMetafield(shop, product);

/** Bulk query requests the platform answered for the shop (a day's wait expires the token: its 401 is retried). */
const bulkQueries = (shop: string) =>
  emulator.requests.filter(
    (request) => request.shop === shop && request.operationName === "SavedItemsRunBulkQuery" && request.status === 200,
  ).length;

/** A recount from start to marks: one sweep starts the bulk query, the next reads its result. */
async function recount(): Promise<void> {
  await runSavedByRecounts();
  await runSavedByRecounts();
}

/** Past the flush's maximum delay, then a flush sweep: every due product is recounted. */
async function flush(): Promise<void> {
  advanceTime(SAVED_BY_MAX_DELAY_MS);
  await runSavedBySweep();
}

describe("The daily recount of saved-by counts", () => {
  test("saves whose marks were lost reach the product's metafield after the recount and a flush", async () => {
    const shop = await givenCountingShop({ products: [PRODUCT, OTHER] });
    await saveWithLostMarks(shop, customers(5));
    await flush();
    expect(savedBy(shop)).toBeUndefined();

    await recount();
    expect(bulkQueries(shop)).toBe(1);
    // The recount's marks wait for no saves: the next flush sweep takes them.
    await runSavedBySweep();
    expect(savedBy(shop)).toBe(5);
    expect(emulator.schemaViolations).toEqual([]);
  });

  test("a shop that has not granted write_products starts no recount; once granted, its next sweep does", async () => {
    const shop = await givenShop({ plan: "pro" });
    emulator.addProducts(shop, [{ id: PRODUCT, title: "Shoe", totalInventory: 1, variants: [] }]);
    await saveWithLostMarks(shop, customers(5));
    await recount();
    expect(bulkQueries(shop)).toBe(0);

    emulator.grantOptionalScopes(shop, ["write_products"]);
    advanceTime(RECOUNT_RETRY_MS);
    await recount();
    expect(bulkQueries(shop)).toBe(1);
    await runSavedBySweep();
    expect(savedBy(shop)).toBe(5);
  });

  test("products saved before the count existed get their bound, and show a count once it reaches 5", async () => {
    const shop = await givenCountingShop({ products: [PRODUCT, OTHER] });
    await saveWithLostMarks(shop, customers(4));
    await recount();
    await flush();
    expect(savedBy(shop)).toBeUndefined();

    // Before the recount seeded the bound of 4, this one save could not have made it eligible.
    await save(shop, "3005");
    await flush();
    expect(savedBy(shop)).toBe(5);
  });

  test("once a day at most, and only for a shop that saved since its last recount", async () => {
    const shop = await givenCountingShop({ products: [PRODUCT, OTHER] });
    await recount();
    expect(bulkQueries(shop)).toBe(1);

    await saveWithLostMarks(shop, customers(5));
    await save(shop, "3100", OTHER);
    advanceTime(RECOUNT_INTERVAL_MS - 60_000);
    await recount();
    expect(bulkQueries(shop)).toBe(1);

    advanceTime(60_000);
    await recount();
    expect(bulkQueries(shop)).toBe(2);
    await flush();
    expect(savedBy(shop)).toBe(5);

    // A day later with no save since: nothing to recount.
    advanceTime(RECOUNT_INTERVAL_MS);
    await recount();
    expect(bulkQueries(shop)).toBe(2);
  });

  test("a save marked while the bulk query runs is not lost to the snapshot's smaller count", async () => {
    const shop = await givenCountingShop({ products: [PRODUCT, OTHER] });
    await recount();
    await saveWithLostMarks(shop, customers(4));
    await save(shop, "3100", OTHER);
    advanceTime(RECOUNT_INTERVAL_MS);
    emulator.setBulkOperationDuration(60_000);
    await runSavedByRecounts();
    // The fifth shopper saves after the snapshot began; the flush settles the product without a
    // count (its bound of 1 cannot have reached 5) before the recount's result is read.
    await save(shop, "3005");
    await flush();
    expect(savedBy(shop)).toBeUndefined();

    await runSavedByRecounts();
    await flush();
    expect(savedBy(shop)).toBe(5);
  });

  test("a recount whose instance died mid-step is taken over from the database once its lease ends", async () => {
    const shop = await givenCountingShop({ products: [PRODUCT, OTHER] });
    await saveWithLostMarks(shop, customers(5));
    await runSavedByRecounts();
    // An instance claimed the poll and died before handing it back.
    await prisma.savedByRecount.update({
      where: { shopDomain: shop },
      data: { claimToken: "dead", runAfter: new Date(clock.now().getTime() + RECOUNT_LEASE_MS) },
    });
    await runSavedByRecounts();
    await flush();
    expect(savedBy(shop)).toBeUndefined();

    advanceTime(RECOUNT_LEASE_MS);
    await runSavedByRecounts();
    await flush();
    expect(savedBy(shop)).toBe(5);
    expect(bulkQueries(shop)).toBe(1);
  });

  test("a recount the platform refused to start is tried again after the retry delay, not at every sweep", async () => {
    const shop = await givenCountingShop({ products: [PRODUCT, OTHER] });
    await saveWithLostMarks(shop, customers(5));
    emulator.injectFault({ kind: "graphqlErrors", shop, operationName: "SavedItemsRunBulkQuery" });
    await runSavedByRecounts();
    const refused = bulkQueries(shop);
    advanceTime(RECOUNT_RETRY_MS - 1_000);
    await runSavedByRecounts();
    expect(bulkQueries(shop)).toBe(refused);

    advanceTime(1_000);
    await recount();
    expect(bulkQueries(shop)).toBe(refused + 1);
    await flush();
    expect(savedBy(shop)).toBe(5);
  });

  test("instances sweeping together run each step once", async () => {
    const shop = await givenCountingShop({ products: [PRODUCT, OTHER] });
    await saveWithLostMarks(shop, customers(5));
    await Promise.all([runSavedByRecounts(), runSavedByRecounts()]);
    expect(bulkQueries(shop)).toBe(1);
    await Promise.all([runSavedByRecounts(), runSavedByRecounts()]);
    await flush();
    expect(savedBy(shop)).toBe(5);
  });
});
