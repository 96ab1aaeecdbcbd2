import { RequestType, setUpValidRequest } from "@shopify/shopify-api/test-helpers";
import { describe, expect, test } from "vitest";
import { signProxyParameters } from "~/edge/front-doors/proxy-signature.server";
import { platformApi } from "~/platform/shopify-api.server";
import { APP_URL, callProxy, DEMO_SHOP, givenShop, sendToApp } from "../support/app";
import { aSaveRequest } from "../support/fixtures";
import { emulator } from "../support/platform";
import { signedProxyUrl } from "@saved-items/sandbox/proxy-signature";
import { TEST_ENV } from "../support/test-env";

const ROUTES = [
  ["POST", "/proxy/api/save"],
  ["POST", "/proxy/api/remove"],
  ["POST", "/proxy/api/toggle"],
  ["POST", "/proxy/api/batch"],
  ["GET", "/proxy/api/list"],
  ["GET", "/proxy/api/is-saved"],
] as const;

const invalidSignature = {
  ok: false,
  error: { code: "INVALID_PROXY_SIGNATURE", message: expect.any(String), retryable: false },
};

describe("§5.1 app proxy identity", () => {
  test.each(ROUTES)(
    "%s %s with a signature made with another secret is INVALID_PROXY_SIGNATURE 401",
    async (method, path) => {
      await givenShop();
      const body = method === "POST" ? aSaveRequest() : undefined;
      const result = await callProxy(path, {
        method,
        body,
        secret: "not-the-app-secret",
        query: { context: "wishlist" },
      });
      expect(result).toEqual({ status: 401, body: invalidSignature });
      expect(emulator.countRequests()).toBe(0);
    },
  );

  test("a signature older than 90 seconds is refused", async () => {
    await givenShop();
    const stale = Math.floor(Date.now() / 1000) - 91;
    expect(await callProxy("/proxy/api/save", { body: aSaveRequest(), timestamp: stale })).toEqual({
      status: 401,
      body: invalidSignature,
    });
  });

  test("a request with no signature, or with a parameter changed after signing, is refused", async () => {
    await givenShop();
    const unsigned = new Request(
      `${APP_URL}/proxy/api/list?shop=demo.myshopify.com&logged_in_customer_id=1001&context=w`,
    );
    expect((await sendToApp(unsigned)).status).toBe(401);

    const url = new URL(`${APP_URL}/proxy/api/list`);
    for (const [key, value] of Object.entries({
      context: "wishlist",
      shop: "demo.myshopify.com",
      logged_in_customer_id: "1001",
      path_prefix: "/apps/saved-items",
      timestamp: String(Math.floor(Date.now() / 1000)),
    }))
      url.searchParams.set(key, value);
    url.searchParams.set("signature", signProxyParameters(url.searchParams, TEST_ENV.SHOPIFY_API_SECRET));
    url.searchParams.set("logged_in_customer_id", "2002");
    const response = await sendToApp(new Request(url));
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual(invalidSignature);
  });

  test("the signing is the platform library's: its signed requests pass, and it accepts ours", async () => {
    await givenShop();
    const unsigned = new Request(
      `${APP_URL}/proxy/api/list?context=wishlist&logged_in_customer_id=1001&path_prefix=%2Fapps%2Fsaved-items&extra=a%20b`,
    );
    const signedByLibrary = await setUpValidRequest(
      {
        type: RequestType.Public,
        store: DEMO_SHOP.replace(".myshopify.com", ""),
        apiSecretKey: TEST_ENV.SHOPIFY_API_SECRET,
      },
      unsigned,
    );
    expect((await sendToApp(signedByLibrary)).status).toBe(200);

    const ours = signedProxyUrl(APP_URL, "/proxy/api/list", TEST_ENV.SHOPIFY_API_SECRET, {
      shop: DEMO_SHOP,
      customerId: "1001",
      query: { context: "wishlist", extra: ["1", "2"] },
    });
    await expect(platformApi.utils.validateHmac(ours.searchParams, { signator: "appProxy" })).resolves.toBe(true);
  });

  test("an hmac parameter is left out of the signed message, as the platform library leaves it out", async () => {
    await givenShop();
    const url = signedProxyUrl(APP_URL, "/proxy/api/list", TEST_ENV.SHOPIFY_API_SECRET, {
      shop: DEMO_SHOP,
      customerId: "1001",
      query: { context: "wishlist" },
    });
    url.searchParams.append("hmac", "0".repeat(64));
    await expect(platformApi.utils.validateHmac(url.searchParams, { signator: "appProxy" })).resolves.toBe(true);
    expect((await sendToApp(new Request(url))).status).toBe(200);

    url.searchParams.append("hmac", "1".repeat(64));
    await expect(platformApi.utils.validateHmac(url.searchParams, { signator: "appProxy" })).rejects.toThrow(/hmac/);
    const repeated = await sendToApp(new Request(url));
    expect({ status: repeated.status, body: await repeated.json() }).toEqual({ status: 401, body: invalidSignature });
  });

  test.each(["shop", "logged_in_customer_id", "path_prefix", "timestamp", "signature"])(
    "a repeated %s is INVALID_PROXY_SIGNATURE 401 even when signed over the joined value",
    async (name) => {
      await givenShop();
      const url = new URL(`${APP_URL}/proxy/api/is-saved`);
      const params: [string, string][] = [
        ["context", "wishlist"],
        ["entityType", "product"],
        ["entityGid", "gid://shopify/Product/1"],
        ["shop", DEMO_SHOP],
        ["logged_in_customer_id", "1001"],
        ["path_prefix", "/apps/saved-items"],
        ["timestamp", String(Math.floor(Date.now() / 1000))],
      ];
      for (const [key, value] of params) url.searchParams.append(key, value);
      if (name !== "signature") url.searchParams.append(name, url.searchParams.get(name)!);
      url.searchParams.append("signature", signProxyParameters(url.searchParams, TEST_ENV.SHOPIFY_API_SECRET));
      if (name === "signature") url.searchParams.append("signature", url.searchParams.get("signature")!);
      const response = await sendToApp(new Request(url));
      expect({ status: response.status, body: await response.json() }).toEqual({ status: 401, body: invalidSignature });
      expect(emulator.countRequests()).toBe(0);
    },
  );

  test("repeated app parameters are signed joined with commas, as the platform does", async () => {
    await givenShop();
    const result = await callProxy("/proxy/api/list", { query: { context: "wishlist", extra: ["1", "2"] } });
    expect(result.status).toBe(200);
  });

  test.each(ROUTES)("%s %s with no logged-in customer (empty parameter) is AUTH_REQUIRED 401", async (method, path) => {
    await givenShop();
    const body = method === "POST" ? aSaveRequest() : undefined;
    const result = await callProxy(path, { method, body, customerId: "", query: { context: "wishlist" } });
    expect(result).toEqual({
      status: 401,
      body: { ok: false, error: { code: "AUTH_REQUIRED", message: expect.any(String), retryable: false } },
    });
  });

  test.each(ROUTES)(
    "%s %s signed with no logged_in_customer_id parameter at all is AUTH_REQUIRED 401, as an empty one is",
    async (method, path) => {
      await givenShop();
      const url = signedProxyUrl(APP_URL, path, TEST_ENV.SHOPIFY_API_SECRET, {
        shop: DEMO_SHOP,
        query: { context: "wishlist" },
      });
      url.searchParams.delete("logged_in_customer_id");
      url.searchParams.set("signature", signProxyParameters(url.searchParams, TEST_ENV.SHOPIFY_API_SECRET));
      const body = method === "POST" ? JSON.stringify(aSaveRequest()) : undefined;
      const headers = body ? { "Content-Type": "application/json" } : undefined;
      const response = await sendToApp(new Request(url, { method, body, headers }));
      expect({ status: response.status, body: await response.json() }).toEqual({
        status: 401,
        body: { ok: false, error: { code: "AUTH_REQUIRED", message: expect.any(String), retryable: false } },
      });
      expect(emulator.countRequests()).toBe(0);
    },
  );

  test.each(ROUTES)("%s %s for a shop without the app installed is SHOP_NOT_INSTALLED 403", async (method, path) => {
    await givenShop({ installed: false });
    const body = method === "POST" ? aSaveRequest() : undefined;
    const result = await callProxy(path, { method, body, query: { context: "wishlist" } });
    expect(result).toEqual({
      status: 403,
      body: { ok: false, error: { code: "SHOP_NOT_INSTALLED", message: expect.any(String), retryable: false } },
    });
  });

  test("a shop that was never installed is SHOP_NOT_INSTALLED", async () => {
    const result = await callProxy("/proxy/api/list", { shop: "stranger.myshopify.com", query: { context: "w" } });
    expect(result.status).toBe(403);
    expect(result.body.error.code).toBe("SHOP_NOT_INSTALLED");
  });

  test("a signed shop value that is not a shop domain is SHOP_NOT_INSTALLED, not a 500", async () => {
    const result = await callProxy("/proxy/api/list", { shop: "evil.example.com", query: { context: "w" } });
    expect(result.status).toBe(403);
    expect(result.body.error.code).toBe("SHOP_NOT_INSTALLED");
  });

  test("an offline token the platform revoked is SHOP_NOT_INSTALLED, not a 500", async () => {
    const shop = await givenShop();
    emulator.revokeAdminToken(shop);
    const result = await callProxy("/proxy/api/save", { body: aSaveRequest() });
    expect(result.status).toBe(403);
    expect(result.body.error.code).toBe("SHOP_NOT_INSTALLED");
  });
});
