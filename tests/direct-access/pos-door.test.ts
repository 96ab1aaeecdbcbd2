import { describe, expect, test, vi } from "vitest";
import db from "~/db.server";
import { clock } from "~/lib/clock";
import { runInRequestScope, type RequestLogFields } from "~/lib/request-context.server";
import { PLAN_KEYS, PLANS, type PlanKey } from "~/services/plans";
import {
  monthlyUsage,
  releaseUsageLeases,
  staffShare,
  staffUsageKey,
  usagePeriod,
} from "~/services/usage/monthly-budget.server";
import { STAFF_OPERATION_RATE } from "~/services/usage/rate-limits.server";
import { clearProcessCaches } from "~/lib/process-caches.server";
import { TEST_ENV } from "../support/test-env";
import { callProxy, DEMO_SHOP, sendToApp, setMonthlyUsage } from "../support/app";
import {
  CORS_EXPECTATION,
  CUSTOMER,
  OTHER_CUSTOMER,
  aSessionToken,
  callDirect,
  corsHeadersOf,
  directRequest,
  errorEnvelope,
  givenDirectShop,
} from "../support/direct";
import { aSaveRequest } from "../support/fixtures";
import { emulator } from "../support/platform";
import { posSessionToken } from "../support/session-token";

const STAFF_USER = "4242";
const ORIGIN = "https://extensions.shopifycdn.com";

function aPosToken(overrides: Partial<Record<string, unknown>> = {}, secret = TEST_ENV.SHOPIFY_API_SECRET) {
  return posSessionToken({
    shop: DEMO_SHOP,
    apiKey: TEST_ENV.SHOPIFY_API_KEY,
    apiSecret: secret,
    staffUserId: STAFF_USER,
    overrides,
  });
}

/** GET /api/pos/list as the POS extension sends it: its session token, the customer chosen in POS. */
async function posList(token: string | null, query: Record<string, string> = { customerId: CUSTOMER.id }) {
  return callDirect("/api/pos/list", {
    authorization: token === null ? null : `Bearer ${token}`,
    query: { context: "wishlist", ...query },
    headers: { Origin: ORIGIN },
  });
}

/** The customer's proxy saves of `count` products, as the storefront makes them. */
async function givenSaves(customerId: string, count: number): Promise<void> {
  const operations = Array.from({ length: count }, (_, index) => ({
    action: "save",
    ...aSaveRequest({ entityGid: `gid://shopify/Product/${index + 1}`, snapshot: { title: `Product ${index + 1}` } }),
  }));
  const result = await callProxy("/proxy/api/batch", { body: { operations }, customerId });
  expect(result.body.data.succeeded).toBe(count);
}

const numericId = (gid: string) => gid.split("/").at(-1)!;

describe("GET /api/pos/list: the point-of-sale front door", () => {
  test("a staff user's POS session token reads the chosen customer's list, with CORS headers", async () => {
    await givenDirectShop({ plan: "pro" });
    await givenSaves(numericId(CUSTOMER.id), 2);
    const result = await posList(await aPosToken());
    expect(result.status).toBe(200);
    expect(result.body.data.items.map((item: { entityGid: string }) => item.entityGid)).toEqual([
      "gid://shopify/Product/2",
      "gid://shopify/Product/1",
    ]);
    expect(corsHeadersOf(result.headers)).toEqual(CORS_EXPECTATION);
    const other = await posList(await aPosToken(), { customerId: OTHER_CUSTOMER.id });
    expect(other.body.data.items).toEqual([]);
  });

  test("the preflight is answered before any token is read", async () => {
    const response = await sendToApp(directRequest("/api/pos/list", { method: "OPTIONS" }));
    expect(response.status).toBe(204);
    expect(corsHeadersOf(response.headers)).toEqual(CORS_EXPECTATION);
  });

  test("the staff user is written into the access log", async () => {
    await givenDirectShop({ plan: "pro" });
    const log: RequestLogFields = {};
    const token = await aPosToken();
    const response = await runInRequestScope(log, () =>
      sendToApp(directRequest("/api/pos/list", { token, query: { context: "wishlist", customerId: CUSTOMER.id } })),
    );
    expect(response.status).toBe(200);
    expect(log).toMatchObject({ staff: STAFF_USER, channel: "point-of-sale", operation: "list", shop: DEMO_SHOP });
  });

  test("no token is AUTH_REQUIRED; a bad signature, an expired token, another app's audience or an iss that is not dest's admin is INVALID_TOKEN", async () => {
    await givenDirectShop({ plan: "pro" });
    const now = Math.floor(Date.now() / 1000);
    expect(await posList(null)).toMatchObject({ status: 401, body: errorEnvelope("AUTH_REQUIRED") });
    const refused = {
      "bad signature": await aPosToken({}, "another-secret-of-at-least-32-characters!"),
      expired: await aPosToken({ iat: now - 120, nbf: now - 120, exp: now - 60 }),
      "not yet valid": await aPosToken({ nbf: now + 120 }),
      "wrong aud": await aPosToken({ aud: "another-app" }),
      "no shop": await aPosToken({ dest: undefined }),
      // The session-token guide asks that iss and dest name the same shop.
      "iss another shop's admin": await aPosToken({ iss: "https://other.myshopify.com/admin" }),
      "no iss": await aPosToken({ iss: undefined }),
      "iss the shop, not its admin": await aPosToken({ iss: `https://${DEMO_SHOP}` }),
      // A customer-account extension's token is signed with the same secret: its sub is no staff user.
      "customer-account token": await aSessionToken(),
    };
    for (const [name, token] of Object.entries(refused)) {
      const result = await posList(token);
      expect({ name, ...result }).toMatchObject({ name, status: 401, body: errorEnvelope("INVALID_TOKEN") });
      expect(corsHeadersOf(result.headers)).toEqual(CORS_EXPECTATION);
    }
    expect(emulator.requests).toEqual([]);
  });

  test("no customer is CUSTOMER_REQUIRED; a customer that is not a customer GID is VALIDATION_ERROR", async () => {
    await givenDirectShop({ plan: "pro" });
    const token = await aPosToken();
    expect(await posList(token, {})).toMatchObject({ status: 401, body: errorEnvelope("CUSTOMER_REQUIRED") });
    for (const customerId of ["1001", "gid://shopify/Product/1", `${CUSTOMER.id}/x`]) {
      expect(await posList(token, { customerId })).toMatchObject({
        status: 400,
        body: errorEnvelope("VALIDATION_ERROR"),
      });
    }
    expect(emulator.requests).toEqual([]);
  });

  test("only reads are served: the writes are NOT_FOUND", async () => {
    await givenDirectShop({ plan: "scale" });
    const token = await aPosToken();
    for (const operation of ["save", "remove", "toggle", "batch", "share-create"]) {
      const result = await callDirect(`/api/pos/${operation}`, {
        token,
        query: { customerId: CUSTOMER.id },
        body: aSaveRequest(),
      });
      expect({ operation, ...result }).toMatchObject({ operation, status: 404, body: errorEnvelope("NOT_FOUND") });
    }
    expect(emulator.metaobjects(DEMO_SHOP, "$app:save_item")).toEqual([]);
  });

  test.each(PLAN_KEYS.map((plan) => [plan, PLANS[plan].channels.includes("point-of-sale")] as [PlanKey, boolean]))(
    "plan %s: point of sale included %s",
    async (plan, included) => {
      await givenDirectShop({ plan });
      const result = await posList(await aPosToken());
      if (included) expect(result.status).toBe(200);
      else expect(result).toMatchObject({ status: 403, body: errorEnvelope("CHANNEL_NOT_ENTITLED") });
    },
  );

  test("Pro and Scale include it, Free and Starter do not", () => {
    expect(PLAN_KEYS.filter((plan) => PLANS[plan].channels.includes("point-of-sale"))).toEqual(["pro", "scale"]);
  });

  test("each read counts against the monthly budget, and an exhausted budget refuses it", async () => {
    await givenDirectShop({ plan: "pro" });
    const token = await aPosToken();
    await posList(token);
    await posList(token);
    expect(await monthlyUsage(DEMO_SHOP)).toBe(2);
    await setMonthlyUsage(DEMO_SHOP, PLANS.pro.monthlyRequests);
    expect(await posList(token)).toMatchObject({ status: 402, body: errorEnvelope("PLAN_LIMIT_REACHED") });
  });

  test("a POS read costs the platform no more than a proxy list of the same size", async () => {
    await givenDirectShop({ plan: "scale" });
    await givenSaves(numericId(CUSTOMER.id), 30);
    await givenSaves(numericId(OTHER_CUSTOMER.id), 30);
    // Both lists cold: nothing either read needs is cached.
    clearProcessCaches();
    const costOf = async (read: () => Promise<{ status: number }>) => {
      const before = emulator.usage(DEMO_SHOP);
      expect((await read()).status).toBe(200);
      const after = emulator.usage(DEMO_SHOP);
      return { requests: after.requests - before.requests, points: after.actualPoints - before.actualPoints };
    };
    const proxy = await costOf(() =>
      callProxy("/proxy/api/list", { query: { context: "wishlist", limit: "30" }, customerId: "1001" }),
    );
    // Cold again: the two customers saved the same products, whose cards the proxy read cached.
    clearProcessCaches();
    const pos = await costOf(async () => posList(await aPosToken(), { customerId: OTHER_CUSTOMER.id, limit: "30" }));
    expect(proxy.requests).toBeGreaterThan(0);
    expect(pos.requests).toBe(proxy.requests);
    // Neither reads the storefront's other list: the proxy only when the page shows it (decision 0025).
    expect(pos.points).toBeLessThanOrEqual(proxy.points);
  });
});

describe("each staff member's own rate and share (issue #31, A8)", () => {
  const OTHER_STAFF = "4343";
  const madeUpCustomer = (index: number) => ({ customerId: `gid://shopify/Customer/${880_000 + index}` });
  const aStaffToken = (staffUserId: string) =>
    posSessionToken({
      shop: DEMO_SHOP,
      apiKey: TEST_ENV.SHOPIFY_API_KEY,
      apiSecret: TEST_ENV.SHOPIFY_API_SECRET,
      staffUserId,
    });

  test("one staff token reading made-up customers is refused 429 with Retry-After after its burst; another staff member is served", async () => {
    await givenDirectShop({ plan: "pro" });
    // The app's time stands still: nothing refills while the loop runs.
    vi.spyOn(clock, "now").mockReturnValue(clock.now());
    const token = await aStaffToken(STAFF_USER);
    const statuses: number[] = [];
    for (let index = 0; index < STAFF_OPERATION_RATE.capacity; index++) {
      statuses.push((await posList(token, madeUpCustomer(index))).status);
    }
    expect(statuses.every((status) => status === 200)).toBe(true);
    const refused = await posList(token, madeUpCustomer(STAFF_OPERATION_RATE.capacity));
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: "RATE_LIMITED", retryable: true });
    expect(Number(refused.headers.get("Retry-After"))).toBe(1 / STAFF_OPERATION_RATE.refillPerSecond);
    expect((await posList(await aStaffToken(OTHER_STAFF), madeUpCustomer(0))).status).toBe(200);
  });

  test("a staff member's reads of the month stop at their share of the budget; another staff member and the shop's shoppers are served", async () => {
    await givenDirectShop({ plan: "pro" });
    await releaseUsageLeases();
    await db.customerUsage.create({
      data: {
        shopDomain: DEMO_SHOP,
        customerGid: staffUsageKey(STAFF_USER),
        period: usagePeriod(clock.now()),
        count: staffShare(PLANS.pro),
      },
    });
    const refused = await posList(await aStaffToken(STAFF_USER), madeUpCustomer(1));
    expect(refused.status).toBe(402);
    expect(refused.body.error).toMatchObject({ code: "PLAN_LIMIT_REACHED" });
    expect(refused.body.error.message).toMatch(/staff member/);
    expect((await posList(await aStaffToken(OTHER_STAFF), madeUpCustomer(1))).status).toBe(200);
    expect((await callProxy("/proxy/api/list", { query: { context: "wishlist" } })).status).toBe(200);
  });
});
