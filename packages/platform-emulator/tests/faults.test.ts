import { setupServer } from "msw/node";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createPlatformEmulator } from "../src/index";
import { adminUrl, heldSleeps, postAdmin, TEST_SHOP } from "../src/testing";

const OTHER_SHOP = "other-shop.myshopify.com";
const TOKEN = "shpat_faults";
const SHOP_NAME = `query ShopName { shop { name } }`;

const sleeps = heldSleeps();
const emulator = createPlatformEmulator({ sleep: sleeps.sleep });
const server = setupServer(...emulator.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());
beforeEach(() => {
  emulator.reset();
  emulator.addShop({ domain: TEST_SHOP, adminAccessToken: TOKEN });
  emulator.addShop({ domain: OTHER_SHOP, adminAccessToken: TOKEN });
});

describe("graphqlErrors", () => {
  it("answers 200 with data null and a top-level errors array, for the matching shop only", async () => {
    emulator.injectFault({ kind: "graphqlErrors", shop: OTHER_SHOP, times: 2 });
    expect((await postAdmin(adminUrl(), TOKEN, SHOP_NAME)).body.data).toEqual({ shop: { name: "emulator-shop" } });
    const failed = await postAdmin(adminUrl(OTHER_SHOP), TOKEN, SHOP_NAME);
    expect(failed.status).toBe(200);
    expect(failed.body).toEqual({
      data: null,
      errors: [
        {
          message: expect.stringMatching(/^Internal error\. Looks like something went wrong on our end\./),
          extensions: { code: "INTERNAL_SERVER_ERROR", requestId: expect.any(String) },
        },
      ],
    });
    expect((await postAdmin(adminUrl(OTHER_SHOP), TOKEN, SHOP_NAME)).body.data).toBeNull();
    expect((await postAdmin(adminUrl(OTHER_SHOP), TOKEN, SHOP_NAME)).body.data).toBeDefined();
  });

  it("matches the operation name", async () => {
    emulator.injectFault({ kind: "graphqlErrors", operationName: "Other" });
    expect((await postAdmin(adminUrl(), TOKEN, SHOP_NAME)).body.data).toBeDefined();
    expect((await postAdmin(adminUrl(), TOKEN, `query Other { shop { id } }`)).body.data).toBeNull();
  });
});

describe("hang", () => {
  it("never answers: the client's timeout ends the request, and others are served meanwhile", async () => {
    emulator.injectFault({ kind: "hang", operationName: "Stuck" });
    const client = new AbortController();
    const stuck = postAdmin(adminUrl(), TOKEN, `query Stuck { shop { id } }`, undefined, { signal: client.signal });
    let stuckSettled = false;
    stuck.catch(() => undefined).finally(() => (stuckSettled = true));
    expect((await postAdmin(adminUrl(), TOKEN, SHOP_NAME)).status).toBe(200);
    expect(stuckSettled).toBe(false);
    client.abort();
    await expect(stuck).rejects.toThrow(/abort/i);
    await expect
      .poll(() => emulator.requests.map((request) => [request.operationName, request.status]))
      .toEqual([
        ["Stuck", 0],
        ["ShopName", 200],
      ]);
  });

  it("releases a request whose client never gives up on reset", async () => {
    emulator.injectFault({ kind: "hang" });
    const stuck = postAdmin(adminUrl(), TOKEN, SHOP_NAME);
    await expect.poll(() => emulator.countRequests()).toBe(1);
    emulator.reset();
    await expect(stuck).rejects.toThrow(TypeError);
  });
});

describe("delay", () => {
  it("answers normally after the delay, as many times as asked", async () => {
    emulator.injectFault({ kind: "delay", delayMs: 500, times: 2, api: "admin" });
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const delayed = postAdmin(adminUrl(), TOKEN, SHOP_NAME);
      await expect.poll(sleeps.waiting).toEqual([500]);
      expect(emulator.requests.at(-1)?.status).toBe(0);
      sleeps.wakeAll();
      expect((await delayed).body.data).toBeDefined();
    }
    expect((await postAdmin(adminUrl(), TOKEN, SHOP_NAME)).body.data).toBeDefined();
    expect(sleeps.waiting()).toEqual([]);
  });

  it("needs a delay", () => {
    expect(() => emulator.injectFault({ kind: "delay" })).toThrow(/delayMs/);
  });
});
