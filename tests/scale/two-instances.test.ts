// Several instances, one truth: the two-instance sandbox (SANDBOX_INSTANCES=2: two app processes
// behind the round-robin front, sharing the database, Redis and the emulator process), driven over
// real HTTP, each instance addressed directly where it matters which one answers.
import { afterAll, beforeAll, expect, test } from "vitest";
import { createRemoteEmulator, type RemoteEmulator } from "@saved-items/platform-emulator/remote";
import { SANDBOX_DEFAULTS } from "@saved-items/sandbox/config";
import { callSandboxProxy as call } from "@saved-items/sandbox/proxy-client";
import { startSandbox, type RunningSandbox } from "@saved-items/sandbox/sandbox-process";
import { signedWebhook } from "../support/admin";
import { describeWithRedis } from "../support/instances";

let sandbox: RunningSandbox;
let instances: string[];
let emulator: RemoteEmulator;

beforeAll(async () => {
  sandbox = await startSandbox({ SANDBOX_INSTANCES: "2" });
  const listed = (await (await fetch(`${sandbox.url}/__sandbox/instances`)).json()) as { instances: { url: string }[] };
  instances = listed.instances.map((instance) => instance.url);
  emulator = createRemoteEmulator(/platform emulated at (\S+);/.exec(sandbox.output())![1]!);
}, 300_000);
afterAll(async () => {
  await sandbox?.stop();
});

const DEMO = "demo.myshopify.com";

const item = (entityGid: string, context = "wishlist") => ({
  context,
  entityType: "product",
  entityGid,
  source: "scale-test",
});
const identity = (entityGid: string, context = "wishlist") => ({ context, entityType: "product", entityGid });
/** Spreads calls over both instances: even indices to the first, odd to the second. */
const on = (index: number) => instances[index % instances.length]!;

/**
 * A write sent again while it is refused retryably, as a client does (at most 5 times): writes to
 * one list wait for its lock 5 s at most, which on a loaded machine the last of 10 or 20 at once
 * can run out of; the refused write was not made.
 */
async function retried(send: () => ReturnType<typeof call>): ReturnType<typeof call> {
  for (let attempt = 0; ; attempt++) {
    const answer = await send();
    if (answer.status === 200 || answer.body.error?.retryable !== true || attempt === 5) return answer;
  }
}

describeWithRedis("two instances, one truth", () => {
  test("10 concurrent saves of one new item over both instances: exactly one 200 and nine DUPLICATE_SAVE", async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        retried(() =>
          call(on(index), "/proxy/api/save", { customer: "51001", body: item("gid://shopify/Product/7001") }),
        ),
      ),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(
      answers.filter((answer) => answer.status === 409 && answer.body.error.code === "DUPLICATE_SAVE"),
    ).toHaveLength(9);
  });

  test("20 concurrent toggles over both instances end in the state their count implies", async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        retried(() =>
          call(on(index), "/proxy/api/toggle", { customer: "51002", body: item("gid://shopify/Product/7002") }),
        ),
      ),
    );
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(refused.map((answer) => `${answer.status} ${JSON.stringify(answer.body)}`)).toEqual([]);
    const states = answers.map((answer) => answer.body.data.state);
    expect(states.filter((state) => state === "active")).toHaveLength(10);
    expect(states.filter((state) => state === "removed")).toHaveLength(10);
    for (const base of instances) {
      expect(
        (await call(base, "/proxy/api/is-saved", { customer: "51002", query: identity("gid://shopify/Product/7002") }))
          .body.data,
      ).toEqual({
        saved: false,
      });
    }
  });

  test("a save through one instance is seen at once by is-saved and list through the other", async () => {
    const customer = "51003";
    for (let round = 0; round < 5; round++) {
      const gid = `gid://shopify/Product/71${round}`;
      expect((await call(on(round), "/proxy/api/save", { customer, body: item(gid, "coherent") })).status).toBe(200);
      const other = on(round + 1);
      expect(
        (await call(other, "/proxy/api/is-saved", { customer, query: identity(gid, "coherent") })).body.data,
      ).toEqual({
        saved: true,
      });
      const listed = await call(other, "/proxy/api/list", { customer, query: { context: "coherent" } });
      expect(listed.body.data.items.map((entry: { entityGid: string }) => entry.entityGid)).toContain(gid);
      expect((await call(on(round), "/proxy/api/remove", { customer, body: identity(gid, "coherent") })).status).toBe(
        200,
      );
      expect(
        (await call(other, "/proxy/api/is-saved", { customer, query: identity(gid, "coherent") })).body.data,
      ).toEqual({
        saved: false,
      });
    }
  });

  test("the monthly budget stays exact with requests spread over both instances", async () => {
    // free-demo: 500 requests a month. 40 customers, so no one customer's share or rate is reached.
    const answers = await Promise.all(
      Array.from({ length: 520 }, (_, index) =>
        call(on(index), "/proxy/api/is-saved", {
          shop: "free-demo.myshopify.com",
          customer: String(30_000 + (index % 40)),
          query: identity("gid://shopify/Product/1"),
        }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(500);
    expect(answers.filter((answer) => answer.status === 402)).toHaveLength(20);
  }, 60_000);

  test("an expired offline token is refreshed once for the shop, not once per instance", async () => {
    const before = (await emulator.usage(DEMO)).refreshes;
    await emulator.expireAdminToken(DEMO);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        call(on(index), "/proxy/api/is-saved", {
          customer: String(40_000 + index),
          query: identity("gid://shopify/Product/1"),
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
    expect((await emulator.usage(DEMO)).refreshes - before).toBe(1);
  });

  test("an uninstall delivered to one instance takes effect on the other at once", async () => {
    // (Its budget is spent by now, so before the uninstall it answers 402.)
    const shop = "free-demo.myshopify.com";
    expect(
      (await call(on(1), "/proxy/api/is-saved", { shop, customer: "2001", query: identity("gid://shopify/Product/2") }))
        .status,
    ).not.toBe(403);
    const webhook = signedWebhook("app/uninstalled", {
      shop,
      payload: { domain: shop },
      secret: SANDBOX_DEFAULTS.SHOPIFY_API_SECRET,
      baseUrl: on(0),
    });
    expect((await fetch(webhook)).status).toBe(200);
    const after = await call(on(1), "/proxy/api/is-saved", {
      shop,
      customer: "2001",
      query: identity("gid://shopify/Product/2"),
    });
    expect(after.status).toBe(403);
    expect(after.body.error.code).toBe("SHOP_NOT_INSTALLED");
  });
});
