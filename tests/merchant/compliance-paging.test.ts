// customers/redact over more saved items than one request returns, in a file of its own: a sweep
// that an earlier redaction test leaves running would take the place of the failing page here.
import { http, HttpResponse } from "msw";
import { afterEach, describe, expect, test, vi } from "vitest";
import { callProxy, givenShop } from "../support/app";
import { ALICE, BOB, customers, gid, owners, redact } from "../support/compliance";
import { aSaveRequest } from "../support/fixtures";
import { platformServer } from "../support/platform";

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
      expect((await callProxy("/proxy/api/batch", { shop, customerId: ALICE, body: { operations } })).status).toBe(200);
    }
    await callProxy("/proxy/api/save", { shop, customerId: BOB, body: aSaveRequest() });
    expect(owners(shop, "$app:save_item")).toHaveLength(151);

    // The second delete request (the second page of items) fails once. The emulator's faults
    // match by operation name only, so this handler counts; every other request falls through to it.
    let deletes = 0;
    platformServer.use(
      http.post(/\/admin\/api\/[^/]+\/graphql\.json$/, async ({ request }) => {
        const { query } = (await request.clone().json()) as { query: string };
        // Only this shop's: a sweep left running by an earlier test may delete on its own shop meanwhile.
        if (!request.url.includes(shop) || !query.includes("mutation SavedItemsComplianceDeleteRecords")) {
          return undefined;
        }
        deletes += 1;
        return deletes === 2 ? HttpResponse.json({ errors: "Internal Server Error" }, { status: 500 }) : undefined;
      }),
    );
    vi.spyOn(console, "error").mockImplementation(() => {});

    expect((await redact(shop, ALICE)).status).toBe(500);
    expect(owners(shop, "$app:save_item")).toHaveLength(51);

    const redelivered = await redact(shop, ALICE);
    expect(redelivered.status).toBe(200);
    expect(await redelivered.json()).toMatchObject({ deleted: { items: 50, lists: 3 } });
    expect(owners(shop, "$app:save_item")).toEqual([gid(BOB)]);
    expect(owners(shop, "$app:save_list")).toEqual([gid(BOB)]);
  });
});
