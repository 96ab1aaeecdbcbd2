import { clearProcessCaches } from "~/lib/process-caches.server";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { callProxy, givenShop } from "../support/app";
import { aSaveRequest, anIdentity, identityQuery } from "../support/fixtures";
import { emulator } from "../support/platform";
import { clock } from "~/lib/clock";
import { getListStateStore } from "~/services/saved-items/list-state-store.server";
import { loggedLines } from "../support/logs";

// Upstream failures are logged with their cause, one JSON line on stdout; kept out of the test output and read here.
let logged: ReturnType<typeof loggedLines>;
beforeEach(() => {
  logged = loggedLines();
});
afterEach(() => vi.restoreAllMocks());

const errorLines = () => logged({ level: "error" });

const upstream = {
  ok: false,
  error: { code: "PLATFORM_UPSTREAM_ERROR", message: expect.any(String), retryable: true },
};

describe("platform failures (§7 upstream rows)", () => {
  test.each(["http500", "http503", "network"] as const)(
    "%s on the read is PLATFORM_UPSTREAM_ERROR 502",
    async (kind) => {
      await givenShop();
      emulator.injectFault({ kind, api: "admin" });
      expect(await callProxy("/proxy/api/save", { body: aSaveRequest() })).toEqual({ status: 502, body: upstream });
      expect(errorLines()).toContainEqual(
        expect.objectContaining({ msg: "request failed", code: "PLATFORM_UPSTREAM_ERROR" }),
      );
    },
  );

  test("a GraphQL error (HTTP 200 with errors and no data) is PLATFORM_UPSTREAM_ERROR, never a 500", async () => {
    await givenShop();
    emulator.injectFault({ kind: "graphqlErrors", api: "admin", operationName: "SavedItemsReadList" });
    expect(await callProxy("/proxy/api/list", { query: { context: "w" } })).toEqual({ status: 502, body: upstream });
    const [request] = emulator.requests.filter((entry) => entry.operationName === "SavedItemsReadList");
    expect(request?.status).toBe(200);
  });

  test("a failed write leaves the state the table allows and a retry completes it", async () => {
    const shop = await givenShop();
    emulator.injectFault({ kind: "http500", api: "admin", operationName: "SavedItemsApplyWrites" });
    expect((await callProxy("/proxy/api/save", { body: aSaveRequest() })).status).toBe(502);
    expect(emulator.metaobjects(shop, "$app:save_item")).toHaveLength(0);
    expect((await callProxy("/proxy/api/save", { body: aSaveRequest() })).status).toBe(200);
  });

  test("THROTTLED is retried after the bucket refills, and the request succeeds", async () => {
    await givenShop();
    emulator.injectFault({ kind: "throttled", api: "admin" });
    const result = await callProxy("/proxy/api/is-saved", { query: identityQuery() });
    expect(result).toEqual({ status: 200, body: { ok: true, data: { saved: false } } });
    expect(emulator.countRequests({ api: "admin" })).toBe(2);
  });

  test("HTTP 429 is retried too", async () => {
    await givenShop();
    emulator.injectFault({ kind: "http429", api: "admin" });
    expect((await callProxy("/proxy/api/list", { query: { context: "w" } })).status).toBe(200);
  });

  test("throttling that persists after bounded retries is RATE_LIMITED 429, retryable", async () => {
    await givenShop();
    emulator.injectFault({ kind: "throttled", api: "admin", times: 10 });
    expect(await callProxy("/proxy/api/remove", { body: anIdentity() })).toEqual({
      status: 429,
      body: { ok: false, error: { code: "RATE_LIMITED", message: expect.any(String), retryable: true } },
    });
    expect(emulator.countRequests({ api: "admin" })).toBe(3);
  });
});

describe("internal failures", () => {
  test("an unexpected failure is INTERNAL_ERROR 500, retryable, logged with its cause and never leaked", async () => {
    await givenShop();
    vi.spyOn(clock, "now").mockImplementation(() => {
      throw new Error("clock failure: secret detail");
    });
    const result = await callProxy("/proxy/api/save", { body: aSaveRequest() });
    expect(result).toEqual({
      status: 500,
      body: { ok: false, error: { code: "INTERNAL_ERROR", message: "Unexpected failure", retryable: true } },
    });
    expect(JSON.stringify(result.body)).not.toContain("secret detail");
    expect(errorLines()).toContainEqual(
      expect.objectContaining({
        msg: "request failed",
        code: "INTERNAL_ERROR",
        cause: expect.objectContaining({ message: "clock failure: secret detail" }),
      }),
    );
  });
});

describe("upstream efficiency (Admin requests per operation)", () => {
  const cost = async (run: () => Promise<unknown>) => {
    emulator.clearRequests();
    await run();
    return emulator.countRequests({ api: "admin" });
  };

  test("cold: is-saved and list cost 1; save, remove and toggle at most 2; a batch of 50 at most 3", async () => {
    await givenShop({ plan: "pro" });
    expect(await cost(() => callProxy("/proxy/api/is-saved", { query: identityQuery() }))).toBe(1);
    clearProcessCaches();
    expect(await cost(() => callProxy("/proxy/api/list", { query: { context: "wishlist" } }))).toBe(1);
    clearProcessCaches();
    expect(await cost(() => callProxy("/proxy/api/save", { body: aSaveRequest() }))).toBeLessThanOrEqual(2);
    clearProcessCaches();
    expect(await cost(() => callProxy("/proxy/api/remove", { body: anIdentity() }))).toBeLessThanOrEqual(2);
    clearProcessCaches();
    expect(await cost(() => callProxy("/proxy/api/toggle", { body: aSaveRequest() }))).toBeLessThanOrEqual(2);
    clearProcessCaches();
    const operations = Array.from({ length: 50 }, (_, index) => ({
      action: index % 2 ? "save" : "toggle",
      ...anIdentity({ entityGid: `gid://shopify/Product/${100 + index}`, context: `ctx-${index % 5}` }),
    }));
    expect(await cost(() => callProxy("/proxy/api/batch", { body: { operations } }))).toBeLessThanOrEqual(3);
  });

  test("warm: a shopper's repeat reads cost nothing, and a write after a read is one mutation", async () => {
    const shop = await givenShop({ plan: "pro" });
    expect(await cost(() => callProxy("/proxy/api/list", { query: { context: "wishlist" } }))).toBe(1);
    expect(await cost(() => callProxy("/proxy/api/is-saved", { query: identityQuery() }))).toBe(0);
    expect(await cost(() => callProxy("/proxy/api/list", { query: { context: "wishlist" } }))).toBe(0);
    // The save that makes the list reads the customer's directory first: the bound on lists (decision 0017).
    expect(await cost(() => callProxy("/proxy/api/save", { body: aSaveRequest() }))).toBe(2);
    expect(await cost(() => callProxy("/proxy/api/save", { body: aSaveRequest() }))).toBe(0);
    expect(await cost(() => callProxy("/proxy/api/is-saved", { query: identityQuery() }))).toBe(0);
    expect(await cost(() => callProxy("/proxy/api/remove", { body: anIdentity() }))).toBe(1);
    expect(await cost(() => callProxy("/proxy/api/toggle", { body: aSaveRequest() }))).toBe(1);
    // The list's state is warm; its one item's product card is read once (decision 0020), then cached.
    expect(await cost(() => callProxy("/proxy/api/list", { query: { context: "wishlist" } }))).toBe(1);
    expect(await cost(() => callProxy("/proxy/api/list", { query: { context: "wishlist" } }))).toBe(0);
    // A list read from the platform brings its removed items too: the save after it is one mutation.
    // The customer's states are forgotten where they live (this process, or Redis under test:services).
    await getListStateStore().forgetCustomer(shop, "gid://shopify/Customer/1001");
    expect(await cost(() => callProxy("/proxy/api/list", { query: { context: "wishlist" } }))).toBe(1);
    const other = aSaveRequest({ entityGid: "gid://shopify/Product/777" });
    expect(await cost(() => callProxy("/proxy/api/save", { body: other }))).toBe(1);
  });
});
