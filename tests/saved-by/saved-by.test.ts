import { describe, expect, test } from "vitest";
import { afterAnswerSettled } from "~/lib/after-answer.server";
import { SAVED_BY_MAX_DELAY_MS } from "~/services/saved-by/flush-plan";
import { flushShop, runSavedBySweep } from "~/services/saved-by/saved-by-flush.server";
import { callProxy, givenCountingShop } from "../support/app";
import { aSaveRequest, anIdentity } from "../support/fixtures";
import { emulator, savedByMetafield } from "../support/platform";
import { advanceTime } from "../support/time";

const PRODUCT = "gid://shopify/Product/1";
const OTHER = "gid://shopify/Product/2";
/** The app's SEARCH_LAG_SECONDS default: a flush settles only marks at least this old. */
const SEARCH_LAG_MS = 60_000;

const customers = (count: number, first = 2001) => Array.from({ length: count }, (_, index) => String(first + index));

async function save(shop: string, customerId: string, overrides: Record<string, unknown> = {}) {
  const result = await callProxy("/proxy/api/save", { shop, customerId, body: aSaveRequest(overrides) });
  expect(result.status).toBe(200);
}

async function remove(shop: string, customerId: string, overrides: Record<string, unknown> = {}) {
  const result = await callProxy("/proxy/api/remove", { shop, customerId, body: anIdentity(overrides) });
  expect(result.status).toBe(200);
}

const savedBy = (shop: string, product = PRODUCT) => savedByMetafield(shop, product);

/** The requests the count cost the shop: which products exist, its searches for savers, its metafield writes. */
const countRequests = (shop: string) =>
  emulator.requests.filter(
    (request) =>
      request.shop === shop &&
      /SavedItemsExistingProducts|SavedItemsFindSavers|SavedItemsSetSavedBy|SavedItemsDeleteSavedBy/.test(
        request.query ?? "",
      ),
  ).length;

/** Past the maximum delay: every mark is due and the search has seen it. */
const waitOutTheDelay = () => advanceTime(SAVED_BY_MAX_DELAY_MS);

describe("Saved by N shoppers", () => {
  test("the count reaches the product's metafield after the flush, never below 5, each shopper once", async () => {
    const shop = await givenCountingShop({ products: [PRODUCT, OTHER] });
    for (const customerId of customers(4)) await save(shop, customerId);
    // One of them has it in a second list too: still one shopper.
    await save(shop, "2001", { context: "saved-for-later" });
    await afterAnswerSettled();
    waitOutTheDelay();
    await runSavedBySweep();
    expect(savedBy(shop)).toBeUndefined();

    await save(shop, "2005");
    await afterAnswerSettled();
    waitOutTheDelay();
    await runSavedBySweep();
    expect(savedBy(shop)).toBe(5);
    expect(emulator.schemaViolations).toEqual([]);
  });

  test("what shows is a step (5, 10, 25, …): one shopper saving or removing inside a step changes nothing", async () => {
    const shop = await givenCountingShop({ products: [PRODUCT, OTHER] });
    const flushed = async () => {
      await afterAnswerSettled();
      waitOutTheDelay();
      await runSavedBySweep();
      return savedBy(shop);
    };
    for (const customerId of customers(6)) await save(shop, customerId);
    expect(await flushed()).toBe(5);
    // Four accounts watching a product no longer see each other shopper come and go.
    await save(shop, "2007");
    expect(await flushed()).toBe(5);
    await remove(shop, "2001");
    expect(await flushed()).toBe(5);
    for (const customerId of customers(4, 2008)) await save(shop, customerId); // 10 shoppers
    expect(await flushed()).toBe(10);
    expect(emulator.schemaViolations).toEqual([]);
  });

  test("a removal that takes it below 5 deletes the metafield; one leaving another list keeps the shopper", async () => {
    const shop = await givenCountingShop({ products: [PRODUCT, OTHER] });
    for (const customerId of customers(5)) await save(shop, customerId);
    await save(shop, "2001", { context: "saved-for-later" });
    await afterAnswerSettled();
    waitOutTheDelay();
    await runSavedBySweep();
    expect(savedBy(shop)).toBe(5);

    await remove(shop, "2001", { context: "saved-for-later" });
    await afterAnswerSettled();
    waitOutTheDelay();
    await runSavedBySweep();
    expect(savedBy(shop)).toBe(5);

    await remove(shop, "2002");
    await afterAnswerSettled();
    waitOutTheDelay();
    await runSavedBySweep();
    expect(savedBy(shop)).toBeUndefined();
  });

  test("a save's answer costs no count request: the marks wait for the sweep", async () => {
    const shop = await givenCountingShop({ products: [PRODUCT, OTHER] });
    for (const customerId of customers(6)) await save(shop, customerId);
    await afterAnswerSettled();
    expect(countRequests(shop)).toBe(0);
    waitOutTheDelay();
    await runSavedBySweep();
    expect(countRequests(shop)).toBe(3); // which products exist, one search, one write
  });

  test("staleness: a quiet product waits at most the maximum delay after its saves stop", async () => {
    const shop = await givenCountingShop({ products: [PRODUCT, OTHER] });
    for (const customerId of customers(5)) await save(shop, customerId);
    await afterAnswerSettled();
    // Five saves cannot pay for a recount (2 requests): the sweeps wait ...
    advanceTime(SAVED_BY_MAX_DELAY_MS - 1_000);
    await runSavedBySweep();
    expect(savedBy(shop)).toBeUndefined();
    expect(countRequests(shop)).toBe(0);
    // ... until the first mark has waited the delay.
    advanceTime(1_000);
    await runSavedBySweep();
    expect(savedBy(shop)).toBe(5);
  });

  test("a save the search may not have seen keeps the product due until it has", async () => {
    const shop = await givenCountingShop({ products: [PRODUCT, OTHER] });
    emulator.setSearchLag(SEARCH_LAG_MS);
    for (const customerId of customers(9)) await save(shop, customerId);
    await afterAnswerSettled();
    advanceTime(SAVED_BY_MAX_DELAY_MS - 10_000);
    await save(shop, "2010"); // the tenth shopper, the next step, 10 s before the first mark is due: the search shows it only later
    await afterAnswerSettled();
    advanceTime(10_000);
    await runSavedBySweep();
    expect(savedBy(shop)).toBe(5);
    // Not settled: due again once the search can have seen the last save, 50 s from now, and
    // counted once the window since this count has passed (one count of a product per window).
    advanceTime(SEARCH_LAG_MS - 10_000);
    await runSavedBySweep();
    expect(savedBy(shop)).toBe(5);
    advanceTime(SAVED_BY_MAX_DELAY_MS - (SEARCH_LAG_MS - 10_000) - 1_000);
    await runSavedBySweep();
    expect(savedBy(shop)).toBe(5);
    advanceTime(1_000);
    await runSavedBySweep();
    expect(savedBy(shop)).toBe(10);
  });

  test("cost: busy saves are flushed at no more than one platform request per 10 saves", async () => {
    const shop = await givenCountingShop({ products: [PRODUCT, OTHER] });
    let saves = 0;
    for (const [index, customerId] of customers(60).entries()) {
      await save(shop, customerId, { entityGid: index % 3 === 0 ? OTHER : PRODUCT });
      saves += 1;
      await afterAnswerSettled();
      // A sweep after every save, without time passing: only the saves' number can make a flush worth it.
      await runSavedBySweep();
    }
    expect(savedBy(shop)).toBeGreaterThanOrEqual(5);
    expect(countRequests(shop)).toBeGreaterThan(0);
    expect(countRequests(shop) / saves).toBeLessThanOrEqual(0.1);
    // 60 saves and sweeps one after another: seconds of CPU, more beside the other test files.
  }, 60_000);

  test("saves spread over products nobody else saved cost no request: none can have reached 5", async () => {
    const shop = await givenCountingShop({ products: [PRODUCT, OTHER] });
    for (const [index, customerId] of customers(12).entries()) {
      await save(shop, customerId, { entityGid: `gid://shopify/Product/${100 + index}` });
    }
    await afterAnswerSettled();
    waitOutTheDelay();
    await runSavedBySweep();
    expect(countRequests(shop)).toBe(0);
    expect(emulator.metafields(shop)).toEqual([]);
  });

  test("two instances sweeping at once recount once: the shop's lock, then nothing is due", async () => {
    const shop = await givenCountingShop({ products: [PRODUCT, OTHER] });
    for (const customerId of customers(5)) await save(shop, customerId);
    await afterAnswerSettled();
    waitOutTheDelay();
    const reports = await Promise.all([flushShop(shop), flushShop(shop)]);
    expect(reports.filter(Boolean)).toHaveLength(1);
    expect(countRequests(shop)).toBe(3);
    expect(savedBy(shop)).toBe(5);
  });
});
