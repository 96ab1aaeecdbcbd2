// Answers that a cache must never change: whatever the list-state cache holds, lost or raced, every
// answer is one some order of the acknowledged operations explains. Through the real proxy route.
import { http } from "msw";
import { afterEach, describe, expect, test, vi } from "vitest";
import { clearProcessCaches } from "~/lib/process-caches.server";
import { SAVE_FOR_LATER_CONTEXT } from "~/services/saved-items/contexts";
import { getListStateStore } from "~/services/saved-items/list-state-store.server";
import { callProxy, DEMO_SHOP, givenCountingShop, givenShop } from "../support/app";
import { aServiceToken, callDirect, CUSTOMER, givenDirectShop } from "../support/direct";
import { aSaveRequest, anIdentity, identityQuery } from "../support/fixtures";
import { emulator, platformServer } from "../support/platform";
import { loggedLines } from "../support/logs";

const ok = (data: unknown) => ({ status: 200, body: { ok: true, data } });

/**
 * Holds the platform's answer to the next request of `operationName` after the platform made it,
 * until `release`: what the request read is then older than anything written meanwhile.
 */
function holdAnswerOf(operationName: string) {
  let answered!: () => void;
  let release!: () => void;
  const read = new Promise<void>((resolve) => (answered = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  let held = false;
  platformServer.use(
    http.post(/\/admin\/api\/[^/]+\/graphql\.json$/, async ({ request }) => {
      const { query } = (await request.clone().json()) as { query: string };
      if (held || !query.includes(`query ${operationName}(`)) return undefined;
      held = true;
      const response = await emulator.handle(request);
      answered();
      await released;
      return response;
    }),
  );
  return { read, release };
}

afterEach(() => {
  vi.restoreAllMocks();
  platformServer.resetHandlers();
  emulator.setSearchLag(0);
});

describe("a read that began before a write ended", () => {
  test("is-saved answers what it read, and never installs it over the write", async () => {
    await givenShop();
    const held = holdAnswerOf("SavedItemsReadState");
    const reading = callProxy("/proxy/api/is-saved", { query: identityQuery() });
    await held.read;
    const saved = await callProxy("/proxy/api/save", { body: aSaveRequest() });
    expect(saved).toEqual(ok({ id: expect.any(String), state: "active" }));
    held.release();
    expect(await reading).toEqual(ok({ saved: false }));

    expect(await callProxy("/proxy/api/is-saved", { query: identityQuery() })).toEqual(ok({ saved: true }));
    expect(await callProxy("/proxy/api/save", { body: aSaveRequest() })).toMatchObject({ status: 409 });
    expect(await callProxy("/proxy/api/remove", { body: anIdentity() })).toEqual(
      ok({ id: saved.body.data.id, state: "removed" }),
    );
  });

  test("a list answers what it read, and the next list shows the write", async () => {
    await givenShop();
    const held = holdAnswerOf("SavedItemsReadList");
    const listing = callProxy("/proxy/api/list", { query: { context: "wishlist" } });
    await held.read;
    const saved = await callProxy("/proxy/api/save", { body: aSaveRequest() });
    held.release();
    expect((await listing).body.data.items).toEqual([]);

    const listed = await callProxy("/proxy/api/list", { query: { context: "wishlist" } });
    expect(listed.body.data.items.map((item: { id: string }) => item.id)).toEqual([saved.body.data.id]);
    expect(await callProxy("/proxy/api/remove", { body: anIdentity() })).toEqual(
      ok({ id: saved.body.data.id, state: "removed" }),
    );
  });
});

describe("a warm list (the bench's list (cached))", () => {
  test("a list read again after its first read and is-saved reads of its customer asks the platform nothing", async () => {
    await givenCountingShop({ products: ["gid://shopify/Product/1"] });
    await callProxy("/proxy/api/save", { body: aSaveRequest() });
    clearProcessCaches();
    const listOf = () => callProxy("/proxy/api/list", { query: { context: "wishlist" } });

    expect((await listOf()).body.data.items).toHaveLength(1);
    emulator.clearRequests();
    expect(await callProxy("/proxy/api/is-saved", { query: identityQuery() })).toEqual(ok({ saved: true }));
    expect(
      await callProxy("/proxy/api/is-saved", { query: identityQuery({ entityGid: "gid://shopify/Product/2" }) }),
    ).toEqual(ok({ saved: false }));
    expect((await listOf()).body.data.items).toHaveLength(1);
    expect(emulator.countRequests({ api: "admin" })).toBe(0);
  });
});

describe("a cache that comes back empty (a Redis restart, an eviction, a new instance)", () => {
  test("a removed item is still removed, not never saved: remove 200, save and toggle reactivate it", async () => {
    await givenShop();
    const saved = await callProxy("/proxy/api/save", { body: aSaveRequest() });
    const id = saved.body.data.id;
    await callProxy("/proxy/api/remove", { body: anIdentity() });
    await callProxy("/proxy/api/save", { body: aSaveRequest({ entityGid: "gid://shopify/Product/2" }) });

    clearProcessCaches();
    expect((await callProxy("/proxy/api/list", { query: { context: "wishlist" } })).body.data.items).toHaveLength(1);
    expect(await callProxy("/proxy/api/remove", { body: anIdentity() })).toEqual(ok({ id, state: "removed" }));
    clearProcessCaches();
    await callProxy("/proxy/api/list", { query: { context: "wishlist" } });
    expect(await callProxy("/proxy/api/save", { body: aSaveRequest() })).toEqual(ok({ id, state: "active" }));
    clearProcessCaches();
    await callProxy("/proxy/api/list", { query: { context: "wishlist" } });
    expect(await callProxy("/proxy/api/toggle", { body: aSaveRequest() })).toEqual(ok({ id, state: "removed" }));
    expect(await callProxy("/proxy/api/toggle", { body: aSaveRequest() })).toEqual(ok({ id, state: "active" }));
  });

  test("while the platform's search lags behind writes, a list shows exactly the active items", async () => {
    await givenShop();
    emulator.setSearchLag(60_000);
    const first = await callProxy("/proxy/api/save", { body: aSaveRequest() });
    const second = await callProxy("/proxy/api/save", { body: aSaveRequest({ entityGid: "gid://shopify/Product/2" }) });
    await callProxy("/proxy/api/save", { body: aSaveRequest({ entityGid: "gid://shopify/Product/3" }) });
    await callProxy("/proxy/api/remove", { body: anIdentity({ entityGid: "gid://shopify/Product/3" }) });

    clearProcessCaches();
    const listed = await callProxy("/proxy/api/list", { query: { context: "wishlist" } });
    expect(new Set(listed.body.data.items.map((item: { id: string }) => item.id))).toEqual(
      new Set([first.body.data.id, second.body.data.id]),
    );
    expect(await callProxy("/proxy/api/is-saved", { query: identityQuery() })).toEqual(ok({ saved: true }));
    expect(
      await callProxy("/proxy/api/is-saved", { query: identityQuery({ entityGid: "gid://shopify/Product/3" }) }),
    ).toEqual(ok({ saved: false }));
  });

  test("an item a failed write left unknown is read by every reader until the list's next writer settles it", async () => {
    await givenShop();
    loggedLines();
    await callProxy("/proxy/api/list", { query: { context: "wishlist" } });
    emulator.injectFault({ kind: "network", api: "admin", operationName: "SavedItemsApplyWrites" });
    expect((await callProxy("/proxy/api/save", { body: aSaveRequest() })).status).toBe(502);

    emulator.clearRequests();
    expect(await callProxy("/proxy/api/is-saved", { query: identityQuery() })).toEqual(ok({ saved: false }));
    expect(emulator.countRequests({ api: "admin" })).toBe(1);

    await callProxy("/proxy/api/save", { body: aSaveRequest({ entityGid: "gid://shopify/Product/2" }) });
    emulator.clearRequests();
    expect(await callProxy("/proxy/api/is-saved", { query: identityQuery() })).toEqual(ok({ saved: false }));
    expect(emulator.countRequests({ api: "admin" })).toBe(0);
  });
});

describe("the storefront's two lists (decisions 0015, 0025)", () => {
  const ids = (answer: { body: any }) => answer.body.data.items.map((item: { id: string }) => item.id);
  const listOf = (context: string) => callProxy("/proxy/api/list", { query: { context } });
  /** A read from a page that shows the other storefront list too (the theme's cart block beside its buttons). */
  const listBeside = (context: string, companion: string) =>
    callProxy("/proxy/api/list", { query: { context, companion } });
  /** The customer's cached states gone, in this process and in Redis alike (an eviction, an expiry). */
  const forgetStates = () => getListStateStore().forgetCustomer(DEMO_SHOP, CUSTOMER.id);

  async function givenBothLists(): Promise<{ wished: string; later: string }> {
    await givenDirectShop();
    // Collections, which carry no product card: the counts below are the lists' own reads (the
    // cards' request is measured apart, decision 0020).
    const collection = (context: string, id: number) =>
      aSaveRequest({ context, entityType: "collection", entityGid: `gid://shopify/Collection/${id}` });
    const wished = await callProxy("/proxy/api/save", { body: collection("wishlist", 1) });
    const later = await callProxy("/proxy/api/save", { body: collection(SAVE_FOR_LATER_CONTEXT, 2) });
    await forgetStates();
    emulator.clearRequests();
    return { wished: wished.body.data.id, later: later.body.data.id };
  }

  test("a page showing both lists reads them in one platform request (410 requested points)", async () => {
    const { wished, later } = await givenBothLists();
    const requestedBefore = emulator.usage(DEMO_SHOP).requestedPoints;
    expect(ids(await listBeside("wishlist", SAVE_FOR_LATER_CONTEXT))).toEqual([wished]);
    expect(ids(await listOf(SAVE_FOR_LATER_CONTEXT))).toEqual([later]);
    expect(emulator.countRequests({ api: "admin" })).toBe(1);
    expect(emulator.usage(DEMO_SHOP).requestedPoints - requestedBefore).toBe(2 * 205);

    await forgetStates();
    expect(ids(await listBeside(SAVE_FOR_LATER_CONTEXT, "wishlist"))).toEqual([later]);
    expect(ids(await listOf("wishlist"))).toEqual([wished]);
    expect(emulator.countRequests({ api: "admin" })).toBe(2);
  });

  test("a page showing one list reads that list alone (205 requested points, as before lists were read together)", async () => {
    const { wished, later } = await givenBothLists();
    const requestedBefore = emulator.usage(DEMO_SHOP).requestedPoints;
    expect(ids(await listOf("wishlist"))).toEqual([wished]);
    expect(emulator.countRequests({ api: "admin" })).toBe(1);
    expect(emulator.usage(DEMO_SHOP).requestedPoints - requestedBefore).toBe(205);

    expect(ids(await listOf(SAVE_FOR_LATER_CONTEXT))).toEqual([later]);
    expect(emulator.countRequests({ api: "admin" })).toBe(2);
  });

  test("a save into saved-for-later racing the wishlist's first read is in the next saved-for-later read", async () => {
    await givenShop();
    const held = holdAnswerOf("SavedItemsReadList");
    const listing = listBeside("wishlist", SAVE_FOR_LATER_CONTEXT);
    await held.read;
    const saved = await callProxy("/proxy/api/save", { body: aSaveRequest({ context: SAVE_FOR_LATER_CONTEXT }) });
    expect(saved).toEqual(ok({ id: expect.any(String), state: "active" }));
    held.release();
    expect(ids(await listing)).toEqual([]);

    expect(ids(await listOf(SAVE_FOR_LATER_CONTEXT))).toEqual([saved.body.data.id]);
    expect(
      await callProxy("/proxy/api/save", { body: aSaveRequest({ context: SAVE_FOR_LATER_CONTEXT }) }),
    ).toMatchObject({ status: 409 });
  });

  test("other channels read only the list asked for", async () => {
    const { wished, later } = await givenBothLists();
    const token = await aServiceToken();
    const listed = (context: string) =>
      callDirect("/api/headless/list", {
        token,
        query: { context, companion: context === "wishlist" ? SAVE_FOR_LATER_CONTEXT : "wishlist" },
      });
    expect(ids(await listed("wishlist"))).toEqual([wished]);
    expect(ids(await listed(SAVE_FOR_LATER_CONTEXT))).toEqual([later]);
    expect(emulator.countRequests({ api: "admin" })).toBe(2);
  });
});
