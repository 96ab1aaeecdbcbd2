// The App Events API and Shopify App Pricing's billing events (app-events.ts): each rule of
// "Create an event", "App Events API reference" and "Setup usage charges" refusing what it refuses.
import { setupServer } from "msw/node";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createPlatformEmulator } from "../src/index";
import { startEmulatorServer } from "../src/http-server";
import { createRemoteEmulator } from "../src/remote";
import { adminUrl, postAdmin, TEST_SHOP } from "../src/testing";

const CLIENT_ID = "app-client-id";
const CLIENT_SECRET = "app-client-secret";
const ADMIN_TOKEN = "shpat_app_events";
const TOKEN_URL = "https://api.shopify.com/auth/access_token";
const EVENTS_URL = "https://api.shopify.com/app/unstable/events";
const METER = "overage_blocks";
const START = Date.parse("2026-11-01T00:00:00Z");
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

let clockMs = START;
const emulator = createPlatformEmulator({
  clientId: CLIENT_ID,
  clientSecret: CLIENT_SECRET,
  now: () => new Date(clockMs),
  appPricing: { meters: [{ handle: METER, unitPriceCents: { starter: 200, pro: 150 } }] },
});
const server = setupServer(...emulator.handlers);
// Loopback is the HTTP server of the last test; everything else must be emulated.
beforeAll(() =>
  server.listen({
    onUnhandledRequest: (request, print) => {
      if (new URL(request.url).hostname !== "127.0.0.1") print.error();
    },
  }),
);
afterAll(() => server.close());

let shopGid = "";
beforeEach(async () => {
  clockMs = START;
  emulator.reset();
  emulator.addShop({ domain: TEST_SHOP, adminAccessToken: ADMIN_TOKEN, plan: "starter" });
  shopGid = (await postAdmin(adminUrl(), ADMIN_TOKEN, "{ shop { id } }")).body.data.shop.id;
});

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: "POST",
  headers: { "Content-Type": "application/json", "User-Agent": "emulator-tests", ...headers },
  body: JSON.stringify(body),
});

async function token(credentials = { client_id: CLIENT_ID, client_secret: CLIENT_SECRET }) {
  const response = await fetch(TOKEN_URL, json({ ...credentials, grant_type: "client_credentials" }));
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

const event = (overrides: Record<string, unknown> = {}) => ({
  shop_id: shopGid,
  event_handle: METER,
  timestamp: new Date(clockMs).toISOString(),
  idempotency_key: "block-1",
  attributes: { value: 1 },
  ...overrides,
});

async function send(body: unknown, bearer?: string) {
  const response = await fetch(
    EVENTS_URL,
    json(body, { Authorization: `Bearer ${bearer ?? (await token()).body.access_token}` }),
  );
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

describe("the token endpoint", () => {
  it("hands a one-hour bearer token for the app's client credentials, and refuses others", async () => {
    expect(await token()).toEqual({
      status: 200,
      body: { access_token: expect.any(String), scope: "write_global_api_app_events", expires_in: 3599 },
    });
    expect(await token({ client_id: CLIENT_ID, client_secret: "wrong" })).toMatchObject({
      status: 401,
      body: { error: "invalid_client" },
    });
  });

  it("answers 403 without a User-Agent header, on either endpoint", async () => {
    const bare = { method: "POST", headers: { "Content-Type": "application/json" } };
    expect((await fetch(TOKEN_URL, { ...bare, body: "{}" })).status).toBe(403);
    expect((await fetch(EVENTS_URL, { ...bare, body: JSON.stringify(event()) })).status).toBe(403);
  });

  it("an event without a token, or with one past its hour, is 401 and charges nothing", async () => {
    const issued = (await token()).body.access_token as string;
    expect((await send(event(), "made-up")).status).toBe(401);
    clockMs += HOUR;
    expect(await send(event(), issued)).toMatchObject({ status: 401, body: { success: false } });
    expect(emulator.billingCharges(TEST_SHOP).chargedCents).toBe(0);
  });
});

describe("billing events", () => {
  it("a billing event adds its value to the meter at the plan's unit price, in the current cycle", async () => {
    expect(await send(event({ attributes: { value: 2 } }))).toEqual({ status: 202, body: { success: true } });
    expect(emulator.billingCharges(TEST_SHOP)).toEqual({
      cycleStart: new Date(START).toISOString(),
      cycleEnd: new Date(START + 30 * DAY).toISOString(),
      chargedCents: 400,
      events: [expect.objectContaining({ idempotencyKey: "block-1", resultStatus: "RESULT_STATUS_SUCCESS" })],
    });
  });

  it("a key seen within 24 hours answers the first response and charges nothing; after them it is a new event", async () => {
    await send(event());
    clockMs += DAY - 1;
    expect(await send(event())).toEqual({ status: 202, body: { success: true } });
    expect(emulator.billingCharges(TEST_SHOP).chargedCents).toBe(200);
    clockMs += 1;
    await send(event());
    expect(emulator.billingCharges(TEST_SHOP).chargedCents).toBe(400);
  });

  it("a key longer than 64 characters is refused", async () => {
    const refused = await send(event({ idempotency_key: "k".repeat(65) }));
    expect(refused).toEqual({
      status: 400,
      body: {
        success: false,
        error: "Invalid request",
        errors: [{ field: "idempotency_key", code: "invalid", message: expect.stringMatching(/64/) }],
      },
    });
    expect((await send(event({ idempotency_key: "k".repeat(64) }))).status).toBe(202);
    expect(emulator.billingCharges(TEST_SHOP).events.map((charged) => charged.idempotencyKey)).toEqual([
      "k".repeat(64),
    ]);
  });

  it("is answered 202 whatever billing makes of it: refusals show only in the logs", async () => {
    const refusals = [
      event({ idempotency_key: "future", timestamp: new Date(clockMs + 5 * 60 * 1000 + 1000).toISOString() }),
      event({ idempotency_key: "before-cycle", timestamp: new Date(START - 1000).toISOString() }),
      event({ idempotency_key: "no-value", attributes: { blocks: 1 } }),
      event({ idempotency_key: "zero", attributes: { value: 0 } }),
    ];
    for (const body of refusals) expect((await send(body)).status).toBe(202);
    expect(emulator.appEvents(TEST_SHOP).map((logged) => [logged.idempotencyKey, logged.resultCode])).toEqual([
      ["future", "INVALID_TIMESTAMP"],
      ["before-cycle", "PERIOD_CLOSED"],
      ["no-value", "MISSING_VALUE_KEY"],
      ["zero", "INVALID_VALUE"],
    ]);
    expect(emulator.billingCharges(TEST_SHOP).chargedCents).toBe(0);
    // Five minutes ahead is still allowed.
    await send(event({ idempotency_key: "soon", timestamp: new Date(clockMs + 5 * 60 * 1000).toISOString() }));
    expect(emulator.billingCharges(TEST_SHOP).chargedCents).toBe(200);
  });

  it("once the cycle has turned, an event dated in the last one is PERIOD_CLOSED and the new cycle starts at nothing", async () => {
    await send(event());
    const lastCycle = new Date(clockMs + 29 * DAY).toISOString();
    clockMs += 30 * DAY;
    expect(emulator.billingCharges(TEST_SHOP)).toMatchObject({ chargedCents: 0, events: [] });
    await send(event({ idempotency_key: "late", timestamp: lastCycle }));
    expect(emulator.appEvents(TEST_SHOP).at(-1)).toMatchObject({
      resultStatus: "RESULT_STATUS_FAILURE",
      resultCode: "PERIOD_CLOSED",
      resultDetails: expect.stringMatching(/current billing cycle/),
    });
    expect(emulator.billingCharges(TEST_SHOP).chargedCents).toBe(0);
  });

  it("a handle that names no meter is a custom event; a plan without the meter, or none, is not billed", async () => {
    await send(event({ event_handle: "overage_block", idempotency_key: "typo" }));
    expect(emulator.appEvents(TEST_SHOP)[0]).toMatchObject({ kind: "custom", chargedCents: 0 });
    emulator.setPlan(TEST_SHOP, "scale");
    await send(event({ idempotency_key: "scale" }));
    emulator.setPlan(TEST_SHOP, "free");
    await send(event({ idempotency_key: "free" }));
    expect(
      emulator
        .appEvents(TEST_SHOP)
        .slice(1)
        .map((logged) => logged.resultCode),
    ).toEqual(["SUBSCRIPTION_NOT_METERED", "NO_SUBSCRIPTION"]);
  });

  it("a request missing a field, or for a shop the app is not installed on, is refused field by field", async () => {
    const { shop_id: _omitted, ...withoutShop } = event();
    expect((await send(withoutShop)).body.errors).toEqual([
      { field: "shop_id", code: "missing", message: "is missing" },
    ]);
    expect((await send(event({ shop_id: "gid://shopify/Shop/1" }))).body.errors).toEqual([
      expect.objectContaining({ field: "shop_id", code: "not_installed" }),
    ]);
    expect((await send(event({ attributes: { value: [1] } }))).status).toBe(400);
    expect(emulator.appEvents()).toEqual([]);
  });
});

describe("over HTTP", () => {
  it("the pricing, the events and the charges are read and set through the control endpoints", async () => {
    const running = await startEmulatorServer({
      emulator: createPlatformEmulator({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }),
    });
    try {
      const remote = createRemoteEmulator(running.url);
      await remote.addShop({ domain: TEST_SHOP, adminAccessToken: ADMIN_TOKEN, plan: "pro" });
      await remote.setAppPricing({ meters: [{ handle: METER, unitPriceCents: { pro: 150 } }] });
      const issued = await fetch(
        remote.platformUrl(TOKEN_URL),
        json({ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, grant_type: "client_credentials" }),
      );
      const { access_token } = (await issued.json()) as { access_token: string };
      const sent = await fetch(
        remote.platformUrl(EVENTS_URL),
        json({ ...event(), timestamp: new Date().toISOString() }, { Authorization: `Bearer ${access_token}` }),
      );
      expect(sent.status).toBe(202);
      expect((await remote.billingCharges(TEST_SHOP)).chargedCents).toBe(150);
      expect(await remote.appEvents(TEST_SHOP)).toEqual([expect.objectContaining({ kind: "billing" })]);
    } finally {
      await running.close();
    }
  });
});
