// Logged-out viewers of shared links and the shop's money (issue #31 A5, A6, B7): their reads are
// never counted against the budget nor billed past it, one outsider hammering a link cannot stop it
// opening for others, and tokens tried from many addresses cost the shop a bounded number of
// platform searches. Through the app's request handler, signed as the platform's app proxy signs.
import { randomBytes } from "node:crypto";
import { describe, expect, test, vi } from "vitest";
import db from "~/db.server";
import { PLANS } from "~/services/plans";
import { retentionWindowMs } from "~/config/env.server";
import { runRetentionSweep } from "~/services/saved-items/retention.server";
import { SHARE_LOOKUP_RATE } from "~/services/usage/rate-limits.server";
import { callProxy, givenShop, proxyRequest, sendToApp, setMonthlyUsage } from "../support/app";
import { redact } from "../support/compliance";
import { aSaveRequest } from "../support/fixtures";
import { emulator } from "../support/platform";
import { advanceTime } from "../support/time";

/** The shared page as the app proxy forwards it, from a logged-out viewer at `address`. */
async function openPage(shop: string, token: string, address: string) {
  const request = proxyRequest(`/proxy/shared/${token}`, { shop, customerId: "" });
  const response = await sendToApp(request, { proxiedClientAddress: address });
  return { status: response.status, body: await response.text() };
}

async function sharedList(shop: string, titles: string[]): Promise<string> {
  for (const [index, title] of titles.entries()) {
    const saved = await callProxy("/proxy/api/save", {
      shop,
      body: aSaveRequest({ entityGid: `gid://shopify/Product/${index + 1}`, snapshot: { title } }),
    });
    expect(saved.status).toBe(200);
  }
  const created = await callProxy("/proxy/api/share-create", { shop, body: { context: "wishlist" } });
  expect(created.status).toBe(200);
  return created.body.data.token as string;
}

const searches = (shop: string) =>
  emulator.requests.filter((request) => request.shop === shop && request.operationName === "SavedItemsFindShared")
    .length;
const usage = async (shop: string) => (await db.usageCounter.findMany({ where: { shopDomain: shop } }))[0]?.count;
const address = (index: number) => `198.51.${Math.floor(index / 250)}.${index % 250}`;

describe("logged-out viewers of a shared link (A5)", () => {
  test("a Free shop whose budget is spent: one outsider opening a link 60 times, and 60 viewers, all see it; nothing is counted", async () => {
    const shop = await givenShop({ plan: "free" });
    const token = await sharedList(shop, ["Linen shirt"]);
    await setMonthlyUsage(shop, PLANS.free.monthlyRequests);
    const before = searches(shop);

    const outsider: number[] = [];
    for (let open = 0; open < 60; open++) outsider.push((await openPage(shop, token, "203.0.113.7")).status);
    // The outsider's own address rate stops it; nothing of anyone else's.
    expect(outsider.filter((status) => status === 200).length).toBeGreaterThanOrEqual(20);
    expect(outsider.filter((status) => status !== 200 && status !== 429)).toEqual([]);

    for (let viewer = 0; viewer < 60; viewer++) {
      const page = await openPage(shop, token, address(viewer));
      expect(page.status).toBe(200);
      expect(page.body).toContain("Linen shirt");
    }
    // From the page cache: one search for 80 opens, and the budget counter never moved.
    expect(searches(shop) - before).toBe(1);
    expect(await usage(shop)).toBe(PLANS.free.monthlyRequests);
  });

  test("the cache never outlives a revocation or the owner's write", async () => {
    const shop = await givenShop({ plan: "free" });
    const token = await sharedList(shop, ["Linen shirt"]);
    expect((await openPage(shop, token, address(1))).status).toBe(200);

    const saved = await callProxy("/proxy/api/save", {
      shop,
      body: aSaveRequest({ entityGid: "gid://shopify/Product/77", snapshot: { title: "Wool scarf" } }),
    });
    expect(saved.status).toBe(200);
    // The page is read again after the write (the platform's search answers it once it caught up).
    advanceTime(1_000);
    expect((await openPage(shop, token, address(2))).body).toContain("Wool scarf");

    expect((await callProxy("/proxy/api/share-revoke", { shop, body: { context: "wishlist" } })).status).toBe(200);
    expect((await openPage(shop, token, address(3))).status).toBe(404);
  });

  test("an open that comes after a revocation is not answered by a read begun before it", async () => {
    const shop = await givenShop({ plan: "free" });
    const token = await sharedList(shop, ["Linen shirt"]);
    // The first open's read of the items is held until after the revocation.
    emulator.injectFault({ kind: "delay", delayMs: 500, operationName: "SavedItemsListActive", shop });
    const first = openPage(shop, token, address(1));
    await vi.waitFor(() =>
      expect(
        emulator.requests.some((request) => request.shop === shop && request.operationName === "SavedItemsListActive"),
      ).toBe(true),
    );

    expect((await callProxy("/proxy/api/share-revoke", { shop, body: { context: "wishlist" } })).status).toBe(200);
    expect((await openPage(shop, token, address(2))).status).toBe(404);
    // The open made before the revocation may show the list it found.
    expect((await first).status).toBe(200);
  });
});

describe("a deleted list's shared page is not served from the cache", () => {
  test("customers/redact deletes the customer's lists: their link answers 404 at once", async () => {
    const shop = await givenShop({ plan: "free" });
    const token = await sharedList(shop, ["Linen shirt"]);
    expect((await openPage(shop, token, address(1))).body).toContain("Linen shirt");

    // The lists' owner is callProxy's customer, 1001.
    expect((await redact(shop, "1001")).status).toBe(200);
    expect(emulator.metaobjects(shop, "$app:save_list")).toEqual([]);
    expect((await openPage(shop, token, address(2))).status).toBe(404);
  });

  test("retention deletes a list left empty: its link answers 404 at once", async () => {
    const shop = await givenShop({ plan: "free" });
    const token = await sharedList(shop, ["Linen shirt"]);
    const removed = await callProxy("/proxy/api/remove", {
      shop,
      body: { context: "wishlist", entityType: "product", entityGid: "gid://shopify/Product/1" },
    });
    expect(removed.status).toBe(200);
    advanceTime(retentionWindowMs() + 1000);
    expect((await openPage(shop, token, address(1))).status).toBe(200);

    await runRetentionSweep();
    expect(emulator.metaobjects(shop, "$app:save_list")).toEqual([]);
    expect((await openPage(shop, token, address(2))).status).toBe(404);
  });
});

describe("outsiders and overage (A6)", () => {
  test("20 logged-out visitors of a Starter shop past its budget with overage on: all served, no billing event", async () => {
    const shop = await givenShop({ plan: "starter" });
    const token = await sharedList(shop, ["Linen shirt"]);
    await db.overageSetting.create({ data: { shopDomain: shop, enabled: true, capCents: 2_000 } });
    await setMonthlyUsage(shop, PLANS.starter.monthlyRequests);

    for (let visitor = 0; visitor < 20; visitor++) {
      expect((await openPage(shop, token, address(visitor))).status).toBe(200);
    }
    expect(emulator.countRequests({ api: "app-events" })).toBe(0);
    expect(await db.overageBlock.count({ where: { shopDomain: shop } })).toBe(0);
  });
});

describe("tokens tried from many addresses (B7)", () => {
  test("cost the shop a bounded number of searches, and a real link still opens", async () => {
    const shop = await givenShop({ plan: "free" });
    const token = await sharedList(shop, ["Linen shirt"]);
    const before = searches(shop);

    const statuses: number[] = [];
    for (let guess = 0; guess < 200; guess++) {
      statuses.push((await openPage(shop, randomBytes(32).toString("base64url"), address(guess))).status);
    }
    expect(new Set(statuses)).toEqual(new Set([404, 429]));
    expect(searches(shop) - before).toBe(SHARE_LOOKUP_RATE.unsigned.capacity);

    const page = await openPage(shop, token, address(999));
    expect(page.status).toBe(200);
    expect(page.body).toContain("Linen shirt");
  });
});
