import { afterEach, describe, expect, test, vi } from "vitest";
import { afterAnswerSettled } from "~/lib/after-answer.server";
import { clock } from "~/lib/clock";
import { BACKGROUND_RESERVE_SHARE } from "~/platform/bucket-pacing";
import { observeBucket } from "~/platform/shop-buckets.server";
import { SAVED_BY_MAX_DELAY_MS } from "~/services/saved-by/flush-plan";
import { runSavedBySweep, startSavedBySweep } from "~/services/saved-by/saved-by-flush.server";
import { stopJobs } from "~/services/background-jobs.server";
import {
  SAVED_BY_SWEEP_INTERVAL_MS,
  savedByFlushJob,
  savedByRecountJob,
} from "~/services/saved-by/saved-by-sweeps.server";
import { itemHandle } from "~/services/saved-items/handles.server";
import { callProxy, givenCountingShop } from "../support/app";
import { aSaveRequest } from "../support/fixtures";
import { emulator, platformServer } from "../support/platform";
import { advanceTime, controlTimeouts } from "../support/time";

/**
 * The saved-by flush is background work on the shop's platform bucket (decision 0010): it
 * leaves shoppers' requests a reserve, and one shop's slow or hung platform delays no other shop.
 */

const PRODUCT = "gid://shopify/Product/1";
const OTHER = "gid://shopify/Product/2";
/** A Standard shop's bucket, as the emulator (and the platform) gives a shop without a higher plan. */
const STANDARD_BUCKET = 2_000;
const RESERVE = STANDARD_BUCKET * BACKGROUND_RESERVE_SHARE;

/** Five shoppers save the product through the app, so it is marked and worth a count. */
async function markedProduct(shop: string, product = PRODUCT) {
  for (const customerId of ["2001", "2002", "2003", "2004", "2005"]) {
    const result = await callProxy("/proxy/api/save", { shop, customerId, body: aSaveRequest({ entityGid: product }) });
    expect(result.status).toBe(200);
  }
  await afterAnswerSettled();
}

/** `count` more active saves of the product, made before the app's marks: the count must page through them. */
function moreSavers(shop: string, count: number, product = PRODUCT) {
  const identity = { context: "wishlist", entityType: "product", entityGid: product } as const;
  emulator.importMetaobjects(
    shop,
    "$app:save_item",
    Array.from({ length: count }, (_, index) => {
      const customerGid = `gid://shopify/Customer/${100_000 + index}`;
      return {
        handle: itemHandle(customerGid, identity),
        fields: {
          customer_id: customerGid,
          context: identity.context,
          entity_type: identity.entityType,
          entity_gid: identity.entityGid,
          status: "active",
          source: "seed",
          saved_at: "2026-01-01T00:00:00.000Z",
        },
      };
    }),
  );
}

const savedBy = (shop: string, product = PRODUCT) =>
  emulator.metafields(shop, product).find((metafield) => metafield.key === "saved_by")?.value;

/** The pacer's waits pass on the platform's clock, which refills the bucket as the time would. */
const passWaitsOnThePlatformClock = (alsoDuringTheFirst?: () => Promise<void>) => {
  let first = true;
  vi.spyOn(clock, "sleep").mockImplementation(async (ms) => {
    if (first) {
      first = false;
      await alsoDuringTheFirst?.();
    }
    advanceTime(ms);
  });
};

/** What each of the platform's Admin answers left in the shop's bucket, and for which operation. */
function watchBucket() {
  const sent = new Map<string, Promise<{ query?: string }>>();
  const answers: Promise<{ operation: string | undefined; available: number | undefined }>[] = [];
  const onRequest = ({ request, requestId }: { request: Request; requestId: string }) => {
    if (request.url.includes("/admin/api/")) sent.set(requestId, request.clone().json());
  };
  const onAnswer = ({ response, requestId }: { response: Response; requestId: string }) => {
    const request = sent.get(requestId);
    if (!request) return;
    answers.push(
      Promise.all([request, response.clone().json()]).then(([body, answered]) => ({
        operation: /(?:query|mutation) (\w+)/.exec(body.query ?? "")?.[1],
        available: (answered as { extensions?: { cost?: { throttleStatus?: { currentlyAvailable: number } } } })
          .extensions?.cost?.throttleStatus?.currentlyAvailable,
      })),
    );
  };
  platformServer.events.on("request:start", onRequest);
  platformServer.events.on("response:mocked", onAnswer);
  afterEach(() => {
    platformServer.events.removeListener("request:start", onRequest);
    platformServer.events.removeListener("response:mocked", onAnswer);
  });
  return { answers: () => Promise.all(answers) };
}

describe("the saved-by flush leaves shoppers their share of the bucket", () => {
  test("a count of 1,200 savers (12 pages, more than the bucket) never takes it below the reserve; a shopper's read meanwhile is not throttled", async () => {
    const shop = await givenCountingShop({ products: [PRODUCT, OTHER] });
    await markedProduct(shop);
    moreSavers(shop, 1_195);
    advanceTime(SAVED_BY_MAX_DELAY_MS);
    const bucket = watchBucket();
    let shopperRead: { status: number; answers: Awaited<ReturnType<typeof bucket.answers>> } | undefined;
    passWaitsOnThePlatformClock(async () => {
      const before = (await bucket.answers()).length;
      const read = await callProxy("/proxy/api/list", { shop, customerId: "9001", query: { context: "wishlist" } });
      shopperRead = { status: read.status, answers: (await bucket.answers()).slice(before) };
    });

    await runSavedBySweep();

    expect(savedBy(shop)).toBe("1000"); // 1,200 shoppers, shown as the step of 1,000
    // What the shopper's read took came out of the reserve; the count's own requests never did.
    const shopperAnswers = shopperRead?.answers ?? [];
    const shopperPoints =
      STANDARD_BUCKET - Math.min(STANDARD_BUCKET, ...shopperAnswers.map((answer) => answer.available!));
    const counts = (await bucket.answers()).filter((answer) => answer.operation === "SavedItemsFindSavers");
    expect(counts.length).toBeGreaterThanOrEqual(12);
    expect(Math.min(...counts.map((answer) => answer.available!))).toBeGreaterThanOrEqual(RESERVE - shopperPoints);
    expect(emulator.usage(shop).throttledRequests).toBe(0);
    expect(shopperRead?.status).toBe(200);
    expect(shopperAnswers.length).toBeGreaterThan(0);
  });

  test("a flush starts no count after FLUSH_COUNTING_MS: the product it did not reach is counted by the next sweep", async () => {
    const shop = await givenCountingShop({ products: [PRODUCT, OTHER] });
    // 2,000 savers: 20 pages, most of them paced at the restore rate, longer than the flush may count.
    await markedProduct(shop);
    moreSavers(shop, 1_995);
    advanceTime(1_000);
    await markedProduct(shop, OTHER);
    advanceTime(SAVED_BY_MAX_DELAY_MS);
    passWaitsOnThePlatformClock();

    await runSavedBySweep();
    expect(savedBy(shop)).toBe("1000"); // 2,000 shoppers, shown as the step of 1,000
    expect(savedBy(shop, OTHER)).toBeUndefined();

    advanceTime(SAVED_BY_SWEEP_INTERVAL_MS);
    await runSavedBySweep();
    expect(savedBy(shop, OTHER)).toBe("5");
  });
});

describe("stopping", () => {
  test("a flush waiting for the bucket stops at once; its product stays due and the next sweep counts it", async () => {
    const shop = await givenCountingShop({ products: [PRODUCT, OTHER] });
    await markedProduct(shop);
    advanceTime(SAVED_BY_MAX_DELAY_MS);
    // The shop's last answer left its bucket empty, and the time it takes to refill never passes.
    observeBucket(shop, { maximumAvailable: STANDARD_BUCKET, currentlyAvailable: 0, restoreRate: 100 });
    const sleep = vi.spyOn(clock, "sleep").mockImplementation(() => new Promise(() => {}));

    await startSavedBySweep();
    await vi.waitFor(() => expect(sleep).toHaveBeenCalled());
    await stopJobs([savedByFlushJob, savedByRecountJob]);
    expect(savedBy(shop)).toBeUndefined();
    expect(emulator.requests.filter((request) => request.operationName === "SavedItemsFindSavers")).toEqual([]);

    sleep.mockRestore();
    advanceTime(SAVED_BY_SWEEP_INTERVAL_MS);
    await runSavedBySweep();
    expect(savedBy(shop)).toBe("5");
  });
});

describe("shops are flushed independently", () => {
  test("a shop whose platform hangs delays no other shop's flush in the same sweep", async () => {
    // Its marks first, so a sweep taking shops one at a time would wait for it.
    const hung = await givenCountingShop({ domain: "a-hung.myshopify.com", products: [PRODUCT, OTHER] });
    await markedProduct(hung);
    const other = await givenCountingShop({ domain: "b-other.myshopify.com", products: [PRODUCT, OTHER] });
    await markedProduct(other);
    advanceTime(SAVED_BY_MAX_DELAY_MS);
    const timeouts = controlTimeouts();
    emulator.injectFault({ kind: "hang", shop: hung, operationName: "SavedItemsFindSavers" });

    const sweep = runSavedBySweep();
    await vi.waitFor(() => expect(savedBy(other)).toBe("5"));
    expect(savedBy(hung)).toBeUndefined();

    // The hung request times out; the sweep ends only then, and the shop stays due.
    timeouts.fire();
    await sweep;
    expect(savedBy(hung)).toBeUndefined();
    await runSavedBySweep();
    expect(savedBy(hung)).toBe("5");
  });

  test("the timer's sweep does not wait for a slow shop's flush: the next one flushes the others; stopping waits for it", async () => {
    const hung = await givenCountingShop({ domain: "a-hung.myshopify.com", products: [PRODUCT, OTHER] });
    await markedProduct(hung);
    advanceTime(SAVED_BY_MAX_DELAY_MS);
    const timeouts = controlTimeouts();
    emulator.injectFault({ kind: "hang", shop: hung, operationName: "SavedItemsFindSavers" });
    const counting = () => emulator.requests.filter((request) => request.operationName === "SavedItemsFindSavers");
    const within = <T>(promise: Promise<T>) =>
      Promise.race([promise.then(() => "returned"), new Promise((resolve) => setTimeout(resolve, 2_000, "waiting"))]);

    expect(await within(startSavedBySweep())).toBe("returned");
    await vi.waitFor(() => expect(counting()).toHaveLength(1));
    const other = await givenCountingShop({ domain: "b-other.myshopify.com", products: [PRODUCT, OTHER] });
    await markedProduct(other);
    advanceTime(SAVED_BY_MAX_DELAY_MS);
    expect(await within(startSavedBySweep())).toBe("returned");
    await vi.waitFor(() => expect(savedBy(other)).toBe("5"));
    expect(counting()).toHaveLength(2); // the hung shop's flush was not started twice

    let stopped = false;
    const stopping = stopJobs([savedByFlushJob, savedByRecountJob]).then(() => (stopped = true));
    // Stopping is promise steps only (the runner's and the flushes' stop), so a stop that did not
    // wait for the hung flush would have resolved by the next turn of the event loop.
    await new Promise(setImmediate);
    expect(stopped).toBe(false);
    timeouts.fire();
    await stopping;
    expect(savedBy(hung)).toBeUndefined();
  });
});
