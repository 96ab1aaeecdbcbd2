import { describe, expect, test, vi } from "vitest";
import { clock } from "~/lib/clock";
import { createBucketPacer } from "~/platform/bucket-pacer.server";
import { lastBucketObservation, observeBucket } from "~/platform/shop-buckets.server";
import { callProxy, givenShop } from "../support/app";

const SHOP = "pacer.myshopify.com";
const standard = (currentlyAvailable: number) => ({ maximumAvailable: 2_000, currentlyAvailable, restoreRate: 100 });
const PAGE = { requestedQueryCost: 202, throttleStatus: standard(1_798) };

/** The pacer's clock, moved only by its own waits; `during` runs inside each wait, once it has begun. */
function controlledClock(during: (ms: number) => void = () => {}) {
  let nowMs = Date.parse("2026-11-27T12:00:00.000Z");
  vi.spyOn(clock, "now").mockImplementation(() => new Date(nowMs));
  const waits: number[] = [];
  vi.spyOn(clock, "sleep").mockImplementation(async (ms) => {
    waits.push(ms);
    nowMs += ms;
    during(ms);
  });
  return waits;
}

describe("the bucket pacer reads the shop's bucket as every answer left it", () => {
  test("a shopper's answer during its wait makes it wait again for what the shopper spent", async () => {
    let shopperSpent = false;
    const waits = controlledClock(() => {
      if (shopperSpent) return;
      shopperSpent = true;
      observeBucket(SHOP, standard(1_500)); // a shopper's answer, at the end of the first wait
    });
    observeBucket(SHOP, standard(1_798));
    const pacer = createBucketPacer(SHOP);
    pacer.onCost(PAGE);

    await pacer.beforeSend();
    // 202 points to a full bucket at 100 a second, then the 500 the shopper's read left missing.
    expect(waits).toEqual([2_020, 5_000]);
  });

  test("nothing heard from the shop yet: its first request goes at once", async () => {
    const waits = controlledClock();
    await createBucketPacer("unheard.myshopify.com").beforeSend();
    expect(waits).toEqual([]);
  });

  test("a shopper's request through the app records the shop's bucket for the pacers", async () => {
    const shop = await givenShop({ plan: "pro" });
    expect(lastBucketObservation(shop)).toBeUndefined();
    const read = await callProxy("/proxy/api/list", { shop, customerId: "9001", query: { context: "wishlist" } });
    expect(read.status).toBe(200);
    expect(lastBucketObservation(shop)).toMatchObject({ maximumAvailable: 2_000, restoreRate: 100 });
  });
});
