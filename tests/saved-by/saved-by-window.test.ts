import { describe, expect, test } from "vitest";
import { afterAnswerSettled } from "~/lib/after-answer.server";
import { SAVED_BY_MAX_DELAY_MS } from "~/services/saved-by/flush-plan";
import { runSavedBySweep } from "~/services/saved-by/saved-by-flush.server";
import { SAVED_BY_SWEEP_INTERVAL_MS } from "~/services/saved-by/saved-by-sweeps.server";
import { callProxy, givenCountingShop } from "../support/app";
import { aSaveRequest } from "../support/fixtures";
import { emulator, savedByMetafield } from "../support/platform";
import { advanceTime } from "../support/time";

/**
 * Shoppers toggling a popular product cannot keep a Standard shop's restore rate busy with its
 * recounts (issue #31, B5): its marks coalesce, and it is counted at most once per window
 * (SAVED_BY_MAX_DELAY_MS, decision 0010), however many toggles would pay for more.
 */

const PRODUCT = "gid://shopify/Product/1";
const counts = () => emulator.requests.filter((request) => request.operationName === "SavedItemsFindSavers").length;

async function toggle(shop: string, customerId: string) {
  const result = await callProxy("/proxy/api/toggle", { shop, customerId, body: aSaveRequest({ entityGid: PRODUCT }) });
  expect(result.status).toBe(200);
}

describe("a popular product toggled again and again", () => {
  test("108 toggles within the window after its count cause no recount; the next window counts it once", async () => {
    const shop = await givenCountingShop({ products: [PRODUCT] });
    const savers = ["3001", "3002", "3003", "3004", "3005"];
    for (const customerId of savers) await toggle(shop, customerId);
    await afterAnswerSettled();
    advanceTime(SAVED_BY_MAX_DELAY_MS);
    await runSavedBySweep();
    expect(savedByMetafield(shop, PRODUCT)).toBe(5);
    const afterFirstCount = counts();
    expect(afterFirstCount).toBeGreaterThan(0);

    // Six shoppers toggle it twice between sweeps (a sweep every 30 s), 108 toggles in all, within the window of its count.
    const togglers = ["4001", "4002", "4003", "4004", "4005", "4006"];
    const sweeps = Math.floor((SAVED_BY_MAX_DELAY_MS - 1_000) / SAVED_BY_SWEEP_INTERVAL_MS);
    for (let sweep = 0; sweep < sweeps; sweep++) {
      for (const customerId of togglers) {
        await toggle(shop, customerId);
        await toggle(shop, customerId);
      }
      await afterAnswerSettled();
      advanceTime(SAVED_BY_SWEEP_INTERVAL_MS - 100);
      await runSavedBySweep();
    }
    expect(sweeps * togglers.length * 2).toBe(108);
    expect(counts()).toBe(afterFirstCount);

    advanceTime(SAVED_BY_MAX_DELAY_MS);
    await runSavedBySweep();
    expect(counts()).toBe(afterFirstCount + 1);
    expect(savedByMetafield(shop, PRODUCT)).toBe(5);
  });
});
