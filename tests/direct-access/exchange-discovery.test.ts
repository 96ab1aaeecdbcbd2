import { http, HttpResponse } from "msw";
import { afterEach, describe, expect, test, vi } from "vitest";
import { clock } from "~/lib/clock";
import { DISCOVERY_FRESHNESS_MS, freshnessOf } from "~/platform/customer-account-discovery.server";
import { DEMO_SHOP } from "../support/app";
import { CUSTOMER, OTHER_CUSTOMER, exchangeHeadless, givenDirectShop } from "../support/direct";
import { emulator, platformServer } from "../support/platform";

afterEach(() => vi.restoreAllMocks());

const modern = (customerAccountAccessToken = CUSTOMER.customerAccountAccessToken, shop = DEMO_SHOP) => ({
  shop,
  customerAccountAccessToken,
});
const discoveries = (shop = DEMO_SHOP) => emulator.countRequests({ api: "customer-account-discovery", shop });

/** Moves the service's clock (cache expiry, token buckets) by `seconds` from now on. */
function advanceClock(seconds: number) {
  const at = new Date(clock.now().getTime() + seconds * 1000);
  vi.spyOn(clock, "now").mockReturnValue(at);
}

/**
 * The emulator's discovery document for the shop, answered with the given Cache-Control; returns
 * a counter of how often the app asked for it.
 */
async function serveDiscoveryWith(cacheControl: string): Promise<{ count: number }> {
  const url = `https://${DEMO_SHOP}/.well-known/customer-account-api`;
  const document = await (await fetch(url)).json();
  const served = { count: 0 };
  platformServer.use(
    http.get(url, () => {
      served.count += 1;
      return HttpResponse.json(document, { headers: { "Cache-Control": cacheControl } });
    }),
  );
  return served;
}

describe("the shop's customer-account discovery document is cached", () => {
  test("one discovery serves every exchange of the shop; each exchange still asks about its own customer", async () => {
    await givenDirectShop();
    expect((await exchangeHeadless(modern())).status).toBe(200);
    expect((await exchangeHeadless(modern(OTHER_CUSTOMER.customerAccountAccessToken))).status).toBe(200);
    expect((await exchangeHeadless(modern("not-a-token"))).status).toBe(401);
    expect(discoveries()).toBe(1);
    expect(emulator.countRequests({ api: "customer-account", shop: DEMO_SHOP })).toBe(3);
  });

  test("concurrent exchanges share one discovery request in flight", async () => {
    await givenDirectShop();
    emulator.setLatency(100);
    const results = await Promise.all(Array.from({ length: 20 }, () => exchangeHeadless(modern())));
    emulator.setLatency(0);
    expect(results.map((result) => result.status)).toEqual(Array(20).fill(200));
    expect(discoveries()).toBe(1);
  });

  test("each shop has its own document", async () => {
    await givenDirectShop();
    await givenDirectShop({ domain: "other.myshopify.com" });
    await exchangeHeadless(modern());
    await exchangeHeadless(modern("other-cat-1001", "other.myshopify.com"));
    await exchangeHeadless(modern());
    expect([discoveries(), discoveries("other.myshopify.com")]).toEqual([1, 1]);
  });

  test("without Cache-Control the document is reused for an hour", async () => {
    await givenDirectShop();
    await exchangeHeadless(modern());
    advanceClock(3_599);
    await exchangeHeadless(modern());
    expect(discoveries()).toBe(1);
    advanceClock(2);
    await exchangeHeadless(modern());
    expect(discoveries()).toBe(2);
  });

  test("the document's own max-age is honoured", async () => {
    await givenDirectShop();
    const served = await serveDiscoveryWith("public, max-age=120");
    await exchangeHeadless(modern());
    advanceClock(119);
    await exchangeHeadless(modern());
    expect(served.count).toBe(1);
    advanceClock(2);
    expect((await exchangeHeadless(modern())).status).toBe(200);
    expect(served.count).toBe(2);
  });

  test("no-cache still reuses the document for a minute", async () => {
    await givenDirectShop();
    const served = await serveDiscoveryWith("no-cache");
    await exchangeHeadless(modern());
    advanceClock(59);
    await exchangeHeadless(modern());
    expect(served.count).toBe(1);
    advanceClock(2);
    await exchangeHeadless(modern());
    expect(served.count).toBe(2);
  });

  test.each([
    [null, DISCOVERY_FRESHNESS_MS.absent],
    ["", DISCOVERY_FRESHNESS_MS.absent],
    ["public", DISCOVERY_FRESHNESS_MS.absent],
    ["max-age=600", 600_000],
    ["public, MAX-AGE=600, must-revalidate", 600_000],
    ['max-age="600"', 600_000],
    ["max-age=0", DISCOVERY_FRESHNESS_MS.min],
    ["max-age=5", DISCOVERY_FRESHNESS_MS.min],
    ["max-age=86400", DISCOVERY_FRESHNESS_MS.max],
    ["max-age=99999999999999999999", DISCOVERY_FRESHNESS_MS.max],
    ["max-age=abc", DISCOVERY_FRESHNESS_MS.absent],
    ["no-store", DISCOVERY_FRESHNESS_MS.min],
    ["max-age=600, no-cache", DISCOVERY_FRESHNESS_MS.min],
  ])("Cache-Control %j keeps the document %i ms", (header, expected) => {
    expect(freshnessOf(header)).toBe(expected);
  });

  test("a failed discovery is remembered for 30 s, then asked again", async () => {
    await givenDirectShop();
    emulator.injectFault({ kind: "http503", api: "customer-account-discovery" });
    expect((await exchangeHeadless(modern())).status).toBe(401);
    expect((await exchangeHeadless(modern())).status).toBe(401);
    expect(discoveries()).toBe(1);
    expect(emulator.countRequests({ api: "customer-account" })).toBe(0);
    advanceClock(31);
    expect((await exchangeHeadless(modern())).status).toBe(200);
    expect(discoveries()).toBe(2);
  });
});
