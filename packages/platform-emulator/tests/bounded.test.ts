import { setupServer } from "msw/node";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseDocument, validateDocument } from "../src/documents";
import { createPlatformEmulator } from "../src/index";
import { getSchema } from "../src/schemas";
import { adminUrl, postAdmin, TEST_SHOP } from "../src/testing";

const emulator = createPlatformEmulator({ requestLogLimit: 3 });
const server = setupServer(...emulator.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());
beforeEach(() => {
  emulator.reset();
  emulator.addShop({ domain: TEST_SHOP, adminAccessToken: "shpat_bounded" });
});

const shopQuery = (n: number) => `query Q${n} { shop { id } }`;

describe("request log", () => {
  it("keeps only the most recent requests while the counts stay exact", async () => {
    for (let n = 1; n <= 5; n += 1) await postAdmin(adminUrl(), "shpat_bounded", shopQuery(n));
    expect(emulator.requests.map((request) => request.operationName)).toEqual(["Q3", "Q4", "Q5"]);
    expect(emulator.countRequests()).toBe(5);
    expect(emulator.countRequests({ api: "admin", shop: TEST_SHOP })).toBe(5);
    expect(emulator.countRequests({ api: "storefront" })).toBe(0);
  });

  it("bounds the schema violations the same way", async () => {
    for (let n = 1; n <= 4; n += 1) await postAdmin(adminUrl(), "shpat_bounded", `{ shop { nope${n} } }`);
    expect(emulator.schemaViolations.map((violation) => violation.query)).toEqual([
      "{ shop { nope2 } }",
      "{ shop { nope3 } }",
      "{ shop { nope4 } }",
    ]);
  });
});

describe("document cache", () => {
  it("parses and validates a document text once", () => {
    const schema = getSchema("admin", "2026-10")!;
    const first = parseDocument(shopQuery(100));
    expect(parseDocument(shopQuery(100))).toBe(first);
    if (!("document" in first)) throw new Error("expected a document");
    expect(validateDocument(schema, first.document)).toBe(validateDocument(schema, first.document));
  });

  it("forgets the least recently used text beyond its bound", () => {
    const kept = parseDocument(shopQuery(0));
    const dropped = parseDocument(shopQuery(-1));
    for (let n = 1; n < 500; n += 1) {
      parseDocument(shopQuery(0));
      parseDocument(shopQuery(1000 + n));
    }
    expect(parseDocument(shopQuery(0))).toBe(kept);
    expect(parseDocument(shopQuery(-1))).not.toBe(dropped);
  });

  it("still reports every request whose cached document the schema rejects", async () => {
    const query = `{ shop { nonexistentField } }`;
    await postAdmin(adminUrl(), "shpat_bounded", query);
    const again = await postAdmin(adminUrl(), "shpat_bounded", query);
    expect(again.body.errors?.[0]?.extensions).toEqual({ code: "undefinedField" });
    expect(emulator.schemaViolations).toHaveLength(2);
  });
});

describe("handle", () => {
  it("answers a Request without msw, with the same logic", async () => {
    const response = await emulator.handle(
      new Request(adminUrl(), {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Shopify-Access-Token": "shpat_bounded" },
        body: JSON.stringify({ query: "query Direct { shop { myshopifyDomain } }" }),
      }),
    );
    expect(response?.status).toBe(200);
    expect(((await response?.json()) as { data: unknown }).data).toEqual({ shop: { myshopifyDomain: TEST_SHOP } });
    expect(emulator.requests.at(-1)).toMatchObject({ api: "admin", operationName: "Direct", status: 200 });
    expect(await emulator.handle(new Request("https://example.com/elsewhere"))).toBeUndefined();
  });
});
