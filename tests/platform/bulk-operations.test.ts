import { setupServer } from "msw/node";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { generateSavedItems, productGid, variantGid } from "@saved-items/sandbox/saved-items-seed";
import { startEmulatorServer, type EmulatorServer } from "@saved-items/platform-emulator/http-server";
import { createPlatformEmulator } from "@saved-items/platform-emulator";

const SHOP = "bulk-shop.myshopify.com";
const TOKEN = "shpat_bulk";
const ADMIN_URL = `https://${SHOP}/admin/api/2026-10/graphql.json`;
const START = Date.parse("2026-11-20T12:00:00Z");

let clockMs = START;
const emulator = createPlatformEmulator({ now: () => new Date(clockMs) });
const server = setupServer(...emulator.handlers);

beforeAll(() =>
  server.listen({
    // The HTTP server test below reaches the emulator on loopback; everything else must be handled.
    onUnhandledRequest: (request, print) => {
      if (new URL(request.url).hostname !== "127.0.0.1") print.error();
    },
  }),
);
afterAll(() => server.close());
beforeEach(() => {
  clockMs = START;
  emulator.reset();
  emulator.setBulkOperationDuration(0);
  emulator.addShop({ domain: SHOP, adminAccessToken: TOKEN });
});

async function admin(query: string, variables: Record<string, unknown> = {}, url = ADMIN_URL) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Shopify-Access-Token": TOKEN },
    body: JSON.stringify({ query, variables }),
  });
  // Response data is checked field by field; typing every document's shape would add nothing.
  return (await response.json()) as { data?: any; errors?: { message: string }[] };
}

const INNER = `{ metaobjects(type: "$app:save_item") { edges { node { id handle fields { key value } } } } }`;
const RUN = `mutation Run($query: String!) {
  bulkOperationRunQuery(query: $query) { bulkOperation { id status } userErrors { field message code } }
}`;
const POLL = `query Poll($id: ID!) {
  bulkOperation(id: $id) { id status objectCount fileSize url errorCode }
  currentBulkOperation { id status }
}`;

function seed(count: number) {
  const generated = generateSavedItems({ count, customers: 50, products: 20 }, new Date(START));
  emulator.importMetaobjects(SHOP, "$app:save_list", generated.lists);
  emulator.importMetaobjects(SHOP, "$app:save_item", generated.saveItems);
  emulator.addProducts(SHOP, generated.products);
  return generated;
}

describe("bulk operations", () => {
  it("runs a metaobjects query over every entry, ignoring page sizes, and serves the JSONL", async () => {
    const generated = seed(600);
    const run = await admin(RUN, { query: INNER });
    expect(run.data.bulkOperationRunQuery.userErrors).toEqual([]);
    const { id } = run.data.bulkOperationRunQuery.bulkOperation;

    const poll = await admin(POLL, { id });
    expect(poll.data.bulkOperation).toMatchObject({ id, status: "COMPLETED", objectCount: "600", errorCode: null });
    expect(poll.data.currentBulkOperation).toEqual({ id, status: "COMPLETED" });
    const node = await admin(`query Node($id: ID!) { node(id: $id) { ... on BulkOperation { status objectCount } } }`, {
      id,
    });
    expect(node.data.node).toEqual({ status: "COMPLETED", objectCount: "600" });

    const file = await fetch(poll.data.bulkOperation.url as string);
    expect(file.headers.get("Content-Type")).toBe("application/jsonl");
    const text = await file.text();
    expect(Buffer.byteLength(text)).toBe(Number(poll.data.bulkOperation.fileSize));
    const lines = text
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(600);
    expect(lines.map((line) => line.handle)).toEqual(generated.saveItems.map((item) => item.handle));
    expect(lines[0].fields).toContainEqual({ key: "status", value: generated.items[0]!.status });
  });

  it("reports RUNNING with a growing objectCount until its duration has passed", async () => {
    seed(100);
    emulator.setBulkOperationDuration(10_000);
    const { id } = (await admin(RUN, { query: INNER })).data.bulkOperationRunQuery.bulkOperation;
    clockMs += 5_000;
    const running = (await admin(POLL, { id })).data.bulkOperation;
    expect(running).toMatchObject({ status: "RUNNING", objectCount: "50", url: null });
    clockMs += 5_000;
    expect((await admin(POLL, { id })).data.bulkOperation).toMatchObject({ status: "COMPLETED", objectCount: "100" });
  });

  it("refuses an inner query the schema rejects, as a userError", async () => {
    const run = await admin(RUN, { query: `{ metaobjects(type: "$app:save_item") { edges { node { nope } } } }` });
    expect(run.data.bulkOperationRunQuery.bulkOperation).toBeNull();
    expect(run.data.bulkOperationRunQuery.userErrors[0].message).toMatch(/Cannot query field "nope"/);
  });

  it("gives no URL when the query matched nothing, and answers nodes(ids:) from the catalogue", async () => {
    const { id } = (await admin(RUN, { query: INNER })).data.bulkOperationRunQuery.bulkOperation;
    expect((await admin(POLL, { id })).data.bulkOperation).toMatchObject({
      status: "COMPLETED",
      objectCount: "0",
      url: null,
    });

    seed(10);
    const nodes =
      await admin(`query { nodes(ids: ["${productGid(3)}", "${variantGid(0, 1)}", "gid://shopify/Product/1"]) {
      id
      ... on Product { title totalInventory priceRangeV2 { minVariantPrice { amount currencyCode } } }
      ... on ProductVariant { displayName price availableForSale }
    } }`);
    expect(nodes.errors).toBeUndefined();
    expect(nodes.data.nodes).toEqual([
      {
        id: productGid(3),
        title: "Product 4",
        totalInventory: 0,
        priceRangeV2: { minVariantPrice: { amount: "31.00", currencyCode: "USD" } },
      },
      { id: variantGid(0, 1), displayName: "Product 1 - Medium", price: "15.00", availableForSale: true },
      null,
    ]);
  });
});

describe("bulk operations through the emulator's HTTP server", () => {
  let http: EmulatorServer;
  beforeAll(async () => {
    http = await startEmulatorServer({ emulator });
  });
  afterAll(() => http.close());

  it("serves the result file at the emulator address of its platform URL", async () => {
    seed(25);
    const viaServer = (url: string) => `${http.url}/${new URL(url).host}${new URL(url).pathname}`;
    const { id } = (await admin(RUN, { query: INNER }, viaServer(ADMIN_URL))).data.bulkOperationRunQuery.bulkOperation;
    const { url } = (await admin(POLL, { id }, viaServer(ADMIN_URL))).data.bulkOperation;
    const text = await (await fetch(viaServer(url as string))).text();
    expect(text.trimEnd().split("\n")).toHaveLength(25);
  });
});
