// Product cards' cost in `npm run bench` (`-- --only cards` runs it alone): the platform requests
// and points of one list view of 20 items, cold and warm, for products (with cards) beside the
// same list of collections (no cards) in the same run: the difference is what cards cost.
import type http from "node:http";
import { closedLoop } from "./load";
import { aSaveRequest } from "../../tests/support/fixtures";
import { list, type Shopper } from "./requests";
import { signed, usageDelta, type MeasuredSandbox } from "./sandbox";

const SHOP = "bench-ops.myshopify.com";
const ITEMS = 20;
const CARD_DOCUMENT = "SavedItemsProductCards";

export async function measureCardCost(options: {
  sandbox: MeasuredSandbox;
  instanceUrl: string;
  agent: http.Agent;
}): Promise<void> {
  const { sandbox, instanceUrl, agent } = options;
  console.error("measuring product cards' platform requests per list view...");
  const gids = (kind: "Product" | "Collection") =>
    Array.from({ length: ITEMS }, (_, index) => `gid://shopify/${kind}/${7_000_000 + index}`);
  await sandbox.emulator.addProducts(
    SHOP,
    gids("Product").map((id, index) => ({
      id,
      title: `Bench product ${index}`,
      imageUrl: `https://cdn.shopify.com/s/files/1/bench-${index}.png`,
      totalInventory: 10,
      variants: [
        { id: id.replace("Product", "ProductVariant"), title: "Default Title", price: "10.00", availableForSale: true },
      ],
    })),
  );
  const run = async (requests: ReturnType<typeof list>[]) =>
    closedLoop({ agent, concurrency: 1, durationMs: 600_000, next: (index) => requests[index] });
  const rows: string[] = [];
  for (const [label, kind, shopper] of [
    ["without cards (collections)", "Collection", { shop: SHOP, customer: "700001" }],
    ["with cards (products)", "Product", { shop: SHOP, customer: "700002" }],
  ] as [string, "Product" | "Collection", Shopper][]) {
    const entityType = kind === "Product" ? "product" : "collection";
    await run(
      gids(kind).map((entityGid) => ({
        method: "POST",
        url: signed(instanceUrl, "save", shopper),
        body: JSON.stringify(aSaveRequest({ entityType, entityGid })),
      })),
    );
    for (const view of ["cold", "warm"]) {
      await sandbox.emulator.clearRequests();
      const before = await sandbox.usage(SHOP);
      await run([list(instanceUrl, shopper)]);
      const delta = usageDelta(before, await sandbox.usage(SHOP));
      const cards = (await sandbox.emulator.requests({ shop: SHOP, limit: 100 })).filter(
        (request) => request.operationName === CARD_DOCUMENT,
      );
      const cardPoints = cards.reduce((sum, request) => sum + (request.points?.actual ?? 0), 0);
      rows.push(
        `  ${label}, ${view}: ${delta.requests} platform requests, ${delta.actualPoints} points ` +
          `(cards: ${cards.length} requests, ${cardPoints} points)`,
      );
    }
  }
  console.log(`\nProduct cards: one list view of ${ITEMS} items, a customer's first read (cold) and the next (warm)`);
  console.log(rows.join("\n"));
}
