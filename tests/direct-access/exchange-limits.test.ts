import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { clock } from "~/lib/clock";
import { action as customerAccountExchange } from "~/routes/api.customer-account.auth.exchange";
import { action as headlessExchange } from "~/routes/api.headless.auth.exchange";
import { addressKey, EXCHANGE_LIMITS } from "~/services/direct-access/exchange-limits.server";
import { monthlyUsage } from "~/services/usage/monthly-budget.server";
import { DEMO_SHOP } from "../support/app";
import { CUSTOMER, STOREFRONT_TOKEN, aSessionToken, directRequest, givenDirectShop } from "../support/direct";
import { emulator } from "../support/platform";
import { loggedLines } from "../support/logs";

const BACKEND = "203.0.113.7";
const JUNK = "junk-customer-account-token";

interface Answer {
  status: number;
  code?: string;
  retryable?: boolean;
  retryAfter: string | null;
  headers: Headers;
}

/** An exchange as the production server hands it to the route: the client address in the load context. */
async function exchangeFrom(clientAddress: string, body: Record<string, unknown>): Promise<Answer> {
  const request = directRequest("/api/headless/auth/exchange", { method: "POST", body });
  return answerOf(await headlessExchange({ request, params: {}, context: { clientAddress } }));
}

async function customerAccountFrom(clientAddress: string, sessionToken: string): Promise<Answer> {
  const request = directRequest("/api/customer-account/auth/exchange", {
    method: "POST",
    authorization: `Bearer ${sessionToken}`,
  });
  return answerOf(await customerAccountExchange({ request, params: {}, context: { clientAddress } }));
}

async function answerOf(response: Response): Promise<Answer> {
  const body = await response.json();
  return {
    status: response.status,
    code: body.error?.code,
    retryable: body.error?.retryable,
    retryAfter: response.headers.get("Retry-After"),
    headers: response.headers,
  };
}

const modern = (customerAccountAccessToken: string, shop = DEMO_SHOP) => ({ shop, customerAccountAccessToken });
const legacy = (storefrontCustomerAccessToken: string) => ({
  shop: DEMO_SHOP,
  storefrontCustomerAccessToken,
  storefrontAccessToken: STOREFRONT_TOKEN,
});

let now: Date;
/** The service's clock stands still unless a test moves it, so no bucket refills by accident. */
function advanceClock(seconds: number) {
  now = new Date(now.getTime() + seconds * 1000);
}
beforeEach(() => {
  now = new Date();
  vi.spyOn(clock, "now").mockImplementation(() => now);
});
afterEach(() => vi.restoreAllMocks());

async function repeat(times: number, attempt: () => Promise<Answer>): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let index = 0; index < times; index++) answers.push(await attempt());
  return answers;
}
const statuses = (answers: Answer[]) => answers.map((answer) => answer.status);

describe("failed exchanges: after 10 in a row, 429 without asking the platform", () => {
  test("300 junk tokens from one address: 10 reach the platform, the rest are RATE_LIMITED with Retry-After", async () => {
    const shop = await givenDirectShop();
    const logged = loggedLines();
    const answers = await repeat(300, () => exchangeFrom(BACKEND, modern(JUNK)));

    expect(statuses(answers)).toEqual([...Array(10).fill(401), ...Array(290).fill(429)]);
    expect(answers[10]).toMatchObject({ code: "RATE_LIMITED", retryable: true, retryAfter: "6" });
    // One discovery (cached), then one customer query per attempt that got through.
    expect(emulator.countRequests({ api: "customer-account-discovery" })).toBe(1);
    expect(emulator.countRequests({ api: "customer-account" })).toBe(10);
    expect(await monthlyUsage(shop)).toBe(0);

    // Sampled: the first refusal of the minute, then one in a hundred, each one JSON line without tokens.
    const lines = logged({ level: "warn", text: "exchange_refused" });
    expect(lines.map(({ t: _t, level: _level, msg: _msg, ...fields }) => fields)).toEqual([
      {
        clientAddress: BACKEND,
        shop,
        path: "modern",
        code: "INVALID_HEADLESS_SIGNATURE",
        status: 401,
        refusalsThisMinute: 1,
      },
      {
        clientAddress: BACKEND,
        shop,
        path: "modern",
        code: "RATE_LIMITED",
        status: 429,
        refusalsThisMinute: 101,
      },
      {
        clientAddress: BACKEND,
        shop,
        path: "modern",
        code: "RATE_LIMITED",
        status: 429,
        refusalsThisMinute: 201,
      },
    ]);
    expect(JSON.stringify(logged())).not.toContain(JUNK);
  });

  test("the bucket refills one failure every 6 s: then one more attempt reaches the platform", async () => {
    await givenDirectShop();
    await repeat(11, () => exchangeFrom(BACKEND, modern(JUNK)));
    advanceClock(5);
    expect((await exchangeFrom(BACKEND, modern(JUNK))).retryAfter).toBe("1");
    // A retry arrives a little after the delay; exactly on it, a refill of 1/6 a second is a float's dust short.
    advanceClock(1.001);
    expect(statuses(await repeat(3, () => exchangeFrom(BACKEND, modern(JUNK))))).toEqual([401, 429, 429]);
    expect(emulator.countRequests({ api: "customer-account" })).toBe(11);
  });

  test("a valid token is refused too while the address is waiting, and served once it has waited", async () => {
    await givenDirectShop();
    await repeat(10, () => exchangeFrom(BACKEND, modern(JUNK)));
    expect((await exchangeFrom(BACKEND, modern(CUSTOMER.customerAccountAccessToken))).status).toBe(429);
    advanceClock(6.001);
    // A success ends the wait: the next exchanges go through without waiting for the bucket.
    expect(statuses(await repeat(5, () => exchangeFrom(BACKEND, modern(CUSTOMER.customerAccountAccessToken))))).toEqual(
      Array(5).fill(200),
    );
  });

  test("the limit is per address and shop, whichever path the attempt takes", async () => {
    await givenDirectShop();
    await givenDirectShop({ domain: "other.myshopify.com" });
    await repeat(10, () => exchangeFrom(BACKEND, modern(JUNK)));
    expect((await exchangeFrom(BACKEND, modern(JUNK))).status).toBe(429);
    // The limit is per address and shop, whichever path the attempt takes.
    expect((await exchangeFrom(BACKEND, legacy("sfcat-1001"))).status).toBe(429);
    expect((await exchangeFrom("198.51.100.23", modern(CUSTOMER.customerAccountAccessToken))).status).toBe(200);
    expect((await exchangeFrom(BACKEND, modern("other-cat-1001", "other.myshopify.com"))).status).toBe(200);
  });

  test("the legacy path is limited the same way", async () => {
    await givenDirectShop();
    const answers = await repeat(12, () => exchangeFrom(BACKEND, legacy("junk-storefront-token")));
    expect(statuses(answers)).toEqual([...Array(10).fill(401), 429, 429]);
    expect(emulator.countRequests({ api: "storefront" })).toBe(10);
  });

  test("a shop probed without the headless channel: the 403s count as failures", async () => {
    await givenDirectShop({ plan: "pro" });
    const answers = await repeat(11, () => exchangeFrom(BACKEND, modern(CUSTOMER.customerAccountAccessToken)));
    expect(statuses(answers)).toEqual([...Array(10).fill(403), 429]);
    expect(emulator.requests).toEqual([]);
  });

  test("bodies refused by validation are not metered: no shop is named and nothing leaves the service", async () => {
    await givenDirectShop();
    expect(
      statuses(await repeat(20, () => exchangeFrom(BACKEND, { shop: DEMO_SHOP }))).every((status) => status === 400),
    ).toBe(true);
    expect((await exchangeFrom(BACKEND, modern(CUSTOMER.customerAccountAccessToken))).status).toBe(200);
  });

  test("customer-account exchanges: junk session tokens are limited per address and claimed shop, with CORS on the 429", async () => {
    await givenDirectShop({ plan: "pro" });
    const forged = await aSessionToken({}, "not-the-app-secret");
    const answers = await repeat(11, () => customerAccountFrom(BACKEND, forged));
    expect(statuses(answers)).toEqual([...Array(10).fill(401), 429]);
    expect(answers[10]!.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(answers[10]!.headers.get("Access-Control-Expose-Headers")).toBe("Retry-After");
    expect(answers[10]!.retryAfter).toBe("6");
    expect((await customerAccountFrom("198.51.100.23", await aSessionToken())).status).toBe(200);
  });
});

describe("all exchange attempts: a burst of 120, then 20 a second", () => {
  test("a backend exchanging for many customers at once is served up to the burst", async () => {
    await givenDirectShop();
    const burst = EXCHANGE_LIMITS.attempts.capacity;
    const answers = await Promise.all(
      Array.from({ length: burst + 1 }, () => exchangeFrom(BACKEND, legacy(CUSTOMER.storefrontCustomerAccessToken))),
    );
    expect(statuses(answers).filter((status) => status === 200)).toHaveLength(burst);
    expect(answers.find((answer) => answer.status === 429)).toMatchObject({ code: "RATE_LIMITED", retryAfter: "1" });
    expect(emulator.countRequests({ api: "storefront" })).toBe(burst);
    advanceClock(1);
    const next = await repeat(21, () => exchangeFrom(BACKEND, legacy(CUSTOMER.storefrontCustomerAccessToken)));
    expect(statuses(next)).toEqual([...Array(20).fill(200), 429]);
  });
});

describe("client addresses", () => {
  test.each([
    ["203.0.113.7", "203.0.113.7"],
    ["::ffff:203.0.113.7", "203.0.113.7"],
    ["2001:db8:1:2::1", "2001:db8:1:2::/64"],
    ["2001:0db8:0001:0002:ffff:0:0:9", "2001:db8:1:2::/64"],
    ["2001:db8::1", "2001:db8:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    ["fe80::1%eth0", "fe80:0:0:0::/64"],
    ["64:ff9b::192.0.2.1", "64:ff9b:0:0::/64"],
    ["unknown", "unknown"],
  ])("%s is limited as %s", (address, key) => {
    expect(addressKey(address)).toBe(key);
  });

  test("an IPv6 client's whole /64 shares one limit", async () => {
    await givenDirectShop();
    await repeat(5, () => exchangeFrom("2001:db8:1:2::1", modern(JUNK)));
    await repeat(5, () => exchangeFrom("2001:db8:1:2:abcd::9", modern(JUNK)));
    expect((await exchangeFrom("2001:db8:1:2::77", modern(JUNK))).status).toBe(429);
    expect((await exchangeFrom("2001:db8:1:3::1", modern(JUNK))).status).toBe(401);
  });
});
