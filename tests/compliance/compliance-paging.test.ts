// customers/redact over more saved items than one request returns: 150 saves first, so the
// platform's bucket is low and a page's delete may be throttled and retried.
import { http, HttpResponse } from "msw";
import { afterEach, describe, expect, test, vi } from "vitest";
import { callProxy, givenShop } from "../support/app";
import { ALICE, BOB, customers, gid, owners, redact } from "../support/compliance";
import { aSaveRequest } from "../support/fixtures";
import { emulator, platformServer } from "../support/platform";
import { refillCustomerPoints } from "../support/time";
import { loggedLines } from "../support/logs";

afterEach(() => vi.restoreAllMocks());

describe("customers/redact", () => {
  test("pages through more saved items than one request returns, and resumes after a failure between pages", async () => {
    const shop = await givenShop({ plan: "scale", customers });
    for (let page = 0; page < 3; page += 1) {
      const operations = Array.from({ length: 50 }, (_, index) => ({
        action: "save",
        context: `c${page}`,
        entityType: "product",
        entityGid: `gid://shopify/Product/${page * 50 + index + 1}`,
      }));
      refillCustomerPoints(); // a batch of 50 saves spends more than a customer's share at once
      expect((await callProxy("/proxy/api/batch", { shop, customerId: ALICE, body: { operations } })).status).toBe(200);
    }
    await callProxy("/proxy/api/save", { shop, customerId: BOB, body: aSaveRequest() });
    expect(owners(shop, "$app:save_item")).toHaveLength(151);

    // The delete of the second page (Alice's items past the first hundred, in the platform's id
    // order) fails once. The first page's delete may be throttled and retried after 150 saves, so
    // the failing request is told by its ids, not by its rank; every other request falls through.
    const numericId = (id: string) => Number(id.split("/").at(-1));
    const secondPage = new Set(
      emulator
        .metaobjects(shop, "$app:save_item")
        .filter((entry) => entry.fields.customer_id === gid(ALICE))
        .map((entry) => entry.id)
        .sort((a, b) => numericId(a) - numericId(b))
        .slice(100),
    );
    let failed = false;
    platformServer.use(
      http.post(/\/admin\/api\/[^/]+\/graphql\.json$/, async ({ request }) => {
        const { query, variables } = (await request.clone().json()) as {
          query: string;
          variables?: { ids?: string[] };
        };
        const ids = variables?.ids ?? [];
        if (failed || !query.includes("mutation SavedItemsComplianceDeleteRecords")) return undefined;
        if (!ids.some((id) => secondPage.has(id))) return undefined;
        failed = true;
        return HttpResponse.json({ errors: "Internal Server Error" }, { status: 500 });
      }),
    );
    loggedLines();

    expect((await redact(shop, ALICE)).status).toBe(500);
    expect(owners(shop, "$app:save_item")).toHaveLength(51);

    const redelivered = await redact(shop, ALICE);
    expect(redelivered.status).toBe(200);
    expect(await redelivered.json()).toMatchObject({ deleted: { items: 50, lists: 3 } });
    expect(owners(shop, "$app:save_item")).toEqual([gid(BOB)]);
    expect(owners(shop, "$app:save_list")).toEqual([gid(BOB)]);
  });
});
