// customers/redact while the platform's search lags the customer's saves: the redaction finds the
// customer's records only through that search, so it must not call itself complete before the
// search can have caught up, and must come back for what it could not see.
import { http } from "msw";
import { afterEach, describe, expect, test, vi } from "vitest";
import db from "~/db.server";
import { OPERATION_NAMES, OPERATIONS, type OperationName } from "~/operations/operations";
import { runDueRedactions } from "~/services/compliance/pending-redactions.server";
import { deliverWebhook } from "../support/admin";
import { callProxy, givenShop, proxyRequest, sendToApp } from "../support/app";
import { aSaveRequest, identityQuery } from "../support/fixtures";
import { emulator, platformServer } from "../support/platform";
import { advanceTime } from "../support/time";
import { loggedLines } from "../support/logs";

afterEach(() => vi.restoreAllMocks());

const ALICE = "1001";
const BOB = "1002";
const gid = (id: string) => `gid://shopify/Customer/${id}`;
const customers = [{ id: gid(ALICE) }, { id: gid(BOB) }];
/** Several seconds, well inside the app's default bound of 60 s (SEARCH_LAG_SECONDS). */
const SEARCH_LAG_MS = 5_000;
/** A redaction settles 30 s (writes already under way) plus the 60 s bound after it arrived. */
const SETTLE_MS = 90_000;

const save = (shop: string, customerId: string, product: number, context = "wishlist") =>
  callProxy("/proxy/api/save", {
    shop,
    customerId,
    body: aSaveRequest({ context, entityGid: `gid://shopify/Product/${product}` }),
  });

const isSaved = async (shop: string, customerId: string, product: number, context = "wishlist") =>
  (
    await callProxy("/proxy/api/is-saved", {
      shop,
      customerId,
      query: identityQuery({ context, entityGid: `gid://shopify/Product/${product}` }),
    })
  ).body.data.saved;

const listed = async (shop: string, customerId: string, context: string) =>
  (await callProxy("/proxy/api/list", { shop, customerId, query: { context } })).body.data.items;

const recordsOf = (shop: string, customerId: string) =>
  ["$app:save_item", "$app:save_list"].flatMap((type) =>
    emulator.metaobjects(shop, type).filter((entry) => entry.fields.customer_id === gid(customerId)),
  );

const redact = (shop: string, customerId: string) =>
  deliverWebhook("customers/redact", {
    shop,
    payload: { shop_id: 1, shop_domain: shop, customer: { id: Number(customerId) }, orders_to_redact: [] },
  });

/** A valid query (GET) or body (POST) of each operation, on Alice's lists. */
const VALID_INPUTS: Record<OperationName, Record<string, unknown>> = {
  save: aSaveRequest({ entityGid: "gid://shopify/Product/20" }),
  toggle: aSaveRequest({ entityGid: "gid://shopify/Product/21" }),
  remove: identityQuery({ entityGid: "gid://shopify/Product/1" }),
  batch: { operations: [{ action: "save", ...aSaveRequest({ entityGid: "gid://shopify/Product/22" }) }] },
  list: { context: "wishlist" },
  "is-saved": identityQuery(),
  "share-create": { context: "wishlist", displayName: "Ana" },
  "share-revoke": { context: "wishlist" },
  "shared-list": { token: "A".repeat(43) },
  lists: {},
  "create-list": { name: "Gifts", context: "presents" },
  "rename-list": { context: "gifts", name: "Gifts" },
  "delete-list": { context: "gifts" },
};

/** Alice saves three products in two lists and Bob one, with the search lagging the writes. */
async function givenFreshSaves(): Promise<string> {
  const shop = await givenShop({ plan: "pro", customers });
  emulator.setSearchLag(SEARCH_LAG_MS);
  for (const [product, context] of [
    [1, "wishlist"],
    [2, "wishlist"],
    [3, "gifts"],
  ] as const) {
    expect((await save(shop, ALICE, product, context)).status).toBe(200);
  }
  expect((await save(shop, BOB, 1)).status).toBe(200);
  expect(recordsOf(shop, ALICE)).toHaveLength(5);
  return shop;
}

describe("customers/redact while the platform's search lags", () => {
  test("the answer claims nothing it did not do; passes after the bound delete everything and only then complete", async () => {
    const shop = await givenFreshSaves();
    loggedLines();

    const response = await redact(shop, ALICE);

    expect(response.status).toBe(200);
    const answer = await response.json();
    // The search had not seen the saves: nothing was found, and the answer says it will look again.
    expect(answer).toEqual({
      topic: "CUSTOMERS_REDACT",
      customerId: gid(ALICE),
      status: "pending",
      deleted: { items: 0, lists: 0 },
      nextPassAt: expect.any(String),
    });
    expect(recordsOf(shop, ALICE)).toHaveLength(5);
    const pending = await db.pendingCustomerRedaction.findMany();
    expect(pending).toEqual([expect.objectContaining({ shopDomain: shop, customerGid: gid(ALICE), claimToken: null })]);
    expect(new Date(answer.nextPassAt).getTime() - pending[0]!.requestedAt.getTime()).toBe(SETTLE_MS);

    // The search has caught up, but the bound has not passed: no pass is due yet.
    advanceTime(SEARCH_LAG_MS);
    expect(await runDueRedactions(10)).toBe(0);

    advanceTime(SETTLE_MS - SEARCH_LAG_MS);
    expect(await runDueRedactions(10)).toBe(1);

    // This pass found everything, so it cannot be the last: one more after another bound.
    expect(recordsOf(shop, ALICE)).toEqual([]);
    expect(await db.pendingCustomerRedaction.count()).toBe(1);
    advanceTime(60_000);
    expect(await runDueRedactions(10)).toBe(1);
    expect(await db.pendingCustomerRedaction.count()).toBe(0);

    expect(await isSaved(shop, ALICE, 1)).toBe(false);
    expect(await listed(shop, ALICE, "wishlist")).toEqual([]);
    expect(await listed(shop, ALICE, "gifts")).toEqual([]);
    expect(recordsOf(shop, ALICE)).toEqual([]);
    // Bob's save is another customer's.
    expect(recordsOf(shop, BOB)).toHaveLength(2);
    expect(await isSaved(shop, BOB, 1)).toBe(true);
  });

  test("a redelivery after the bound that finds nothing is what completes it, and says so", async () => {
    const shop = await givenFreshSaves();
    loggedLines();
    await redact(shop, ALICE);
    advanceTime(SETTLE_MS);
    expect(await (await redact(shop, ALICE)).json()).toMatchObject({
      status: "pending",
      deleted: { items: 3, lists: 2 },
    });
    advanceTime(60_000);

    const redelivered = await redact(shop, ALICE);

    expect(await redelivered.json()).toEqual({
      topic: "CUSTOMERS_REDACT",
      customerId: gid(ALICE),
      status: "completed",
      deleted: { items: 0, lists: 0 },
    });
    expect(recordsOf(shop, ALICE)).toEqual([]);
    expect(await db.pendingCustomerRedaction.count()).toBe(0);
  });

  test("saves that arrive while it is pending are refused, so none survives it; writes resume once it completes", async () => {
    const shop = await givenFreshSaves();
    loggedLines();
    await redact(shop, ALICE);

    const refused = await sendToApp(
      proxyRequest("/proxy/api/save", {
        shop,
        customerId: ALICE,
        body: aSaveRequest({ entityGid: "gid://shopify/Product/9" }),
      }),
    );
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThanOrEqual(SETTLE_MS / 1000 - 1);
    expect(await refused.json()).toMatchObject({ ok: false, error: { code: "RATE_LIMITED", retryable: true } });
    for (const [path, body] of [
      ["/proxy/api/toggle", aSaveRequest({ entityGid: "gid://shopify/Product/10" })],
      ["/proxy/api/remove", { context: "wishlist", entityType: "product", entityGid: "gid://shopify/Product/1" }],
      [
        "/proxy/api/batch",
        { operations: [{ action: "save", ...aSaveRequest({ entityGid: "gid://shopify/Product/11" }) }] },
      ],
    ] as const) {
      expect((await callProxy(path, { shop, customerId: ALICE, body })).body.error.code).toBe("RATE_LIMITED");
    }
    // Reads go on, and other customers write as before.
    expect(await isSaved(shop, ALICE, 1)).toBe(true);
    expect((await save(shop, BOB, 2)).status).toBe(200);
    advanceTime(SEARCH_LAG_MS);
    expect((await save(shop, ALICE, 12)).status).toBe(429);

    advanceTime(SETTLE_MS);
    await runDueRedactions(10);
    advanceTime(60_000);
    await runDueRedactions(10);

    expect(await db.pendingCustomerRedaction.count()).toBe(0);
    expect(recordsOf(shop, ALICE)).toEqual([]);
    for (const product of [1, 9, 10, 11, 12]) expect(await isSaved(shop, ALICE, product)).toBe(false);
    expect(recordsOf(shop, BOB)).toHaveLength(3);
    // The customer is new to the app now: a save is a new save.
    expect((await save(shop, ALICE, 13)).status).toBe(200);
  });

  test("the operations the catalogue flags as writing, and only those, are refused while it is pending", async () => {
    const shop = await givenFreshSaves();
    vi.spyOn(console, "info").mockImplementation(() => {});
    await redact(shop, ALICE);

    const refused: OperationName[] = [];
    for (const operation of OPERATION_NAMES) {
      const input = VALID_INPUTS[operation];
      const call =
        OPERATIONS[operation].method === "GET" ? { query: input as Record<string, string> } : { body: input };
      const { body } = await callProxy(`/proxy/api/${operation}`, { shop, customerId: ALICE, ...call });
      if (body.error?.code === "RATE_LIMITED") refused.push(operation);
    }
    expect(refused).toEqual(OPERATION_NAMES.filter((operation) => OPERATIONS[operation].writes));
    expect(refused).toContain("save");
  });

  test("a save admitted just before the redaction, whose write lands after its first pass, does not survive", async () => {
    const shop = await givenFreshSaves();
    loggedLines();
    // The save's first write to the platform waits until the redaction's first pass has run.
    let reached!: () => void;
    const writing = new Promise<void>((resolve) => (reached = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held = false;
    platformServer.use(
      http.post(/\/admin\/api\/[^/]+\/graphql\.json$/, async ({ request }) => {
        const { query } = (await request.clone().json()) as { query: string };
        if (held || !/\bmutation\b/.test(query) || query.includes("Compliance")) return undefined;
        held = true;
        reached();
        await released;
        return undefined;
      }),
    );
    const saving = save(shop, ALICE, 20);
    await writing;

    expect(await (await redact(shop, ALICE)).json()).toMatchObject({ status: "pending" });
    release();
    expect((await saving).status).toBe(200);
    expect(await isSaved(shop, ALICE, 20)).toBe(true);

    advanceTime(SETTLE_MS);
    await runDueRedactions(10);
    advanceTime(60_000);
    await runDueRedactions(10);

    expect(await db.pendingCustomerRedaction.count()).toBe(0);
    expect(recordsOf(shop, ALICE)).toEqual([]);
    expect(await isSaved(shop, ALICE, 20)).toBe(false);
  });

  test("instances sweeping at once run each pass once", async () => {
    const shop = await givenFreshSaves();
    loggedLines();
    await redact(shop, ALICE);
    advanceTime(SETTLE_MS);
    emulator.clearRequests();

    const passes = await Promise.all([runDueRedactions(10), runDueRedactions(10), runDueRedactions(10)]);

    expect(passes.reduce((sum, count) => sum + count, 0)).toBe(1);
    expect(
      emulator.requests.filter((request) => request.operationName === "SavedItemsComplianceCustomerItemIds"),
    ).toHaveLength(1);
    expect(recordsOf(shop, ALICE)).toEqual([]);
  });
});

describe("a pending customer redaction across a restart", () => {
  // Last in the file: it replaces the app's modules for what follows it.
  test("a fresh process runs it from its record at start-up, and completes it", async () => {
    const shop = await givenFreshSaves();
    loggedLines();
    expect(await (await redact(shop, ALICE)).json()).toMatchObject({ status: "pending" });

    /**
     * A new process: the app's modules (caches, coordinator, clock, timer) loaded anew, and its
     * start-up hook run as the server runs it before listening; the database stays.
     */
    const restart = async (aheadMs: number) => {
      vi.resetModules();
      const [{ clock }, entry, jobs, coordination] = await Promise.all([
        import("~/lib/clock"),
        import("~/entry.server"),
        import("~/services/background-jobs.server"),
        import("~/infrastructure/coordination/shared-coordinator.server"),
      ]);
      advanceTime(aheadMs, clock);
      await entry.prepare();
      // The jobs stop once the runs start-up began have ended (all of them: left running, they
      // would hold the database this file closes at its end).
      await jobs.stopBackgroundJobs();
      await coordination.getCoordinator().close();
    };

    await restart(SETTLE_MS);
    expect(recordsOf(shop, ALICE)).toEqual([]);
    expect(await db.pendingCustomerRedaction.count()).toBe(1);

    await restart(60_000);
    expect(await db.pendingCustomerRedaction.count()).toBe(0);
    expect(recordsOf(shop, BOB)).toHaveLength(2);
  });
});
