import { decodeJwt } from "jose";
import { describe, expect, test } from "vitest";
import { monthlyUsage } from "~/services/usage/monthly-budget.server";
import { DEMO_SHOP } from "../support/app";
import {
  CORS_EXPECTATION,
  CUSTOMER,
  aServiceToken,
  aSessionToken,
  callDirect,
  corsHeadersOf,
  errorEnvelope,
  exchangeCustomerAccount,
  givenDirectShop,
  unsignedToken,
} from "../support/direct";
import { emulator } from "../support/platform";

const EXCHANGE = "/api/customer-account/auth/exchange";
const now = () => Math.floor(Date.now() / 1000);

describe("§4.2 POST /api/customer-account/auth/exchange", () => {
  test("a logged-in customer's session token becomes a 300 s customer-account token, with CORS headers", async () => {
    await givenDirectShop({ plan: "pro" });
    const result = await exchangeCustomerAccount(await aSessionToken());
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      ok: true,
      data: {
        authorization: expect.stringMatching(/^Bearer /),
        tokenType: "Bearer",
        expiresInSeconds: 300,
        expiresAt: expect.any(String),
        channel: "customer-account",
        shop: DEMO_SHOP,
      },
    });
    expect(decodeJwt(result.body.data.authorization.slice(7))).toMatchObject({
      sub: CUSTOMER.id,
      shop: DEMO_SHOP,
      channel: "customer-account",
    });
    expect(corsHeadersOf(result.headers)).toEqual(CORS_EXPECTATION);
    // The session token is the proof: no platform call is needed.
    expect(emulator.requests).toEqual([]);
  });

  test.each(["https://demo.myshopify.com", "https://demo.myshopify.com/", "demo.myshopify.com/", "DEMO.myshopify.com"])(
    "dest %j is normalised to the shop domain",
    async (dest) => {
      await givenDirectShop({ plan: "scale" });
      const result = await exchangeCustomerAccount(await aSessionToken({ dest }));
      expect(result.status).toBe(200);
      expect(result.body.data.shop).toBe(DEMO_SHOP);
    },
  );

  test("the body is ignored: a customer or shop named there changes nothing", async () => {
    await givenDirectShop({ plan: "pro" });
    await givenDirectShop({ domain: "other.myshopify.com", plan: "pro" });
    const result = await callDirect(EXCHANGE, {
      method: "POST",
      token: await aSessionToken(),
      body: {
        shop: "other.myshopify.com",
        customerId: "gid://shopify/Customer/1002",
        sub: "gid://shopify/Customer/1002",
      },
    });
    expect(result.status).toBe(200);
    expect(decodeJwt(result.body.data.authorization.slice(7))).toMatchObject({ sub: CUSTOMER.id, shop: DEMO_SHOP });
  });

  test("a valid session token without sub (anonymous buyer) is CUSTOMER_REQUIRED 401, with CORS", async () => {
    await givenDirectShop({ plan: "pro" });
    const result = await exchangeCustomerAccount(await aSessionToken({ sub: undefined }));
    expect(result).toMatchObject({ status: 401, body: errorEnvelope("CUSTOMER_REQUIRED") });
    expect(corsHeadersOf(result.headers)).toEqual(CORS_EXPECTATION);
  });

  test("no Authorization header is AUTH_REQUIRED 401, with CORS", async () => {
    await givenDirectShop({ plan: "pro" });
    const result = await exchangeCustomerAccount(null);
    expect(result).toMatchObject({ status: 401, body: errorEnvelope("AUTH_REQUIRED") });
    expect(corsHeadersOf(result.headers)).toEqual(CORS_EXPECTATION);
  });

  test.each([
    ["signed with another secret", () => aSessionToken({}, "not-the-app-secret")],
    [
      "expired beyond the library's 10 s tolerance",
      () => aSessionToken({ exp: now() - 15, iat: now() - 320, nbf: now() - 320 }),
    ],
    ["not yet valid (nbf in the future)", () => aSessionToken({ nbf: now() + 60 })],
    // The library accepts both of these; a leaked token would then open the customer's lists for ever.
    ["without exp", () => aSessionToken({ exp: undefined })],
    ["without iat", () => aSessionToken({ iat: undefined })],
    [
      "issued a year ago, expiring in a year",
      () => aSessionToken({ iat: now() - 365 * 86400, exp: now() + 365 * 86400 }),
    ],
    ["issued just now, expiring in a day", () => aSessionToken({ exp: now() + 86400 })],
    ["naming a dest of 12,000 slashes", () => aSessionToken({ dest: `${"/".repeat(12_000)}x` }, "not-the-app-secret")],
    ["unsigned (alg none)", async () => unsignedToken(decodeJwt(await aSessionToken()))],
    ["garbage", async () => "not.a.jwt"],
    // The library signature-checks these as thrown 401 Responses; they must come back as envelopes.
    ["our own service token (other secret, no dest)", () => aServiceToken({ channel: "customer-account" })],
  ])("a session token %s is INVALID_TOKEN 401, enveloped with CORS (library's thrown 401)", async (_name, make) => {
    await givenDirectShop({ plan: "pro" });
    const result = await exchangeCustomerAccount(await make());
    expect(result).toMatchObject({ status: 401, body: errorEnvelope("INVALID_TOKEN") });
    expect(corsHeadersOf(result.headers)).toEqual(CORS_EXPECTATION);
  });

  test("a token issued 9 minutes ago that expires in 1 is accepted (MAX_SESSION_TOKEN_SECONDS is 10 minutes)", async () => {
    await givenDirectShop({ plan: "pro" });
    const token = await aSessionToken({ iat: now() - 540, nbf: now() - 540, exp: now() + 55 });
    expect((await exchangeCustomerAccount(token)).status).toBe(200);
  });

  test("a token expired less than 10 s ago is still accepted, as the library does", async () => {
    await givenDirectShop({ plan: "pro" });
    expect((await exchangeCustomerAccount(await aSessionToken({ exp: now() - 3 }))).status).toBe(200);
  });

  test.each([
    ["another app's audience", { aud: "some-other-app" }],
    ["no audience", { aud: undefined }],
    ["a dest that is not a shop domain", { dest: "https://attacker.example" }],
    ["no dest", { dest: undefined }],
    // An Admin session token is signed with the same secret and audience; its sub is a staff user id.
    ["an Admin session token's staff user as sub", { sub: "12345", iss: "https://demo.myshopify.com/admin", sid: "s" }],
    ["a non-customer GID as sub", { sub: "gid://shopify/StaffMember/1" }],
  ])("a correctly signed token with %s is INVALID_TOKEN 401", async (_name, overrides) => {
    await givenDirectShop({ plan: "pro" });
    const result = await exchangeCustomerAccount(await aSessionToken(overrides));
    expect(result).toMatchObject({ status: 401, body: errorEnvelope("INVALID_TOKEN") });
    expect(corsHeadersOf(result.headers)).toEqual(CORS_EXPECTATION);
    expect(emulator.requests).toEqual([]);
  });

  test("any client with a valid session token is served, whatever its User-Agent (curl, node, a test harness)", async () => {
    await givenDirectShop({ plan: "pro" });
    for (const agent of ["curl/8.5.0", "node", "Googlebot/2.1"]) {
      const result = await exchangeCustomerAccount(await aSessionToken(), { "User-Agent": agent });
      expect(result).toMatchObject({ status: 200, body: { ok: true } });
    }
  });

  test.each(["free", "starter"] as const)("the %s plan is CHANNEL_NOT_ENTITLED 403, with CORS", async (plan) => {
    await givenDirectShop({ plan });
    const result = await exchangeCustomerAccount(await aSessionToken());
    expect(result).toMatchObject({ status: 403, body: errorEnvelope("CHANNEL_NOT_ENTITLED") });
    expect(corsHeadersOf(result.headers)).toEqual(CORS_EXPECTATION);
    // Anyone holding a session token of the shop reads this: it must not tell them the shop's plan.
    expect(result.body.error.message).toBe(
      "The customer-account channel is not included in this shop's Saved Items plan; it takes a plan upgrade, which only the shop's merchant can make",
    );
  });

  test.each(["pro", "scale"] as const)("the %s plan is entitled", async (plan) => {
    await givenDirectShop({ plan });
    expect((await exchangeCustomerAccount(await aSessionToken())).status).toBe(200);
  });

  test("a shop without the app installed is SHOP_NOT_INSTALLED 403, with CORS", async () => {
    await givenDirectShop({ plan: "pro", installed: false });
    const result = await exchangeCustomerAccount(await aSessionToken());
    expect(result).toMatchObject({ status: 403, body: errorEnvelope("SHOP_NOT_INSTALLED") });
    expect(corsHeadersOf(result.headers)).toEqual(CORS_EXPECTATION);
  });

  test("OPTIONS preflight is 204 with the CORS headers, before any token check", async () => {
    const response = await callDirect(EXCHANGE, {
      method: "OPTIONS",
      headers: {
        Origin: "https://extensions.shopifycdn.com",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization",
      },
    });
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
    expect(corsHeadersOf(response.headers)).toEqual(CORS_EXPECTATION);
  });

  test("GET is VALIDATION_ERROR 405, with CORS", async () => {
    const result = await callDirect(EXCHANGE, { token: await aSessionToken() });
    expect(result).toMatchObject({ status: 405, body: errorEnvelope("VALIDATION_ERROR") });
    expect(corsHeadersOf(result.headers)).toEqual(CORS_EXPECTATION);
  });

  test("an exchange does not count against the monthly budget", async () => {
    const shop = await givenDirectShop({ plan: "pro" });
    await exchangeCustomerAccount(await aSessionToken());
    await exchangeCustomerAccount(await aSessionToken({ sub: undefined }));
    expect(await monthlyUsage(shop)).toBe(0);
  });
});
