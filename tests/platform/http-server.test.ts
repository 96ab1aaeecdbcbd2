import { ACCESS_SCOPES } from "~/platform/access-scopes";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { emulatorUrlFor, startEmulatorServer, type EmulatorServer } from "@saved-items/platform-emulator/http-server";
import { createPlatformEmulator } from "@saved-items/platform-emulator";
import { createRemoteEmulator, type RemoteEmulator } from "@saved-items/platform-emulator/remote";
import { adminUrl, heldSleeps, postAdmin, TEST_SHOP } from "@saved-items/platform-emulator/testing";

const CLIENT_ID = "server-test-key";
const CLIENT_SECRET = "server-test-secret";
const TOKEN = "shpat_server";
const CUSTOMER = "gid://shopify/Customer/7";

const sleeps = heldSleeps();
let server: EmulatorServer;
let remote: RemoteEmulator;
// Every platform request goes over loopback to the server, as a sandboxed app's would.
const via = (platformUrl: string) => emulatorUrlFor(server.url, platformUrl);

beforeAll(async () => {
  server = await startEmulatorServer({
    emulator: createPlatformEmulator({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, sleep: sleeps.sleep }),
  });
  remote = createRemoteEmulator(server.url);
});
afterAll(() => server.close());
beforeEach(async () => {
  await remote.reset();
  await remote.addShop({
    domain: TEST_SHOP,
    adminAccessToken: TOKEN,
    refreshToken: "shprt_server",
    storefrontAccessToken: "public-token",
    plan: "pro",
    customers: [{ id: CUSTOMER, customerAccountAccessToken: "cat-7", storefrontCustomerAccessToken: "sfcat-7" }],
  });
});

describe("platform requests over HTTP", () => {
  it("maps /<host><path> to the https URL the app meant", () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(via("https://demo.myshopify.com/admin/api/2026-10/graphql.json?x=1")).toBe(
      `${server.url}/demo.myshopify.com/admin/api/2026-10/graphql.json?x=1`,
    );
    expect(remote.platformUrl("https://shopify.com/123/account/customer/api/2026-10/graphql")).toBe(
      `${server.url}/shopify.com/123/account/customer/api/2026-10/graphql`,
    );
  });

  it("answers the Admin API with the in-process logic: auth, validation, cost", async () => {
    const ok = await postAdmin(via(adminUrl()), TOKEN, `query Name { shop { myshopifyDomain } }`);
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({ shop: { myshopifyDomain: TEST_SHOP } });
    expect(ok.body.extensions?.cost).toMatchObject({ requestedQueryCost: 1, actualQueryCost: 1 });
    expect((await postAdmin(via(adminUrl()), "shpat_wrong", `{ shop { id } }`)).status).toBe(401);
    const invalid = await postAdmin(via(adminUrl()), TOKEN, `{ shop { nope } }`);
    expect(invalid.body.errors?.[0]?.extensions).toEqual({ code: "undefinedField" });
    expect(await remote.schemaViolations()).toEqual([
      {
        api: "admin",
        query: "{ shop { nope } }",
        errors: [expect.stringMatching(/^Cannot query field "nope" on type "Shop"\./)],
      },
    ]);
    expect(await remote.requests({ api: "admin" })).toEqual([
      expect.objectContaining({ operationName: "Name", status: 200 }),
      expect.objectContaining({ status: 401 }),
      expect.objectContaining({ status: 200 }),
    ]);
  });

  it("serves the customer account discovery, its GraphQL API and the Storefront API", async () => {
    const discovery = await fetch(via(`https://${TEST_SHOP}/.well-known/customer-account-api`));
    const { graphql_api: graphqlApi } = (await discovery.json()) as { graphql_api: string };
    expect(graphqlApi).toMatch(/^https:\/\/shopify\.com\/\d+\/account\/customer\/api\/2026-10\/graphql$/);
    const customer = await fetch(via(graphqlApi), {
      method: "POST",
      headers: { Authorization: "cat-7", "Content-Type": "application/json" },
      body: JSON.stringify({ query: "{ customer { id } }" }),
    });
    expect(await customer.json()).toEqual({ data: { customer: { id: CUSTOMER } } });

    const storefront = await fetch(via(`https://${TEST_SHOP}/api/2026-10/graphql.json`), {
      method: "POST",
      headers: { "X-Shopify-Storefront-Access-Token": "public-token", "Content-Type": "application/json" },
      body: JSON.stringify({ query: `{ customer(customerAccessToken: "sfcat-7") { id } }` }),
    });
    expect(await storefront.json()).toEqual({ data: { customer: { id: CUSTOMER } } });
  });

  it("rotates tokens at the OAuth endpoint, form-encoded as well as JSON", async () => {
    const response = await fetch(via(`https://${TEST_SHOP}/admin/oauth/access_token`), {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        grant_type: "refresh_token",
        refresh_token: "shprt_server",
      }),
    });
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toEqual({
      access_token: expect.stringMatching(/^shpat_/),
      scope: ACCESS_SCOPES,
      expires_in: 3600,
      refresh_token: expect.stringMatching(/^shprt_/),
      refresh_token_expires_in: 90 * 24 * 3600,
    });
    expect((await postAdmin(via(adminUrl()), body.access_token as string, `{ shop { id } }`)).status).toBe(200);
    expect((await remote.usage(TEST_SHOP)).refreshes).toBe(1);
    expect(await remote.adminCredentials(TEST_SHOP)).toMatchObject({ accessToken: body.access_token });
  });

  it("passes status and headers through, and drops the connection for a network fault", async () => {
    await remote.injectFault({ kind: "http429", api: "admin" });
    const limited = await fetch(via(adminUrl()), {
      method: "POST",
      headers: { "X-Shopify-Access-Token": TOKEN, "Content-Type": "application/json" },
      body: JSON.stringify({ query: "{ shop { id } }" }),
    });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("Retry-After")).toBe("1");

    await remote.injectFault({ kind: "network" });
    await expect(postAdmin(via(adminUrl()), TOKEN, `{ shop { id } }`)).rejects.toThrow(TypeError);
    expect((await postAdmin(via(adminUrl()), TOKEN, `{ shop { id } }`)).status).toBe(200);
  });

  it("lets a hung request end with the client's timeout, serving others meanwhile", async () => {
    await remote.injectFault({ kind: "hang", operationName: "Stuck" });
    const stuck = postAdmin(via(adminUrl()), TOKEN, `query Stuck { shop { id } }`, undefined, {
      signal: AbortSignal.timeout(1000),
    });
    let stuckSettled = false;
    stuck.catch(() => undefined).finally(() => (stuckSettled = true));
    expect((await postAdmin(via(adminUrl()), TOKEN, `{ shop { id } }`)).status).toBe(200);
    expect(stuckSettled).toBe(false);
    await expect(stuck).rejects.toThrow(/abort|timeout/i);

    // A client that never gives up is released when the server closes.
    const other = await startEmulatorServer({ emulator: createPlatformEmulator() });
    other.emulator.addShop({ domain: TEST_SHOP, adminAccessToken: TOKEN });
    other.emulator.injectFault({ kind: "hang" });
    const forever = postAdmin(emulatorUrlFor(other.url, adminUrl()), TOKEN, `{ shop { id } }`);
    await expect.poll(() => other.emulator.countRequests()).toBe(1);
    await other.close();
    await expect(forever).rejects.toThrow(TypeError);
  });

  it("answers 404 for a URL no platform endpoint serves", async () => {
    const response = await fetch(`${server.url}/example.com/anything?q=1`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      errors: "emulator: no platform endpoint for GET https://example.com/anything?q=1",
    });
  });
});

describe("control endpoints", () => {
  it("seed shops and report their credentials and usage", async () => {
    const [seeded] = await remote.addShops([{ domain: "second.myshopify.com", tier: "plus", plan: "scale" }]);
    expect(seeded).toMatchObject({ domain: "second.myshopify.com", adminCredentials: { scope: expect.any(String) } });
    const token = seeded!.adminCredentials!.accessToken;
    const { body } = await postAdmin(via(adminUrl("second.myshopify.com")), token, `{ shop { id } }`);
    expect(body.extensions?.cost.throttleStatus).toMatchObject({ maximumAvailable: 20_000, restoreRate: 1_000 });
    expect(await remote.usage("second.myshopify.com")).toEqual({
      shop: "second.myshopify.com",
      requests: 1,
      requestedPoints: 1,
      actualPoints: 1,
      throttledRequests: 0,
      refreshes: 0,
      tokenExchanges: 0,
    });
    expect((await remote.allUsage()).map((usage) => usage.shop)).toEqual([TEST_SHOP, "second.myshopify.com"]);
    expect(await remote.health()).toBe(true);
  });

  it("refuse bad input with a 400 and say why", async () => {
    await expect(remote.addShop({ domain: "not-a-shop.example.com" })).rejects.toThrow(/400.*myshopify\.com/s);
    await expect(remote.addShop({ domain: TEST_SHOP })).rejects.toThrow(/400.*already exists/s);
    await expect(remote.injectFault({ kind: "boom" as never })).rejects.toThrow(/400/);
    await expect(remote.setLatency(-1)).rejects.toThrow(/400/);
    await expect(remote.usage("")).rejects.toThrow(/400.*shop/s);
    const unknown = await fetch(`${server.url}/__emulator/nothing`);
    expect(unknown.status).toBe(404);
  });

  it("inject faults restricted by shop and operation, and set latency", async () => {
    await remote.injectFault({ kind: "graphqlErrors", shop: TEST_SHOP, operationName: "Broken" });
    expect((await postAdmin(via(adminUrl()), TOKEN, `query Fine { shop { id } }`)).body.data).toBeDefined();
    expect((await postAdmin(via(adminUrl()), TOKEN, `query Broken { shop { id } }`)).body.data).toBeNull();

    await remote.setLatency(150);
    const answer = postAdmin(via(adminUrl()), TOKEN, `{ shop { id } }`);
    await expect.poll(sleeps.waiting).toEqual([150]);
    sleeps.wakeAll();
    expect((await answer).status).toBe(200);
    await remote.setLatency(0);
  });

  it("set the search lag, and show metaobjects", async () => {
    await remote.setSearchLag(60_000);
    const fields = [
      ["list_key", "l"],
      ["customer_id", CUSTOMER],
      ["context", "default"],
      ["entity_type", "product"],
      ["entity_gid", "gid://shopify/Product/1"],
      ["status", "active"],
      ["saved_at", "2026-10-01T00:00:00Z"],
    ].map(([key, value]) => ({ key, value }));
    await postAdmin(
      via(adminUrl()),
      TOKEN,
      `mutation C($m: MetaobjectCreateInput!) { metaobjectCreate(metaobject: $m) { metaobject { id } } }`,
      { m: { type: "$app:save_item", handle: "h1", fields } },
    );
    const search = await postAdmin(
      via(adminUrl()),
      TOKEN,
      `{ metaobjects(type: "$app:save_item", first: 5, query: "fields.status:active") { nodes { id } } }`,
    );
    expect(search.body.data.metaobjects.nodes).toEqual([]);
    expect(await remote.metaobjects(TEST_SHOP, "$app:save_item")).toEqual([
      expect.objectContaining({ handle: "h1", fields: expect.objectContaining({ status: "active" }) }),
    ]);
  });

  it("add products and grant optional scopes, which the Admin API then checks", async () => {
    const product = "gid://shopify/Product/5";
    await remote.addProducts(TEST_SHOP, [{ id: product, title: "Shoe", totalInventory: 1, variants: [] }]);
    const set = `mutation S($m: [MetafieldsSetInput!]!) { metafieldsSet(metafields: $m) { userErrors { code } } }`;
    const write = () =>
      postAdmin(via(adminUrl()), TOKEN, set, {
        m: [{ ownerId: product, namespace: "$app", key: "saved_by", type: "number_integer", value: "5" }],
      });
    expect((await write()).body.errors?.[0]?.extensions?.code).toBe("ACCESS_DENIED");
    expect(await remote.setOptionalScopes(TEST_SHOP, { grant: ["write_products"] })).toContain("write_products");
    expect((await write()).body.data.metafieldsSet).toEqual({ userErrors: [] });
    await expect(remote.setOptionalScopes(TEST_SHOP, { grant: ["write_orders"] })).rejects.toThrow(/optional_scopes/);
  });

  it("expire and revoke admin tokens, switch plans and throttling, count and clear requests", async () => {
    await remote.expireAdminToken(TEST_SHOP);
    expect((await postAdmin(via(adminUrl()), TOKEN, `{ shop { id } }`)).status).toBe(401);
    await remote.revokeAdminToken(TEST_SHOP);
    expect(await remote.adminCredentials(TEST_SHOP)).toBeUndefined();

    const [shop] = await remote.addShops([{ domain: "third.myshopify.com" }]);
    const token = shop!.adminCredentials!.accessToken;
    await remote.setPlan("third.myshopify.com", "scale");
    const plan = await postAdmin(
      via(adminUrl("third.myshopify.com")),
      token,
      `{ currentAppInstallation { activeSubscriptions { name } } }`,
    );
    expect(plan.body.data.currentAppInstallation.activeSubscriptions).toEqual([{ name: "Scale" }]);
    await remote.setThrottling(false);

    expect(await remote.countRequests({ shop: "third.myshopify.com" })).toBe(1);
    expect(await remote.countRequests({ api: "admin" })).toBe(2);
    await remote.clearRequests();
    expect(await remote.countRequests()).toBe(0);
    expect(await remote.requests()).toEqual([]);
  });
});
