// The client package against the app's real request handler (sendToApp: Remix's handler on the
// app's routes, the platform emulated): exchange, save, list, is-saved and remove on both
// channels, and an error envelope arriving as the typed error.
import { describe, expect, test } from "vitest";
import {
  createCustomerAccountClient,
  createHeadlessClient,
  SavedItemsError,
  type FetchLike,
} from "../../packages/client/src/index";
import { APP_URL, DEMO_SHOP, sendToApp } from "../support/app";
import { aSessionToken, CUSTOMER, givenDirectShop } from "../support/direct";
import { aSaveRequest, anIdentity } from "../support/fixtures";

const viaApp: FetchLike = (url, init) => sendToApp(new Request(url, init));

const clients = {
  headless: () =>
    createHeadlessClient({
      baseUrl: APP_URL,
      fetch: viaApp,
      credentials: () => ({ shop: DEMO_SHOP, customerAccountAccessToken: CUSTOMER.customerAccountAccessToken }),
    }),
  "customer-account": () =>
    createCustomerAccountClient({
      baseUrl: APP_URL,
      fetch: viaApp,
      getSessionToken: () => aSessionToken(),
    }),
};

describe.each(["headless", "customer-account"] as const)("the client on /api/%s", (channel) => {
  test("exchanges, saves, lists, checks and removes", async () => {
    await givenDirectShop({ plan: "scale" });
    const client = clients[channel]();
    const item = { ...aSaveRequest({ snapshot: { title: "Boots" } }), entityType: "product" as const };

    const saved = await client.save(item);
    expect(saved).toEqual({ id: expect.stringMatching(/^gid:\/\/shopify\/Metaobject\/\d+$/), state: "active" });
    const listed = await client.list({ context: "wishlist" });
    expect(listed.items).toEqual([expect.objectContaining({ id: saved.id, snapshot: { title: "Boots" } })]);
    expect(await client.isSaved({ ...anIdentity(), entityType: "product" })).toEqual({ saved: true });
    expect(await client.call("remove", { ...anIdentity(), entityType: "product" })).toEqual({
      id: saved.id,
      state: "removed",
    });
    expect((await client.list({ context: "wishlist" })).items).toEqual([]);
  });

  test("an error envelope is a SavedItemsError with the service's code and status", async () => {
    await givenDirectShop({ plan: "scale" });
    const client = clients[channel]();
    const item = { ...aSaveRequest(), entityType: "product" as const };
    await client.save(item);

    const duplicate = await client.save(item).catch((error: unknown) => error);
    expect(duplicate).toBeInstanceOf(SavedItemsError);
    expect(duplicate).toMatchObject({ code: "DUPLICATE_SAVE", status: 409, retryable: false });
  });
});
