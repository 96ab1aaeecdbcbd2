// npx tsx --expose-gc tools/bench/recount-memory.ts [--items 1000000 --customers 100000 --products 20000]:
// the heap the saved-by recount's counter (app/services/saved-by/recount-plan.ts) keeps after
// reading a bulk result of that many active product save_items line by line, beside the result's
// own size and the heap of a counter keeping each line's shopper GID, both from the same run.
import { parseArgs } from "node:util";
import { createShopperCounter } from "~/services/saved-by/recount-plan";
import { mib } from "./stats";

const { values } = parseArgs({
  options: {
    items: { type: "string", default: "1000000" },
    customers: { type: "string", default: "100000" },
    products: { type: "string", default: "20000" },
  },
});
const items = Number(values.items);
const customers = Number(values.customers);
const products = Number(values.products);

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with --expose-gc (npx tsx --expose-gc tools/bench/recount-memory.ts)");

/** Item i, as read from its result line: customer i's (i / customers)-th save, in fresh strings as JSON.parse makes them. */
function item(index: number) {
  const customer = 7_000_000_000_000 + (index % customers);
  const product = 8_000_000_000_000 + ((index * 7919 + Math.floor(index / customers)) % products);
  return {
    customerGid: `gid://shopify/Customer/${customer}`,
    context: "wishlist",
    entityType: "product",
    entityGid: `gid://shopify/Product/${product}`,
    active: true,
    savedAt: "2026-11-27T08:00:00.000Z",
  };
}

/** The item's line in the bulk result file, as the platform writes it. */
function resultLine(index: number): string {
  const { customerGid, context, entityType, entityGid, savedAt } = item(index);
  const fields = {
    customer_id: customerGid,
    context,
    entity_type: entityType,
    entity_gid: entityGid,
    status: "active",
    saved_at: savedAt,
  };
  return JSON.stringify({
    id: `gid://shopify/Metaobject/${9_000_000_000_000 + index}`,
    fields: Object.entries(fields).map(([key, value]) => ({ key, value })),
  });
}

/** What a counter holds once every item has passed through it, the items themselves long gone. */
function heapKept(counter: { add(line: ReturnType<typeof item>): void }): number {
  gc!();
  const before = process.memoryUsage().heapUsed;
  for (let index = 0; index < items; index += 1) counter.add(item(index));
  gc!();
  return process.memoryUsage().heapUsed - before;
}

/** The baseline: distinct shoppers kept as the GID strings each line brought. */
function gidCounter() {
  const shoppers = new Map<string, Set<string>>();
  return {
    add(line: { entityGid: string; customerGid: string }) {
      let set = shoppers.get(line.entityGid);
      if (!set) shoppers.set(line.entityGid, (set = new Set()));
      set.add(line.customerGid);
    },
    size: () => shoppers.size,
  };
}

let fileBytes = 0;
for (let index = 0; index < items; index += 1) fileBytes += Buffer.byteLength(resultLine(index)) + 1;

const counter = createShopperCounter();
const kept = heapKept(counter);
const pairs = [...counter.counts().values()].reduce((sum, count) => sum + count, 0);
const baseline = gidCounter();
const baselineKept = heapKept(baseline);

console.log(
  `\nSaved-by recount, ${items} active product items (${customers} customers, ${products} products, ${pairs} distinct pairs):\n` +
    `  the result file: ${mib(fileBytes)}\n` +
    `  heap kept by the recount's counter: ${mib(kept)}\n` +
    `  heap kept by a counter of GID strings (baseline): ${mib(baselineKept)} (${baseline.size()} products)`,
);
