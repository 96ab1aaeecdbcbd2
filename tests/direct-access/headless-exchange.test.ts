import { decodeJwt } from "jose";
import { describe, expect, test } from "vitest";
import db from "~/db.server";
import { bumpShopVersion } from "~/infrastructure/coordination/shop-version.server";
import { PLATFORM_TIMEOUT_MS } from "~/platform/platform-fetch.server";
import { PLANS } from "~/services/plans";
import { monthlyUsage } from "~/services/usage/monthly-budget.server";
import { DEMO_SHOP } from "../support/app";
import {
  CUSTOMER,
  OTHER_CUSTOMER,
  STOREFRONT_TOKEN,
  callDirect,
  corsHeadersOf,
  errorEnvelope,
  exchangeHeadless,
  givenDirectShop,
} from "../support/direct";
import { emulator } from "../support/platform";
import { controlTimeouts } from "../support/time";

const modern = (overrides: Record<string, unknown> = {}) => ({
  shop: DEMO_SHOP,
  customerAccountAccessToken: CUSTOMER.customerAccountAccessToken,
  ...overrides,
});
const legacy = (overrides: Record<string, unknown> = {}) => ({
  shop: DEMO_SHOP,
  storefrontCustomerAccessToken: CUSTOMER.storefrontCustomerAccessToken,
  storefrontAccessToken: STOREFRONT_TOKEN,
  ...overrides,
});

const grant = {
  ok: true,
  data: {
    authorization: expect.stringMatching(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/),
    tokenType: "Bearer",
    expiresInSeconds: 300,
    expiresAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    channel: "headless",
    shop: DEMO_SHOP,
  },
};

describe("§4.2 POST /api/headless/auth/exchange, modern body", () => {
  test("discovers the Customer Account API, resolves the customer and mints a 300 s token for it", async () => {
    await givenDirectShop();
    const before = Date.now();
    const result = await exchangeHeadless(modern());
    expect(result).toMatchObject({ status: 200, body: grant });

    const claims = decodeJwt(result.body.data.authorization.slice(7));
    expect(claims).toEqual({
      sub: CUSTOMER.id,
      shop: DEMO_SHOP,
      channel: "headless",
      iat: expect.any(Number),
      exp: (claims.iat as number) + 300,
      jti: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(new Date(result.body.data.expiresAt).getTime()).toBe((claims.exp as number) * 1000);
    expect(claims.iat! * 1000).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);

    // The token went raw (no Bearer prefix) to the discovered endpoint; one discovery, one query.
    expect(emulator.countRequests({ api: "customer-account-discovery", shop: DEMO_SHOP })).toBe(1);
    expect(emulator.countRequests({ api: "customer-account", shop: DEMO_SHOP })).toBe(1);
    expect(emulator.countRequests({ api: "admin" })).toBe(0);
  });

  test("each customer token resolves to its own customer", async () => {
    await givenDirectShop();
    const result = await exchangeHeadless(
      modern({ customerAccountAccessToken: OTHER_CUSTOMER.customerAccountAccessToken }),
    );
    expect(decodeJwt(result.body.data.authorization.slice(7)).sub).toBe(OTHER_CUSTOMER.id);
  });

  test("every token is unique (jti), so two exchanges never mint the same credential", async () => {
    await givenDirectShop();
    const [a, b] = await Promise.all([exchangeHeadless(modern()), exchangeHeadless(modern())]);
    expect(decodeJwt(a.body.data.authorization.slice(7)).jti).not.toBe(
      decodeJwt(b.body.data.authorization.slice(7)).jti,
    );
  });

  test("an unknown customer account token is INVALID_HEADLESS_SIGNATURE 401", async () => {
    await givenDirectShop();
    const result = await exchangeHeadless(modern({ customerAccountAccessToken: "not-a-token" }));
    expect(result).toMatchObject({ status: 401, body: errorEnvelope("INVALID_HEADLESS_SIGNATURE") });
  });

  test("a token of another shop's customer does not resolve on this shop", async () => {
    await givenDirectShop();
    await givenDirectShop({ domain: "other.myshopify.com" });
    const result = await exchangeHeadless(modern({ customerAccountAccessToken: "other-cat-1001" }));
    expect(result.status).toBe(401);
    expect(result.body.error.code).toBe("INVALID_HEADLESS_SIGNATURE");
  });

  test.each(["http500", "http503", "network"] as const)(
    "a discovery failure (%s) is INVALID_HEADLESS_SIGNATURE 401 and no customer query is sent",
    async (kind) => {
      await givenDirectShop();
      emulator.injectFault({ kind, api: "customer-account-discovery" });
      const result = await exchangeHeadless(modern());
      expect(result).toMatchObject({ status: 401, body: errorEnvelope("INVALID_HEADLESS_SIGNATURE") });
      expect(emulator.countRequests({ api: "customer-account" })).toBe(0);
    },
  );

  test("a failure of the customer query is INVALID_HEADLESS_SIGNATURE 401", async () => {
    await givenDirectShop();
    emulator.injectFault({ kind: "http500", api: "customer-account" });
    expect((await exchangeHeadless(modern())).body).toEqual(errorEnvelope("INVALID_HEADLESS_SIGNATURE"));
  });
});

describe("§4.2 POST /api/headless/auth/exchange, legacy body", () => {
  test("resolves the customer through the Storefront API and mints the same kind of token", async () => {
    await givenDirectShop();
    const result = await exchangeHeadless(legacy());
    expect(result).toMatchObject({ status: 200, body: grant });
    expect(decodeJwt(result.body.data.authorization.slice(7))).toMatchObject({ sub: CUSTOMER.id, channel: "headless" });
    expect(emulator.countRequests({ api: "storefront", shop: DEMO_SHOP })).toBe(1);
    expect(emulator.countRequests({ api: "customer-account-discovery" })).toBe(0);
  });

  test("an unknown storefront customer token (customer: null) is INVALID_LEGACY_STOREFRONT_TOKEN 401", async () => {
    await givenDirectShop();
    const result = await exchangeHeadless(legacy({ storefrontCustomerAccessToken: "expired-or-unknown" }));
    expect(result).toMatchObject({ status: 401, body: errorEnvelope("INVALID_LEGACY_STOREFRONT_TOKEN") });
  });

  test("a wrong public storefront token (platform 401) is INVALID_LEGACY_STOREFRONT_TOKEN 401", async () => {
    await givenDirectShop();
    const result = await exchangeHeadless(legacy({ storefrontAccessToken: "wrong-public-token" }));
    expect(result).toMatchObject({ status: 401, body: errorEnvelope("INVALID_LEGACY_STOREFRONT_TOKEN") });
  });

  test("a Storefront API outage is INVALID_LEGACY_STOREFRONT_TOKEN 401, as the spec says", async () => {
    await givenDirectShop();
    emulator.injectFault({ kind: "http503", api: "storefront" });
    expect((await exchangeHeadless(legacy())).status).toBe(401);
  });
});

describe("§4.2 exchange body validation (before any network call)", () => {
  test.each([
    ["both field sets", { ...modern(), ...legacy() }],
    ["a modern body with one legacy field", modern({ storefrontAccessToken: STOREFRONT_TOKEN })],
    [
      "a legacy body with the modern token",
      legacy({ customerAccountAccessToken: CUSTOMER.customerAccountAccessToken }),
    ],
    ["neither field set", { shop: DEMO_SHOP }],
    ["an incomplete legacy set", { shop: DEMO_SHOP, storefrontCustomerAccessToken: "x" }],
    ["no shop", { customerAccountAccessToken: "x" }],
    ["an empty token", modern({ customerAccountAccessToken: "" })],
    ["a non-string token", modern({ customerAccountAccessToken: 42 })],
    [
      "a token with a line break (it would go into a header)",
      modern({ customerAccountAccessToken: "cat-1001\r\nX-Injected: 1" }),
    ],
    ["a token with a space", legacy({ storefrontAccessToken: "storefront public token" })],
    ["a token that is not ASCII", legacy({ storefrontCustomerAccessToken: "sfcat-10\u00e91" })],
    ["an extra field", modern({ customerId: OTHER_CUSTOMER.id })],
    ["an array", [modern()]],
  ])("%s is VALIDATION_ERROR 400", async (_name, body) => {
    await givenDirectShop();
    const result = await exchangeHeadless(body);
    expect(result).toMatchObject({ status: 400, body: errorEnvelope("VALIDATION_ERROR") });
    expect(emulator.requests).toEqual([]);
  });

  test("the mixed-body message names both accepted field sets", async () => {
    await givenDirectShop();
    const result = await exchangeHeadless({ ...modern(), ...legacy() });
    expect(result.body.error.message).toMatch(/customerAccountAccessToken.*storefrontCustomerAccessToken/);
  });

  test.each([
    "attacker.example",
    "demo.myshopify.com.attacker.example",
    "attacker.example/demo.myshopify.com",
    "https://demo.myshopify.com",
    "demo.myshopify.com/",
    "demo.myshopify.com:8443",
    "user@demo.myshopify.com",
    "127.0.0.1",
    "localhost",
    "Demo.myshopify.com",
    "-demo.myshopify.com",
    "demo.myshopify.com#",
    "demo.myshopify.com?x=1",
    ".myshopify.com",
  ])("shop %j is VALIDATION_ERROR 400 and the service sends no request at all", async (shop) => {
    await givenDirectShop();
    for (const body of [modern({ shop }), legacy({ shop })]) {
      const result = await exchangeHeadless(body);
      expect(result).toMatchObject({ status: 400, body: errorEnvelope("VALIDATION_ERROR") });
      expect(result.body.error.message).toMatch(/^shop: /);
    }
    expect(emulator.requests).toEqual([]);
  });

  test("invalid JSON is VALIDATION_ERROR 400, a non-JSON content type 415", async () => {
    await givenDirectShop();
    const badJson = await callDirect("/api/headless/auth/exchange", {
      method: "POST",
      body: undefined,
      headers: { "Content-Type": "application/json" },
    });
    expect(badJson).toMatchObject({ status: 400, body: errorEnvelope("VALIDATION_ERROR") });
    const form = await callDirect("/api/headless/auth/exchange", {
      method: "POST",
      body: modern(),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(form).toMatchObject({ status: 415, body: errorEnvelope("VALIDATION_ERROR") });
  });

  test("GET is VALIDATION_ERROR 405", async () => {
    const result = await callDirect("/api/headless/auth/exchange", { query: modern() as Record<string, string> });
    expect(result).toMatchObject({ status: 405, body: errorEnvelope("VALIDATION_ERROR") });
    expect(result.headers.get("Allow")).toBe("POST");
  });
});

describe("§4.2 rule 5: install and plan gates run before any upstream lookup", () => {
  test.each([
    ["never installed", async () => undefined],
    ["uninstalled (no session, record marked)", () => givenDirectShop({ installed: false })],
    [
      "record marked uninstalled while a session lingers",
      async () => {
        await givenDirectShop();
        await db.shop.update({ where: { domain: DEMO_SHOP }, data: { uninstalledAt: new Date() } });
        await bumpShopVersion(DEMO_SHOP); // as every writer of shop state does
      },
    ],
  ])("%s is SHOP_NOT_INSTALLED 403", async (name, arrange) => {
    await arrange();
    for (const body of [modern(), legacy()]) {
      expect(await exchangeHeadless(body)).toMatchObject({ status: 403, body: errorEnvelope("SHOP_NOT_INSTALLED") });
    }
    expect(emulator.requests).toEqual([]);
    // A stranger's domain must not leave a Shop record behind.
    if (name === "never installed") expect(await db.shop.count()).toBe(0);
  });

  test.each(["free", "starter", "pro"] as const)(
    "the %s plan is CHANNEL_NOT_ENTITLED 403 (headless needs Scale)",
    async (plan) => {
      await givenDirectShop({ plan });
      for (const body of [modern(), legacy()]) {
        const result = await exchangeHeadless(body);
        expect(result).toMatchObject({ status: 403, body: errorEnvelope("CHANNEL_NOT_ENTITLED") });
        // Anyone who can name the shop reads this: it says what to do, not which plan the shop pays for.
        expect(result.body.error.message).toBe(
          "The headless channel is not included in this shop's Saved Items plan; it takes a plan upgrade, which only the shop's merchant can make",
        );
        expect(result.body.error.message).not.toMatch(
          new RegExp(
            Object.values(PLANS)
              .map((known) => known.name)
              .join("|"),
            "i",
          ),
        );
      }
      expect(emulator.requests).toEqual([]);
    },
  );

  test("an exchange does not count against the monthly budget", async () => {
    const shop = await givenDirectShop();
    await exchangeHeadless(modern());
    await exchangeHeadless(legacy());
    await exchangeHeadless(modern({ customerAccountAccessToken: "bad" }));
    expect(await monthlyUsage(shop)).toBe(0);
  });

  test("headless answers carry no CORS headers, on success or error", async () => {
    await givenDirectShop();
    const ok = await exchangeHeadless(modern());
    const refused = await exchangeHeadless({ shop: "x" });
    for (const result of [ok, refused]) {
      expect(Object.values(corsHeadersOf(result.headers)).every((value) => value === null)).toBe(true);
    }
  });
});

describe("upstream timeout", () => {
  test("a platform that does not answer within 5 s is INVALID_HEADLESS_SIGNATURE 401, not a hung request", async () => {
    await givenDirectShop();
    const timeouts = controlTimeouts();
    emulator.injectFault({ kind: "hang", api: "customer-account-discovery" });
    const exchanging = exchangeHeadless(modern());
    await expect.poll(() => emulator.countRequests({ api: "customer-account-discovery" })).toBe(1);
    expect(timeouts.asked()).toContain(PLATFORM_TIMEOUT_MS);
    timeouts.fire();
    const result = await exchanging;
    expect(result.status).toBe(401);
    expect(result.body.error.code).toBe("INVALID_HEADLESS_SIGNATURE");
  });
});
