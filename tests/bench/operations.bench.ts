// Latency of each operation through the real route handlers, with the platform emulated in-process
// (so the figures are the app's own overhead: signature check, zod, budget UPDATE, GraphQL building).
// Run: npm run bench
import { bench, describe } from "vitest";
import { callProxy, givenShop } from "../support/app";
import { aSaveRequest, anIdentity, identityQuery } from "../support/fixtures";
import { emulator } from "../support/platform";

let shopReady: Promise<unknown> | undefined;
let counter = 0;
const ready = () =>
  (shopReady ??= givenShop({ plan: "scale" }).then(() => {
    // Measure the app, not the platform's rate limit.
    emulator.setThrottling(false);
  }));

function expectOk(status: number) {
  if (status !== 200) throw new Error(`unexpected status ${status}`);
}

describe("Online Store operations", () => {
  bench("save (new item)", async () => {
    await ready();
    const { status } = await callProxy("/proxy/api/save", {
      body: aSaveRequest({ entityGid: `gid://shopify/Product/${++counter}` }),
    });
    expectOk(status);
  });

  bench("is-saved", async () => {
    await ready();
    expectOk((await callProxy("/proxy/api/is-saved", { query: identityQuery() })).status);
  });

  bench("list (20 items)", async () => {
    await ready();
    expectOk((await callProxy("/proxy/api/list", { query: { context: "wishlist" } })).status);
  });

  bench("toggle", async () => {
    await ready();
    expectOk((await callProxy("/proxy/api/toggle", { body: aSaveRequest({ context: "toggle" }) })).status);
  });

  bench("batch of 50 saves", async () => {
    await ready();
    const base = ++counter * 100;
    const operations = Array.from({ length: 50 }, (_, index) => ({
      action: "save",
      ...anIdentity({ context: "batch", entityGid: `gid://shopify/Product/${base + index}` }),
    }));
    expectOk((await callProxy("/proxy/api/batch", { body: { operations } })).status);
  });
});

process.on("beforeExit", () => {
  console.log(`emulated Admin requests served: ${emulator.countRequests({ api: "admin" })}`);
});
