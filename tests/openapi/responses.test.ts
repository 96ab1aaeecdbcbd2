import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { DIRECT_ROUTES, resolveError, type DocumentedRoute } from "~/edge/openapi/direct-routes";
import { clearProcessCaches } from "~/lib/process-caches.server";
import { PLANS } from "~/services/plans";
import { DEMO_SHOP, givenShop, setMonthlyUsage } from "../support/app";
import {
  CUSTOMER,
  STOREFRONT_TOKEN,
  aServiceToken,
  aSessionToken,
  callDirect,
  givenDirectShop,
  serviceClaims,
  signHs256,
  type DirectCall,
  type DirectResult,
} from "../support/direct";
import { aSaveRequest, anIdentity, identityQuery } from "../support/fixtures";
import { emulator } from "../support/platform";
import { expectDocumentedResponse } from "../support/openapi";
import { loggedLines } from "../support/logs";

/**
 * Real answers of the real route modules, provoked for every error the document lists on each
 * route, must each be a response the document describes (status listed, body valid for its
 * schema, code in that status's enum); and every documented code must actually be provoked.
 */

beforeEach(() => {
  // Upstream failures and identity lookups log their cause; keep that out of the test output.
  loggedLines();
});
afterEach(() => vi.restoreAllMocks());

const STARTER_SHOP = "starter-shop.myshopify.com";
const UNINSTALLED_SHOP = "nowhere.myshopify.com";
const HUGE_BODY = { context: "x".repeat(300 * 1024) };

/** Documented codes no single-process test can provoke: an unexpected failure, and toggle's save after a cross-instance race. */
function unprovokable(route: DocumentedRoute): string[] {
  return route.path.endsWith("/toggle") ? ["INTERNAL_ERROR", "DUPLICATE_SAVE"] : ["INTERNAL_ERROR"];
}

/** Sends the call and checks the answer against the document; collects the error codes seen. */
function recorder(route: DocumentedRoute) {
  const seen = new Set<string>();
  const send = async (call: DirectCall): Promise<DirectResult> => {
    const result = await callDirect(route.path, call);
    const method = call.method ?? (call.body === undefined ? "GET" : "POST");
    // A wrong method is documented on the route's one operation: it is the same route file answering.
    const code = expectDocumentedResponse(route.path, route.method, result.status, result.body);
    if (method.toLowerCase() !== route.method) expect(result.status).toBe(405);
    if (code) seen.add(code);
    return result;
  };
  return { send, seen };
}

function expectEveryDocumentedCodeSeen(route: DocumentedRoute, seen: Set<string>) {
  const documented = new Set<string>(route.errors.map((error) => resolveError(error).code));
  const expected = [...documented].filter((code) => !unprovokable(route).includes(code)).sort();
  expect([...seen].filter((code) => documented.has(code)).sort(), route.path).toEqual(expected);
}

/** Valid bodies of the list operations, on the list the test's first save makes. */
const LIST_BODIES: Record<string, Record<string, unknown>> = {
  "create-list": { name: "Gifts", context: "gifts" },
  "rename-list": { context: "wishlist", name: "Gifts" },
  "delete-list": { context: "wishlist" },
};

const operationRoutes = DIRECT_ROUTES.filter((route) => !route.path.endsWith("/auth/exchange"));

describe.each(operationRoutes.map((route) => [`${route.method.toUpperCase()} ${route.path}`, route] as const))(
  "%s answers only as documented",
  (_, route) => {
    const name = route.path.split("/").at(-1)!;
    const channel = route.namespace;
    const otherChannel = channel === "headless" ? "customer-account" : "headless";

    /** The share token shared-list reads, once the test has created one. */
    let shareToken = "A".repeat(43);

    /** A well-formed call of this route with the given token. */
    function validCall(token: string, overrides: Partial<Record<string, unknown>> = {}): DirectCall {
      if (route.method === "get") {
        const query =
          name === "list"
            ? { context: "wishlist" }
            : name === "shared-list"
              ? { token: shareToken }
              : name === "lists"
                ? {}
                : identityQuery();
        return { method: "GET", token, query: { ...query, ...(overrides as Record<string, string>) } };
      }
      const body =
        name === "batch"
          ? { operations: [{ action: "save", ...aSaveRequest(overrides) }] }
          : { ...(LIST_BODIES[name] ?? aSaveRequest()), ...overrides };
      return { method: "POST", token, body };
    }

    test("success and every documented error", async () => {
      await givenDirectShop({ plan: "scale" });
      await givenShop({ domain: STARTER_SHOP, plan: "starter" });
      const token = await aServiceToken({ channel });
      const { send, seen } = recorder(route);

      // Success, with data in every optional shape the operation has.
      const saved = await callDirect(`/api/${channel}/save`, {
        method: "POST",
        token,
        body: aSaveRequest({ snapshot: { title: "Boots" } }),
      });
      expect(saved.status).toBe(200);
      switch (name) {
        case "save":
          expect((await send(validCall(token, { context: "other" }))).status).toBe(200);
          await send(validCall(token)); // DUPLICATE_SAVE
          break;
        case "toggle":
          expect((await send(validCall(token))).body.data).toMatchObject({ state: "removed" });
          expect((await send(validCall(token))).body.data).toMatchObject({ state: "active" });
          break;
        case "remove":
          expect((await send({ method: "POST", token, body: anIdentity() })).body.data).toMatchObject({
            state: "removed",
          });
          await send({ method: "POST", token, body: anIdentity({ entityGid: "gid://shopify/Product/404" }) }); // ITEM_NOT_FOUND
          break;
        case "batch": {
          const operations = [
            { action: "save", ...aSaveRequest({ entityGid: "gid://shopify/Product/2" }) },
            { action: "remove", ...anIdentity({ entityGid: "gid://shopify/Product/404" }) },
          ];
          const result = await send({ method: "POST", token, body: { operations } });
          expect(result.body.data).toMatchObject({ total: 2, succeeded: 1, failed: 1 });
          await send({ method: "POST", token, body: { operations: [operations[0], operations[0]] } }); // BATCH_CONFLICT
          break;
        }
        case "list": {
          const result = await send(validCall(token));
          expect(result.body.data.items[0]).toMatchObject({
            snapshot: { title: "Boots" },
            savedAt: expect.any(String),
          });
          await send(validCall(token, { limit: "1" }));
          await send(validCall(token, { cursor: "not-a-cursor" })); // VALIDATION_ERROR
          break;
        }
        case "is-saved":
          expect((await send(validCall(token))).body.data).toEqual({ saved: true });
          expect((await send(validCall(token, { context: "empty" }))).body.data).toEqual({ saved: false });
          break;
        case "share-create":
          expect((await send(validCall(token, { displayName: "Ana" }))).body.data).toMatchObject({
            displayName: "Ana",
          });
          expect((await send(validCall(token))).body.data).toMatchObject({ displayName: null });
          await send(validCall(token, { context: "no-such-list" })); // NOT_FOUND
          break;
        case "share-revoke":
          expect((await send(validCall(token))).body.data).toEqual({ revoked: false });
          await callDirect(`/api/${channel}/share-create`, { method: "POST", token, body: { context: "wishlist" } });
          expect((await send(validCall(token))).body.data).toEqual({ revoked: true });
          await send(validCall(token, { context: "no-such-list" })); // NOT_FOUND
          break;
        case "shared-list": {
          await send(validCall(token)); // NOT_FOUND: no link yet
          const link = await callDirect(`/api/${channel}/share-create`, {
            method: "POST",
            token,
            body: { context: "wishlist", displayName: "Ana" },
          });
          shareToken = link.body.data.token;
          expect((await send(validCall(token))).body.data).toMatchObject({ displayName: "Ana", hasMore: false });
          break;
        }
        case "lists": {
          const result = await send(validCall(token));
          expect(result.body.data.lists[0]).toMatchObject({ context: "wishlist", name: null, itemCount: 1 });
          await send(validCall(token, { cursor: "not-a-cursor" })); // VALIDATION_ERROR
          break;
        }
        case "create-list":
          expect((await send(validCall(token))).body.data).toMatchObject({ context: "gifts", name: "Gifts" });
          await send(validCall(token, { name: "Other" })); // LIST_EXISTS
          break;
        case "rename-list":
          expect((await send(validCall(token))).body.data).toMatchObject({ name: "Gifts", itemCount: 1 });
          await send(validCall(token, { context: "no-such-list" })); // NOT_FOUND
          break;
        case "delete-list":
          expect((await send(validCall(token))).body.data).toEqual({
            context: "wishlist",
            deleted: true,
            removedItems: 1,
          });
          await send(validCall(token)); // NOT_FOUND
          break;
      }

      // The method, the credential, the input.
      await send({ ...validCall(token), method: route.method === "get" ? "POST" : "GET", body: undefined });
      await send({ ...validCall(token), token: undefined });
      await send({ ...validCall(token), authorization: "Bearer not-a-token" });
      const now = Math.floor(Date.now() / 1000);
      await send({
        ...validCall(token),
        token: await signHs256(serviceClaims({ channel, iat: now - 400, exp: now - 100 })),
      });
      await send({ ...validCall(token), token: await aServiceToken({ channel: otherChannel }) });
      await send({ ...validCall(token), token: await aServiceToken({ channel, shop: UNINSTALLED_SHOP }) });
      await send({ ...validCall(token), token: await aServiceToken({ channel, shop: STARTER_SHOP }) });
      if (route.method === "get") {
        await send({ method: "GET", token, query: { entityType: "widget" } });
      } else {
        await send({ method: "POST", token, body: { context: "" } });
        await send({ method: "POST", token, body: aSaveRequest(), headers: { "Content-Type": "text/plain" } });
        await send({ method: "POST", token, body: HUGE_BODY });
      }

      // The platform behind the service, then the budget. A shared list's page is cached per token
      // (whatever the context), so it is read as another instance would, with nothing cached.
      if (name === "shared-list") clearProcessCaches();
      emulator.injectFault({ kind: "http500", api: "admin" });
      // Contexts nothing has read yet, so the platform must be asked.
      await send(validCall(token, { context: "upstream" }));
      if (name === "shared-list") clearProcessCaches();
      emulator.injectFault({ kind: "throttled", api: "admin", times: 10 });
      await send(validCall(token, { context: "throttled" }));
      await setMonthlyUsage(DEMO_SHOP, PLANS.scale.monthlyRequests);
      await send(validCall(token));

      expectEveryDocumentedCodeSeen(route, seen);
    });
  },
);

describe("POST /api/headless/auth/exchange answers only as documented", () => {
  const route = DIRECT_ROUTES.find((entry) => entry.path === "/api/headless/auth/exchange")!;

  test("success on both paths and every documented error", async () => {
    await givenDirectShop({ plan: "scale" });
    await givenShop({ domain: "pro-shop.myshopify.com", plan: "pro" });
    const { send, seen } = recorder(route);
    const modern = { shop: DEMO_SHOP, customerAccountAccessToken: CUSTOMER.customerAccountAccessToken };
    const legacy = {
      shop: DEMO_SHOP,
      storefrontCustomerAccessToken: CUSTOMER.storefrontCustomerAccessToken,
      storefrontAccessToken: STOREFRONT_TOKEN,
    };

    expect((await send({ method: "POST", body: modern })).body.data).toMatchObject({
      channel: "headless",
      expiresInSeconds: 300,
    });
    expect((await send({ method: "POST", body: legacy })).status).toBe(200);

    await send({ method: "GET" });
    await send({ method: "POST", body: { ...modern, ...legacy } });
    await send({ method: "POST", body: modern, headers: { "Content-Type": "text/plain" } });
    await send({ method: "POST", body: HUGE_BODY });
    await send({ method: "POST", body: { ...modern, shop: UNINSTALLED_SHOP } });
    await send({ method: "POST", body: { ...modern, shop: "pro-shop.myshopify.com" } });
    await send({ method: "POST", body: { ...modern, customerAccountAccessToken: "not-a-token" } });
    await send({ method: "POST", body: { ...legacy, storefrontCustomerAccessToken: "not-a-token" } });
    // Failures in a row from one address for one shop: then the address must wait (RATE_LIMITED).
    for (let attempt = 0; attempt < 11; attempt++)
      await send({ method: "POST", body: { ...modern, customerAccountAccessToken: "x" } });

    expectEveryDocumentedCodeSeen(route, seen);
  });
});

describe("POST /api/customer-account/auth/exchange answers only as documented", () => {
  const route = DIRECT_ROUTES.find((entry) => entry.path === "/api/customer-account/auth/exchange")!;

  test("success and every documented error", async () => {
    await givenDirectShop({ plan: "pro" });
    await givenShop({ domain: STARTER_SHOP, plan: "starter" });
    const { send, seen } = recorder(route);
    const exchange = async (sessionToken: string | null) =>
      send({ method: "POST", authorization: sessionToken === null ? null : `Bearer ${sessionToken}` });

    expect((await exchange(await aSessionToken())).body.data).toMatchObject({
      channel: "customer-account",
      shop: DEMO_SHOP,
    });

    await send({ method: "GET", authorization: `Bearer ${await aSessionToken()}` });
    await exchange(null);
    await exchange("not-a-token");
    await exchange(await aSessionToken({ sub: undefined }));
    await exchange(await aSessionToken({ dest: UNINSTALLED_SHOP }));
    await exchange(await aSessionToken({ dest: STARTER_SHOP }));
    // Failures in a row from one address for one shop: then the address must wait (RATE_LIMITED).
    for (let attempt = 0; attempt < 11; attempt++) await exchange("not-a-token");

    expectEveryDocumentedCodeSeen(route, seen);
  });
});
