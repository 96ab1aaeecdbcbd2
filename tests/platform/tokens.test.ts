import { ACCESS_SCOPES } from "~/platform/access-scopes";
import "@shopify/shopify-api/adapters/node";
import { ApiVersion, HttpResponseError, LogSeverity, RequestedTokenType, shopifyApi } from "@shopify/shopify-api";
import { SignJWT } from "jose";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createPlatformEmulator } from "@saved-items/platform-emulator";
import { adminUrl, postAdmin, TEST_SHOP } from "@saved-items/platform-emulator/testing";

const CLIENT_ID = "emulator-test-key";
const CLIENT_SECRET = "emulator-test-secret";
const SCOPE = ACCESS_SCOPES;
const HOUR_MS = 3600 * 1000;
const DAY_MS = 24 * HOUR_MS;

// The platform library and the session tokens read Date, held at START_MS; the emulator runs on its
// own clock, moved ahead to expire what it issued. Every expiry is then exact.
const START_MS = Date.parse("2026-11-02T09:00:00.000Z");
let offsetMs = 0;
const clock = () => START_MS + offsetMs;
const emulator = createPlatformEmulator({
  clientId: CLIENT_ID,
  clientSecret: CLIENT_SECRET,
  now: () => new Date(clock()),
});
const server = setupServer(...emulator.handlers);
beforeAll(() => {
  vi.useFakeTimers({ toFake: ["Date"], now: START_MS });
  server.listen({ onUnhandledRequest: "error" });
});
afterAll(() => {
  server.close();
  vi.useRealTimers();
});
beforeEach(() => {
  offsetMs = 0;
  emulator.reset();
});

// The app's own library, so the emulator is checked against exactly what it sends and reads.
const api = shopifyApi({
  apiKey: CLIENT_ID,
  apiSecretKey: CLIENT_SECRET,
  apiVersion: ApiVersion.October26,
  hostName: "saved-items.test",
  isEmbeddedApp: true,
  logger: { level: LogSeverity.Error },
});

const shopQuery = (token: string, shop = TEST_SHOP) => postAdmin(adminUrl(shop), token, `{ shop { id } }`);

async function sessionToken(shop: string, secret = CLIENT_SECRET): Promise<string> {
  return new SignJWT({ dest: `https://${shop}`, sid: "session-1" })
    .setProtectedHeader({ alg: "HS256" })
    .setIssuer(`https://${shop}/admin`)
    .setAudience(CLIENT_ID)
    .setSubject("1")
    .setIssuedAt()
    .setNotBefore("0s")
    .setExpirationTime("1m")
    .setJti(crypto.randomUUID())
    .sign(new TextEncoder().encode(secret));
}

async function refreshError(refreshToken: string): Promise<{ code: number; body: unknown }> {
  const error = await api.auth.refreshToken({ shop: TEST_SHOP, refreshToken }).catch((thrown: unknown) => thrown);
  if (!(error instanceof HttpResponseError)) throw new Error(`expected an HttpResponseError, got ${String(error)}`);
  return { code: error.response.code, body: error.response.body };
}

describe("seeded credentials", () => {
  it("are an expiring access token with a refresh token, by default for an hour", async () => {
    const seeded = emulator.addShop({ domain: TEST_SHOP, adminAccessToken: "shpat_seeded" });
    expect(seeded).toEqual({
      domain: TEST_SHOP,
      adminCredentials: {
        accessToken: "shpat_seeded",
        expiresAt: expect.any(String),
        refreshToken: expect.stringMatching(/^shprt_/),
        refreshTokenExpiresAt: expect.any(String),
        scope: SCOPE,
      },
    });
    expect(Date.parse(seeded.adminCredentials!.expiresAt!)).toBe(START_MS + HOUR_MS);
    expect(emulator.adminCredentials(TEST_SHOP)).toEqual(seeded.adminCredentials);

    expect((await shopQuery("shpat_seeded")).status).toBe(200);
    offsetMs = HOUR_MS;
    const expired = await shopQuery("shpat_seeded");
    expect(expired).toEqual({
      status: 401,
      body: { errors: "[API] Invalid API key or access token (unrecognized login or wrong password)" },
    });
  });

  it("take their lifetime from the shop, then from the emulator", async () => {
    const custom = createPlatformEmulator({ adminTokenLifetimeSeconds: 120, now: () => new Date(START_MS) });
    const lifetimeSeconds = (seed: Parameters<typeof custom.addShop>[0]) =>
      (Date.parse(custom.addShop(seed).adminCredentials!.expiresAt!) - START_MS) / 1000;
    expect(lifetimeSeconds({ domain: "a.myshopify.com" })).toBe(120);
    expect(lifetimeSeconds({ domain: "b.myshopify.com", adminTokenLifetimeSeconds: 60 })).toBe(60);
  });

  it("can be a legacy non-expiring token, or none when the app is not installed", async () => {
    expect(
      emulator.addShop({ domain: TEST_SHOP, adminAccessToken: "shpat_legacy", expiringAdminToken: false }),
    ).toEqual({
      domain: TEST_SHOP,
      adminCredentials: {
        accessToken: "shpat_legacy",
        expiresAt: null,
        refreshToken: null,
        refreshTokenExpiresAt: null,
        scope: SCOPE,
      },
    });
    offsetMs = 1000 * HOUR_MS;
    expect((await shopQuery("shpat_legacy")).status).toBe(200);

    const uninstalled = emulator.addShop({ domain: "gone.myshopify.com", installed: false });
    expect(uninstalled.adminCredentials).toBeNull();
    expect((await shopQuery("anything", "gone.myshopify.com")).status).toBe(401);
  });
});

describe("refresh", () => {
  it("rotates both tokens, and counts the refresh", async () => {
    const seeded = emulator.addShop({ domain: TEST_SHOP }).adminCredentials!;
    offsetMs = HOUR_MS - 60_000;

    const { session } = await api.auth.refreshToken({ shop: TEST_SHOP, refreshToken: seeded.refreshToken! });
    expect(session).toMatchObject({ id: `offline_${TEST_SHOP}`, shop: TEST_SHOP, isOnline: false, scope: SCOPE });
    expect(session.accessToken).not.toBe(seeded.accessToken);
    expect(session.refreshToken).toMatch(/^shprt_/);
    expect(session.refreshToken).not.toBe(seeded.refreshToken);
    expect(emulator.adminCredentials(TEST_SHOP)).toEqual({
      accessToken: session.accessToken,
      refreshToken: session.refreshToken,
      expiresAt: new Date(clock() + HOUR_MS).toISOString(),
      refreshTokenExpiresAt: new Date(clock() + 90 * DAY_MS).toISOString(),
      scope: SCOPE,
    });
    // The library dates the lifetimes it is handed from its own clock.
    expect(session.expires!.getTime()).toBe(START_MS + HOUR_MS);
    expect(session.refreshTokenExpires!.getTime()).toBe(START_MS + 90 * DAY_MS);
    expect(emulator.usage(TEST_SHOP)).toMatchObject({ refreshes: 1, tokenExchanges: 0 });

    expect((await shopQuery(session.accessToken!)).status).toBe(200);
    // The token it replaced still runs out on its own clock.
    expect((await shopQuery(seeded.accessToken)).status).toBe(200);
    offsetMs = HOUR_MS;
    expect((await shopQuery(seeded.accessToken)).status).toBe(401);
    expect((await shopQuery(session.accessToken!)).status).toBe(200);
  });

  it("spends a refresh token at once: reusing it, or an unknown one, is a 400", async () => {
    const seeded = emulator.addShop({ domain: TEST_SHOP, refreshToken: "shprt_first" }).adminCredentials!;
    expect(seeded.refreshToken).toBe("shprt_first");
    await api.auth.refreshToken({ shop: TEST_SHOP, refreshToken: "shprt_first" });
    const invalidGrant = {
      code: 400,
      body: { error: "invalid_grant", error_description: expect.any(String) },
    };
    expect(await refreshError("shprt_first")).toEqual(invalidGrant);
    expect(await refreshError("shprt_unknown")).toEqual(invalidGrant);
    expect(emulator.usage(TEST_SHOP).refreshes).toBe(1);
  });

  it("keeps working after the access token expired or was expired early, not after a revocation", async () => {
    const seeded = emulator.addShop({ domain: TEST_SHOP }).adminCredentials!;
    emulator.expireAdminToken(TEST_SHOP);
    expect((await shopQuery(seeded.accessToken)).status).toBe(401);
    const { session } = await api.auth.refreshToken({ shop: TEST_SHOP, refreshToken: seeded.refreshToken! });
    expect((await shopQuery(session.accessToken!)).status).toBe(200);

    emulator.revokeAdminToken(TEST_SHOP);
    expect(emulator.adminCredentials(TEST_SHOP)).toBeUndefined();
    expect((await shopQuery(session.accessToken!)).status).toBe(401);
    expect((await refreshError(session.refreshToken!)).code).toBe(400);
  });

  it("refuses a refresh token past its 90 days", async () => {
    const seeded = emulator.addShop({ domain: TEST_SHOP }).adminCredentials!;
    offsetMs = 90 * 24 * HOUR_MS;
    expect((await refreshError(seeded.refreshToken!)).code).toBe(400);
  });

  it("refuses wrong client credentials, and everything when it has none", async () => {
    const seeded = emulator.addShop({ domain: TEST_SHOP }).adminCredentials!;
    const other = shopifyApi({ ...api.config, apiSecretKey: "wrong-secret" });
    const error = await other.auth
      .refreshToken({ shop: TEST_SHOP, refreshToken: seeded.refreshToken! })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(HttpResponseError);
    expect((error as HttpResponseError).response).toMatchObject({ code: 401, body: { error: "invalid_client" } });

    const unconfigured = createPlatformEmulator();
    unconfigured.addShop({ domain: TEST_SHOP });
    const response = await unconfigured.handle(
      new Request(`https://${TEST_SHOP}/admin/oauth/access_token`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ client_id: "x", client_secret: "y", grant_type: "refresh_token", refresh_token: "z" }),
      }),
    );
    expect(response?.status).toBe(401);
  });
});

describe("token exchange", () => {
  it("trades a session token for an expiring offline token", async () => {
    emulator.addShop({ domain: TEST_SHOP, installed: false });
    const { session } = await api.auth.tokenExchange({
      shop: TEST_SHOP,
      sessionToken: await sessionToken(TEST_SHOP),
      requestedTokenType: RequestedTokenType.OfflineAccessToken,
      expiring: true,
    });
    expect(session).toMatchObject({ isOnline: false, scope: SCOPE, refreshToken: expect.stringMatching(/^shprt_/) });
    expect(emulator.adminCredentials(TEST_SHOP)?.expiresAt).toBe(new Date(clock() + HOUR_MS).toISOString());
    expect((await shopQuery(session.accessToken!)).status).toBe(200);
    expect(emulator.usage(TEST_SHOP)).toMatchObject({ tokenExchanges: 1, refreshes: 0 });
    expect(emulator.countRequests({ api: "admin-oauth", shop: TEST_SHOP })).toBe(1);
  });

  it("hands out the installation's one non-expiring token when not asked for an expiring one", async () => {
    emulator.addShop({ domain: TEST_SHOP, installed: false });
    const exchange = async () =>
      (
        await api.auth.tokenExchange({
          shop: TEST_SHOP,
          sessionToken: await sessionToken(TEST_SHOP),
          requestedTokenType: RequestedTokenType.OfflineAccessToken,
        })
      ).session;
    const first = await exchange();
    expect(first.expires).toBeUndefined();
    expect(first.refreshToken).toBeUndefined();
    expect((await exchange()).accessToken).toBe(first.accessToken);
  });

  it("refuses a session token for another shop or signed with another secret", async () => {
    emulator.addShop({ domain: TEST_SHOP });
    const error = await api.auth
      .tokenExchange({
        shop: TEST_SHOP,
        sessionToken: await sessionToken("elsewhere.myshopify.com"),
        requestedTokenType: RequestedTokenType.OfflineAccessToken,
        expiring: true,
      })
      .catch((thrown: unknown) => thrown);
    expect((error as HttpResponseError).response).toMatchObject({
      code: 400,
      body: { error: "invalid_subject_token" },
    });

    // The library checks the signature itself before it asks, so this one goes over plain fetch.
    const forged = await fetch(`https://${TEST_SHOP}/admin/oauth/access_token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
        subject_token: await sessionToken(TEST_SHOP, "another-secret"),
        subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
        requested_token_type: "urn:shopify:params:oauth:token-type:offline-access-token",
        expiring: "1",
      }),
    });
    expect(forged.status).toBe(400);
    expect(await forged.json()).toMatchObject({ error: "invalid_subject_token" });
    expect(emulator.usage(TEST_SHOP).tokenExchanges).toBe(0);
  });

  it("migrates a non-expiring token to an expiring one and retires it", async () => {
    emulator.addShop({ domain: TEST_SHOP, adminAccessToken: "shpat_legacy", expiringAdminToken: false });
    const { session } = await api.auth.migrateToExpiringToken({
      shop: TEST_SHOP,
      nonExpiringOfflineAccessToken: "shpat_legacy",
    });
    expect(session.refreshToken).toMatch(/^shprt_/);
    expect((await shopQuery(session.accessToken!)).status).toBe(200);
    expect((await shopQuery("shpat_legacy")).status).toBe(401);
    const again = await api.auth
      .migrateToExpiringToken({ shop: TEST_SHOP, nonExpiringOfflineAccessToken: "shpat_legacy" })
      .catch((thrown: unknown) => thrown);
    expect((again as HttpResponseError).response.code).toBe(400);
  });
});
