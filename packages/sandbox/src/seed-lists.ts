// The seed's customer lists, made when the sandbox starts through the app's own operations on the
// app proxy (create-list, save, share-create), signed as the platform signs a logged-in shopper's
// request: what the storefront then shows is exactly what a shopper would have made. Every call
// repeats safely (create-list with the same context and name, save of a saved item), so a kept
// database is seeded again without a second list; share-create gives each start a new link.
import { setTimeout as sleep } from "node:timers/promises";
import { callSandboxProxy } from "./proxy-client";
import type { Seed } from "./seed";
import { PRODUCTS } from "./storefront/catalog";

export interface SeededShare {
  shop: string;
  customer: string;
  list: string;
  /** The storefront path of the shared page (under /apps/saved-items). */
  path: string;
}

/** A busy machine can make the emulated platform answer late: a retryable answer is tried again. */
const ATTEMPTS = 5;
const RETRY_AFTER_MS = 1_000;

async function call(base: string, shop: string, customer: string, operation: string, body: unknown) {
  let answer = await callSandboxProxy(base, `/proxy/api/${operation}`, { shop, customer, body });
  for (let attempt = 1; attempt < ATTEMPTS && answer.body?.error?.retryable === true; attempt++) {
    await sleep(RETRY_AFTER_MS);
    answer = await callSandboxProxy(base, `/proxy/api/${operation}`, { shop, customer, body });
  }
  if (answer.status !== 200) {
    throw new Error(
      `seeding ${shop} customer ${customer}: ${operation} answered ${answer.status} ${JSON.stringify(answer.body)}`,
    );
  }
  return answer.body as { data: Record<string, unknown> };
}

/** What the theme's hearts send with a catalogue product's save: its card's title, link, image and price. */
function snapshotOf(entityGid: string) {
  const product = PRODUCTS.find((candidate) => `gid://shopify/Product/${candidate.id}` === entityGid);
  return product
    ? {
        title: product.title,
        url: `/products/${product.handle}`,
        image: product.image,
        price: `$${(product.price / 100).toFixed(2)}`,
        handle: product.handle,
      }
    : undefined;
}

/** Makes every installed shop's customer lists through the app at `base`; answers the links shared. */
export async function seedCustomerLists(base: string, seed: Seed): Promise<SeededShare[]> {
  const shares: SeededShare[] = [];
  for (const shop of seed.shops.filter((candidate) => candidate.installed)) {
    for (const customer of shop.customers) {
      const id = customer.id.split("/").pop()!;
      for (const list of customer.lists) {
        if (list.name) await call(base, shop.domain, id, "create-list", { name: list.name, context: list.context });
        for (const entityGid of list.items) {
          await call(base, shop.domain, id, "save", {
            context: list.context,
            entityType: "product",
            entityGid,
            source: "seed",
            snapshot: snapshotOf(entityGid),
          });
        }
        if (list.shareAs === undefined) continue;
        const { data } = await call(base, shop.domain, id, "share-create", {
          context: list.context,
          displayName: list.shareAs,
        });
        shares.push({ shop: shop.domain, customer: id, list: list.name ?? list.context, path: String(data.path) });
      }
    }
  }
  return shares;
}
