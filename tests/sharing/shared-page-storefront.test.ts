// The shared-list page as a shopper's browser gets it from the sandbox storefront: the app's Liquid
// answer rendered by a real Liquid engine inside the sandbox theme's layout.
import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, expect, test } from "vitest";
import { loader as sharedPageLoader } from "~/routes/proxy.shared.$token";
import { createStorefrontRouter } from "@saved-items/sandbox/storefront/router";
import { TEST_ENV } from "../support/test-env";
import { DEMO_SHOP, givenShop, sendToApp } from "../support/app";
import { callProxy } from "../support/app";
import { aSaveRequest } from "../support/fixtures";
import { emulator } from "../support/platform";

let close: (() => void) | undefined;
afterEach(() => close?.());

/** The app as the storefront's proxy reaches it; the shared page is a param route the test router does not know. */
async function forward(request: Request): Promise<Response> {
  const token = /^\/proxy\/shared\/([^/]+)$/.exec(new URL(request.url).pathname)?.[1];
  return token === undefined ? sendToApp(request) : sharedPageLoader({ request, params: { token }, context: {} });
}

async function storefront(): Promise<string> {
  const app = express();
  app.use(
    createStorefrontRouter({
      forward,
      apiSecret: TEST_ENV.SHOPIFY_API_SECRET,
      seed: { shops: [{ domain: DEMO_SHOP, plan: "starter", installed: true, customers: [] }] },
    }),
  );
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  close = () => server.close();
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

test("renders inside the theme for a logged-out shopper; a revoked link is the not-found page", async () => {
  await givenShop({ plan: "starter" });
  emulator.addProducts(DEMO_SHOP, [
    { id: "gid://shopify/Product/1", title: "Linen shirt", handle: "linen-shirt", totalInventory: 1, variants: [] },
  ]);
  await callProxy("/proxy/api/save", {
    body: aSaveRequest({ snapshot: { title: "Linen shirt", handle: "linen-shirt", price: "$49.00" } }),
  });
  const { token } = (await callProxy("/proxy/api/share-create", { body: { context: "wishlist", displayName: "Ana" } }))
    .body.data;
  const base = await storefront();

  const page = await fetch(`${base}/apps/saved-items/shared/${token}`);
  expect(page.status).toBe(200);
  expect(page.headers.get("content-type")).toMatch(/^text\/html/);
  const html = await page.text();
  expect(html).toMatch(/<html/i); // the theme's layout around it
  expect(html).toContain("Saved by Ana");
  expect(html).toContain('<a href="/products/linen-shirt">');
  expect(html).toContain("Linen shirt");

  await callProxy("/proxy/api/share-revoke", { body: { context: "wishlist" } });
  const revoked = await fetch(`${base}/apps/saved-items/shared/${token}`);
  expect(revoked.status).toBe(404);
  expect(await revoked.text()).toContain("This list is not shared");
});
