// "Saved by N shoppers" within what the merchant grants (decision 0010): the count's metafield
// needs write_products, an optional scope; without it the count is off and costs no request storm.
// And the flush writes only for products that exist: a deleted or made-up one blocks no other.
import { http } from "msw";
import { afterEach, describe, expect, test, vi } from "vitest";
import db from "~/db.server";
import { afterAnswerSettled } from "~/lib/after-answer.server";
import { action as savedByScopeAction } from "~/routes/app.saved-by-scope";
import { SAVED_BY_MAX_DELAY_MS } from "~/services/saved-by/flush-plan";
import { runSavedBySweep } from "~/services/saved-by/saved-by-flush.server";
import { GRANT_RECHECK_MS, SAVED_BY_SCOPE } from "~/services/saved-by/saved-by-grant.server";
import { SAVED_BY_SWEEP_INTERVAL_MS } from "~/services/saved-by/saved-by-sweeps.server";
import { TEST_ENV } from "../support/test-env";
import { deliverWebhook } from "../support/admin";
import { APP_URL, callProxy, givenCountingShop, givenShop } from "../support/app";
import { aSaveRequest } from "../support/fixtures";
import { emulator, platformServer, savedByMetafield } from "../support/platform";
import { withAdminSession } from "../support/session-token";
import { advanceTime } from "../support/time";

afterEach(() => vi.restoreAllMocks());

const PRODUCT = "gid://shopify/Product/1";
const DELETED = "gid://shopify/Product/2";
const MADE_UP = "gid://shopify/Product/999";
const SAVERS = ["2001", "2002", "2003", "2004", "2005"];

async function savedByFive(shop: string, ...products: string[]) {
  for (const entityGid of products) {
    for (const customerId of SAVERS) {
      const result = await callProxy("/proxy/api/save", { shop, customerId, body: aSaveRequest({ entityGid }) });
      expect(result.status).toBe(200);
    }
  }
  await afterAnswerSettled();
  advanceTime(SAVED_BY_MAX_DELAY_MS);
}

/** The count's requests to the shop (its grant, which products exist, counts, writes), by operation. */
const countRequests = (shop: string) =>
  emulator.requests
    .filter((request) => request.shop === shop)
    .map((request) => request.operationName ?? "")
    .filter((name) => /^SavedItems(AccessScopes|ExistingProducts|FindSavers|SetSavedBy|DeleteSavedBy)$/.test(name));

const rows = (shop: string) =>
  db.savedByProduct.findMany({ where: { shopDomain: shop }, select: { productGid: true, dirtySince: true } });

describe("the flush writes only for products that exist", () => {
  test("counts are written on a shop whose dirty products include a deleted and a made-up one, which are forgotten", async () => {
    const shop = await givenCountingShop({ products: [PRODUCT, DELETED] });
    await savedByFive(shop, PRODUCT, DELETED, MADE_UP);
    emulator.removeProducts(shop, [DELETED]);

    await runSavedBySweep();
    expect(savedByMetafield(shop, PRODUCT)).toBe(5);
    expect(emulator.metafields(shop).map((metafield) => metafield.ownerId)).toEqual([PRODUCT]);
    // One read of which exist, one count and one write: the missing ones were never counted nor sent.
    expect(countRequests(shop)).toEqual(["SavedItemsExistingProducts", "SavedItemsFindSavers", "SavedItemsSetSavedBy"]);
    // Their marks are gone, not due again: the next sweeps spend nothing on them.
    expect((await rows(shop)).map((row) => row.productGid)).toEqual([PRODUCT]);
    emulator.clearRequests();
    advanceTime(SAVED_BY_MAX_DELAY_MS);
    await runSavedBySweep();
    expect(countRequests(shop)).toEqual([]);
  });

  test("an owner deleted between the existence read and the write is dropped and the others written", async () => {
    const shop = await givenCountingShop({ products: [PRODUCT, DELETED] });
    await savedByFive(shop, PRODUCT, DELETED);
    // The merchant deletes the product just after the flush read which products exist.
    platformServer.use(
      http.post(/\/admin\/api\/[^/]+\/graphql\.json$/, async ({ request }) => {
        const { query } = (await request.clone().json()) as { query: string };
        const response = await emulator.handle(request);
        if (query.includes("SavedItemsExistingProducts")) emulator.removeProducts(shop, [DELETED]);
        return response;
      }),
    );
    await runSavedBySweep();
    expect(savedByMetafield(shop, PRODUCT)).toBe(5);
    expect(savedByMetafield(shop, DELETED)).toBeUndefined();
    expect(countRequests(shop).filter((name) => name === "SavedItemsSetSavedBy")).toHaveLength(2);
    expect((await rows(shop)).map((row) => row.productGid)).toEqual([PRODUCT]);
  });
});

describe("the count is off until the merchant grants write_products", () => {
  test("without the grant nothing is written and the shop is asked at most once per recheck interval", async () => {
    const shop = await givenShop({ plan: "pro" });
    emulator.addProducts(shop, [{ id: PRODUCT, title: "Shoe", totalInventory: 1, variants: [] }]);
    await savedByFive(shop, PRODUCT);
    emulator.clearRequests();

    // Twenty minutes of sweeps, every 30 s.
    for (let elapsed = 0; elapsed < 2 * GRANT_RECHECK_MS; elapsed += SAVED_BY_SWEEP_INTERVAL_MS) {
      await runSavedBySweep();
      advanceTime(SAVED_BY_SWEEP_INTERVAL_MS);
    }
    expect(savedByMetafield(shop, PRODUCT)).toBeUndefined();
    expect(countRequests(shop)).toEqual(["SavedItemsAccessScopes", "SavedItemsAccessScopes"]);
    // The marks wait for the grant.
    expect((await rows(shop))[0]!.dirtySince).not.toBeNull();

    // Granted through the platform (its modal) but the app was not told: the next recheck finds it.
    emulator.grantOptionalScopes(shop, [SAVED_BY_SCOPE]);
    advanceTime(GRANT_RECHECK_MS);
    await runSavedBySweep();
    expect(savedByMetafield(shop, PRODUCT)).toBe(5);
  });

  test("after the merchant grants it on the Setup page, the waiting marks are flushed at the next sweep", async () => {
    const shop = await givenShop({ plan: "pro" });
    emulator.addProducts(shop, [{ id: PRODUCT, title: "Shoe", totalInventory: 1, variants: [] }]);
    await savedByFive(shop, PRODUCT);
    await runSavedBySweep();
    expect(savedByMetafield(shop, PRODUCT)).toBeUndefined();

    emulator.grantOptionalScopes(shop, [SAVED_BY_SCOPE]);
    // The card's post once App Bridge's permission modal resolved, with App Bridge's session token.
    const request = await withAdminSession(
      new Request(new URL("/app/saved-by-scope", APP_URL), { method: "POST" }),
      { shop, apiKey: TEST_ENV.SHOPIFY_API_KEY, apiSecret: TEST_ENV.SHOPIFY_API_SECRET },
      "bearer",
    );
    expect(await savedByScopeAction({ request, params: {}, context: {} })).toEqual({
      scope: SAVED_BY_SCOPE,
      granted: true,
    });
    await runSavedBySweep();
    expect(savedByMetafield(shop, PRODUCT)).toBe(5);
  });

  test("a revoked scope: the refused write turns the count off at once, until app/scopes_update brings it back", async () => {
    const shop = await givenCountingShop({ products: [PRODUCT] });
    emulator.revokeOptionalScopes(shop, [SAVED_BY_SCOPE]);
    await savedByFive(shop, PRODUCT);
    await runSavedBySweep();
    expect(savedByMetafield(shop, PRODUCT)).toBeUndefined();

    // Refused once: the following sweeps spend nothing until a recheck.
    emulator.clearRequests();
    for (let sweep = 0; sweep < 10; sweep++) {
      advanceTime(SAVED_BY_SWEEP_INTERVAL_MS);
      await runSavedBySweep();
    }
    expect(countRequests(shop)).toEqual([]);

    emulator.grantOptionalScopes(shop, [SAVED_BY_SCOPE]);
    const scopes = emulator.grantedScopes(shop);
    expect((await deliverWebhook("app/scopes_update", { shop, payload: { current: scopes } })).status).toBe(200);
    await runSavedBySweep();
    expect(savedByMetafield(shop, PRODUCT)).toBe(5);
  });
});
