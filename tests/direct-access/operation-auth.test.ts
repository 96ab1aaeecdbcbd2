import { decodeJwt } from "jose";
import { afterEach, describe, expect, test, vi } from "vitest";
import db from "~/db.server";
import { bumpShopVersion } from "~/infrastructure/coordination/shop-version.server";
import { recordShopUninstalled } from "~/services/installs/shop-records.server";
import { storeShopPlan } from "~/services/installs/shop-state.server";
import { clock } from "~/lib/clock";
import { DEMO_SHOP } from "../support/app";
import {
  CORS_EXPECTATION,
  aServiceToken,
  callDirect,
  corsHeadersOf,
  errorEnvelope,
  givenDirectShop,
  serviceClaims,
  signHs256,
  unsignedToken,
  type DirectCall,
} from "../support/direct";
import { aSaveRequest, identityQuery } from "../support/fixtures";
import { emulator } from "../support/platform";
import { TEST_ENV } from "../support/test-env";

afterEach(() => vi.restoreAllMocks());

const OPERATIONS = [
  ["POST", "save"],
  ["POST", "remove"],
  ["POST", "toggle"],
  ["POST", "batch"],
  ["GET", "list"],
  ["GET", "is-saved"],
] as const;
const NAMESPACES = ["headless", "customer-account"] as const;
type Namespace = (typeof NAMESPACES)[number];
const ROUTES = NAMESPACES.flatMap((namespace) =>
  OPERATIONS.map(([method, name]) => [namespace, method, name] as const),
);

/** A well-formed call of the route, so only the credential decides the outcome. */
function validCall(method: string, name: string, call: DirectCall = {}): DirectCall {
  if (method === "GET") return { method, query: name === "list" ? { context: "wishlist" } : identityQuery(), ...call };
  const body = name === "batch" ? { operations: [{ action: "save", ...aSaveRequest() }] } : aSaveRequest();
  return { method, body, ...call };
}

/** Remove of an item never saved is ITEM_NOT_FOUND: proof enough that the request got past the front door. */
const passed = (name: string) => (name === "remove" ? 404 : 200);

function call(namespace: Namespace, method: string, name: string, extra: DirectCall = {}) {
  return callDirect(`/api/${namespace}/${name}`, validCall(method, name, extra));
}

const SECRET = TEST_ENV.DIRECT_API_JWT_SECRET;
const ANOTHER_SECRET = "another-secret-of-at-least-32-characters!";

/** Swaps a token's payload for another while keeping the original header and signature. */
function withPayload(token: string, claims: Record<string, unknown>): string {
  const [header, , signature] = token.split(".");
  return `${header}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.${signature}`;
}

describe("§4.3 Authorization on every direct operation route", () => {
  test.each(ROUTES)("/api/%s %s /%s: no Authorization header is AUTH_REQUIRED 401", async (namespace, method, name) => {
    await givenDirectShop();
    const result = await call(namespace, method, name);
    expect(result).toMatchObject({ status: 401, body: errorEnvelope("AUTH_REQUIRED") });
    expect(emulator.requests).toEqual([]);
  });

  test.each(ROUTES)(
    "/api/%s %s /%s: a forged or broken token is INVALID_TOKEN 401",
    async (namespace, method, name) => {
      await givenDirectShop();
      const channel = namespace;
      const genuine = await aServiceToken({ channel });
      const claims = serviceClaims({ channel });
      const forgeries: Record<string, string> = {
        "alg none": unsignedToken(claims),
        "alg none, mixed case": unsignedToken(claims).replace(
          /^[^.]+/,
          Buffer.from(JSON.stringify({ alg: "nOnE", typ: "JWT" })).toString("base64url"),
        ),
        "another secret": await signHs256(claims, ANOTHER_SECRET),
        "re-signed with a changed shop": await signHs256(
          { ...decodeJwt(genuine), shop: "other.myshopify.com" },
          ANOTHER_SECRET,
        ),
        "re-signed with a changed customer": await signHs256(
          { ...decodeJwt(genuine), sub: "gid://shopify/Customer/1002" },
          ANOTHER_SECRET,
        ),
        "payload swapped under the genuine signature": withPayload(genuine, {
          ...decodeJwt(genuine),
          sub: "gid://shopify/Customer/1002",
        }),
        "HS512 with the right secret": await signHs256(claims, SECRET, { alg: "HS512" }),
        "missing sub": await signHs256({ ...claims, sub: undefined }),
        "missing shop": await signHs256({ ...claims, shop: undefined }),
        "missing channel": await signHs256({ ...claims, channel: undefined }),
        "missing iat": await signHs256({ ...claims, iat: undefined }),
        "missing exp": await signHs256({ ...claims, exp: undefined }),
        "missing jti": await signHs256({ ...claims, jti: undefined }),
        "an extra claim": await signHs256({ ...claims, admin: true }),
        "a shop that is not a shop domain": await signHs256({ ...claims, shop: "attacker.example" }),
        "a sub that is not a customer": await signHs256({ ...claims, sub: "1001" }),
        "an unknown channel": await signHs256({ ...claims, channel: "online-store" }),
        "a lifetime longer than 300 s": await signHs256({ ...claims, exp: (claims.iat as number) + 3600 }),
        "iat in the future": await signHs256({
          ...claims,
          iat: (claims.iat as number) + 120,
          exp: (claims.iat as number) + 400,
        }),
        garbage: "not-a-jwt",
        "an empty string": "",
      };
      for (const [name_, token] of Object.entries(forgeries)) {
        const result = await call(namespace, method, name, { authorization: `Bearer ${token}` });
        expect({ forgery: name_, status: result.status, body: result.body }).toEqual({
          forgery: name_,
          status: 401,
          body: errorEnvelope("INVALID_TOKEN"),
        });
      }
      for (const authorization of [`Basic ${genuine}`, genuine, `Bearer ${genuine} extra`, "Bearer"]) {
        const result = await call(namespace, method, name, { authorization });
        expect(result.body.error.code).toBe("INVALID_TOKEN");
      }
      expect(emulator.requests).toEqual([]);
      expect(emulator.metaobjects(DEMO_SHOP)).toEqual([]);
    },
  );

  test.each(ROUTES)("/api/%s %s /%s: an expired token is TOKEN_EXPIRED 401", async (namespace, method, name) => {
    await givenDirectShop();
    vi.spyOn(clock, "now").mockReturnValue(new Date(Date.now() - 306_000));
    const expired = await aServiceToken({ channel: namespace });
    vi.restoreAllMocks();
    const result = await call(namespace, method, name, { token: expired });
    expect(result).toMatchObject({ status: 401, body: errorEnvelope("TOKEN_EXPIRED") });
  });

  test("a token expired less than 5 s ago is still accepted (clock skew), one older is not", async () => {
    await givenDirectShop();
    vi.spyOn(clock, "now").mockReturnValue(new Date(Date.now() - 302_000));
    const justExpired = await aServiceToken();
    vi.restoreAllMocks();
    expect((await call("headless", "GET", "list", { token: justExpired })).status).toBe(200);
    const stale = await signHs256(
      serviceClaims({ iat: Math.floor(Date.now() / 1000) - 400, exp: Math.floor(Date.now() / 1000) - 100 }),
    );
    expect((await call("headless", "GET", "list", { token: stale })).body.error.code).toBe("TOKEN_EXPIRED");
  });

  test.each(OPERATIONS)(
    "%s /%s: a headless token on the customer-account namespace is CHANNEL_MISMATCH 403, and back",
    async (method, name) => {
      await givenDirectShop();
      const headless = await call("customer-account", method, name, {
        token: await aServiceToken({ channel: "headless" }),
      });
      expect(headless).toMatchObject({ status: 403, body: errorEnvelope("CHANNEL_MISMATCH") });
      const customerAccount = await call("headless", method, name, {
        token: await aServiceToken({ channel: "customer-account" }),
      });
      expect(customerAccount).toMatchObject({ status: 403, body: errorEnvelope("CHANNEL_MISMATCH") });
      expect(emulator.requests).toEqual([]);
    },
  );

  test("a token re-signed with the other channel (another secret) is INVALID_TOKEN, not a channel switch", async () => {
    await givenDirectShop();
    const genuine = decodeJwt(await aServiceToken({ channel: "headless" }));
    const forged = await signHs256({ ...genuine, channel: "customer-account" }, ANOTHER_SECRET);
    expect((await call("customer-account", "GET", "list", { token: forged })).body).toEqual(
      errorEnvelope("INVALID_TOKEN"),
    );
  });
});

describe("§4.3 install and plan state is re-checked on every operation", () => {
  // What the app/uninstalled webhook does.
  const uninstall = recordShopUninstalled;

  test.each(ROUTES)(
    "/api/%s %s /%s: uninstalled after minting is SHOP_NOT_INSTALLED 403",
    async (namespace, method, name) => {
      const shop = await givenDirectShop();
      const token = await aServiceToken({ channel: namespace });
      await uninstall(shop);
      const result = await call(namespace, method, name, { token });
      expect(result).toMatchObject({ status: 403, body: errorEnvelope("SHOP_NOT_INSTALLED") });
      expect(emulator.requests).toEqual([]);
    },
  );

  test("a Shop record marked uninstalled while the session lingers is SHOP_NOT_INSTALLED too", async () => {
    const shop = await givenDirectShop();
    const token = await aServiceToken();
    await db.shop.update({ where: { domain: shop }, data: { uninstalledAt: new Date() } });
    await bumpShopVersion(shop); // as every writer of shop state does
    expect((await call("headless", "POST", "save", { token })).body).toEqual(errorEnvelope("SHOP_NOT_INSTALLED"));
  });

  test("a revoked offline token (raw 401 from the Admin API) is SHOP_NOT_INSTALLED, not a 500", async () => {
    const shop = await givenDirectShop();
    const token = await aServiceToken({ channel: "customer-account" });
    emulator.revokeAdminToken(shop);
    const result = await call("customer-account", "POST", "save", { token });
    expect(result).toMatchObject({ status: 403, body: errorEnvelope("SHOP_NOT_INSTALLED") });
    expect(corsHeadersOf(result.headers)).toEqual(CORS_EXPECTATION);
  });

  test.each(OPERATIONS)("%s /%s: a downgrade after minting is CHANNEL_NOT_ENTITLED 403", async (method, name) => {
    const shop = await givenDirectShop({ plan: "scale" });
    const headless = await aServiceToken({ channel: "headless" });
    const customerAccount = await aServiceToken({ channel: "customer-account" });

    await storeShopPlan(shop, "pro", new Date());
    expect(await call("headless", method, name, { token: headless })).toMatchObject({
      status: 403,
      body: errorEnvelope("CHANNEL_NOT_ENTITLED"),
    });
    // Pro still includes the customer-account channel.
    expect((await call("customer-account", method, name, { token: customerAccount })).status).toBe(passed(name));

    await storeShopPlan(shop, "starter", new Date());
    expect(await call("customer-account", method, name, { token: customerAccount })).toMatchObject({
      status: 403,
      body: errorEnvelope("CHANNEL_NOT_ENTITLED"),
    });
  });
});

describe("§4.3 CORS: customer-account on every response, headless never", () => {
  test.each(OPERATIONS)(
    "OPTIONS /api/customer-account/%s is a 204 preflight with CORS headers, no token needed",
    async (_method, name) => {
      const result = await callDirect(`/api/customer-account/${name}`, {
        method: "OPTIONS",
        headers: { Origin: "https://extensions.shopifycdn.com", "Access-Control-Request-Method": _method },
      });
      expect(result.status).toBe(204);
      expect(result.body).toBeNull();
      expect(corsHeadersOf(result.headers)).toEqual(CORS_EXPECTATION);
    },
  );

  test.each(OPERATIONS)(
    "%s /api/customer-account/%s carries CORS on success and on every kind of error",
    async (method, name) => {
      await givenDirectShop();
      const token = await aServiceToken({ channel: "customer-account" });
      const results = [
        await call("customer-account", method, name, { token }),
        await call("customer-account", method, name),
        await call("customer-account", method, name, { token: "broken" }),
        await callDirect(`/api/customer-account/${name}`, { method: method === "GET" ? "POST" : "GET", token }),
        await callDirect(`/api/customer-account/${name}`, { method, token, ...(method === "GET" ? {} : { body: {} }) }),
      ];
      expect(results.map((result) => result.status)).toEqual([passed(name), 401, 401, 405, 400]);
      for (const result of results) expect(corsHeadersOf(result.headers)).toEqual(CORS_EXPECTATION);
    },
  );

  test("a dispatcher error (DUPLICATE_SAVE 409) carries CORS too", async () => {
    await givenDirectShop();
    const token = await aServiceToken({ channel: "customer-account" });
    await call("customer-account", "POST", "save", { token });
    const duplicate = await call("customer-account", "POST", "save", { token });
    expect(duplicate).toMatchObject({ status: 409, body: errorEnvelope("DUPLICATE_SAVE") });
    expect(corsHeadersOf(duplicate.headers)).toEqual(CORS_EXPECTATION);
  });

  test.each(OPERATIONS)(
    "%s /api/headless/%s sends no CORS headers, and OPTIONS there is a 405",
    async (method, name) => {
      await givenDirectShop();
      const token = await aServiceToken();
      const results = [
        await call("headless", method, name, { token }),
        await call("headless", method, name),
        await callDirect(`/api/headless/${name}`, { method: "OPTIONS" }),
      ];
      expect(results.map((result) => result.status)).toEqual([passed(name), 401, 405]);
      for (const result of results) {
        expect(Object.values(corsHeadersOf(result.headers)).every((value) => value === null)).toBe(true);
      }
    },
  );
});
