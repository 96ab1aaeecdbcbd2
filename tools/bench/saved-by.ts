// The "saved by N shoppers" count's cost in `npm run bench`: saves over the app proxy, most to a
// few popular products and the rest to products saved once, then one sweep of the sandbox's
// timer; the platform requests the count made per save, beside the saves' own from the same run.
import type http from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { closedLoop } from "./load";
import { product, write } from "./requests";
import type { MeasuredSandbox } from "./sandbox";
import { fixed } from "./stats";

export const SAVED_BY_SHOP = "bench-saved-by.myshopify.com";
const CUSTOMERS = 400;
const SAVES = 2_400;
/** Of every 5 saves, this many go to one of the 18 popular products (a different one each round). */
const POPULAR_OF_FIVE = 3;
/** One sweep of the app's timer (SAVED_BY_SWEEP_INTERVAL_MS) and a margin for its flush. */
const SWEEP_WAIT_MS = 40_000;
/**
 * The documents of the saved-by count (the read of which products exist, its searches for savers
 * and its metafield writes), background work.
 */
export const SAVED_BY_COUNT_DOCUMENTS =
  /SavedItemsExistingProducts|SavedItemsFindSavers|SavedItemsSetSavedBy|SavedItemsDeleteSavedBy/;
/** The popular products: only products the shop has get a count, so they are added to its catalogue. */
const POPULAR_PRODUCTS = Array.from({ length: (SAVES / CUSTOMERS) * POPULAR_OF_FIVE }, (_, index) =>
  product(9_000_000 + index),
);

function savedProduct(index: number): string {
  const slot = index % 5; // a customer's slot, as CUSTOMERS is a multiple of 5
  const round = Math.floor(index / CUSTOMERS);
  return slot < POPULAR_OF_FIVE ? product(9_000_000 + round * POPULAR_OF_FIVE + slot) : product(9_100_000 + index);
}

export async function measureSavedByCost(options: {
  sandbox: MeasuredSandbox;
  instanceUrl: string;
  agent: http.Agent;
  concurrency: number;
}): Promise<void> {
  const { sandbox, instanceUrl, agent, concurrency } = options;
  console.error("measuring the saved-by count's platform requests per save...");
  await sandbox.emulator.addProducts(
    SAVED_BY_SHOP,
    POPULAR_PRODUCTS.map((id) => ({ id, title: id, totalInventory: 1, variants: [] })),
  );
  await sandbox.emulator.clearRequests();
  const result = await closedLoop({
    agent,
    concurrency,
    durationMs: 600_000,
    next: (index) =>
      index < SAVES
        ? write(
            instanceUrl,
            { shop: SAVED_BY_SHOP, customer: String(400_000 + (index % CUSTOMERS)) },
            "save",
            savedProduct(index),
          )
        : undefined,
  });
  const saves = result.outcomes.filter((outcome) => outcome.status === 200).length;
  await sleep(SWEEP_WAIT_MS);
  const requests = await sandbox.emulator.requests({ shop: SAVED_BY_SHOP, limit: 10_000 });
  const total = await sandbox.emulator.countRequests({ shop: SAVED_BY_SHOP });
  const counting = requests.filter((request) => SAVED_BY_COUNT_DOCUMENTS.test(request.query ?? "")).length;
  console.log(
    `\nSaved-by count: ${saves} saves (${POPULAR_OF_FIVE} in 5 to 18 popular products, the rest to products saved once), ` +
      `then one sweep. Platform requests per save for the saved-by count: ${fixed(counting / saves, 3)} ` +
      `(${counting} requests; target ≤ 0.1) beside the saves' own: ${fixed((total - counting) / saves, 3)} ` +
      `(${total - counting} requests)` +
      (requests.length < total ? `; the emulator's log held ${requests.length} of ${total}` : "") +
      ". What a flush left waiting below the cost threshold goes within 5 minutes, at most one request per product.",
  );
}
