// Expiring offline tokens, end to end against the emulated platform: tokens that expire, refresh
// tokens that work once (rotation), 401 for an expired token.
import { describe, expect, test } from "vitest";
import db from "~/db.server";
import { clearProcessCaches } from "~/lib/process-caches.server";
import { callProxy, givenShop } from "../support/app";
import { aSaveRequest, identityQuery } from "../support/fixtures";
import { sessionStorage } from "~/shopify.server";
import { emulator, offlineSessionFor } from "../support/platform";

const storedSession = (shop: string) => db.session.findUniqueOrThrow({ where: { id: `offline_${shop}` } });

describe("expiring offline tokens", () => {
  test("a token the platform says has expired is refreshed, and the operation succeeds", async () => {
    const shop = await givenShop({ plan: "pro" });
    const before = await storedSession(shop);
    emulator.expireAdminToken(shop);
    expect((await callProxy("/proxy/api/save", { body: aSaveRequest() })).status).toBe(200);
    expect(emulator.usage(shop).refreshes).toBe(1);
    const after = await storedSession(shop);
    expect(after.accessToken).not.toBe(before.accessToken);
    expect(after.refreshToken).not.toBe(before.refreshToken);
    expect(after.expires!.getTime()).toBeGreaterThan(Date.now() + 50 * 60_000);
  });

  test("a token about to expire is renewed before it is used, once for concurrent requests", async () => {
    const shop = await givenShop({ plan: "pro" });
    // Stored as expiring in 2 minutes: inside the renewal margin.
    await db.session.update({ where: { id: `offline_${shop}` }, data: { expires: new Date(Date.now() + 2 * 60_000) } });
    clearProcessCaches();
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        callProxy("/proxy/api/is-saved", { customerId: String(100 + index), query: identityQuery() }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(200));
    // A second refresh would have used the rotated (spent) refresh token and locked the shop out.
    expect(emulator.usage(shop).refreshes).toBe(1);
    expect((await callProxy("/proxy/api/is-saved", { customerId: "200", query: identityQuery() })).status).toBe(200);
    expect(emulator.usage(shop).refreshes).toBe(1);
  });

  test("concurrent requests that all meet a refused token refresh it once", async () => {
    const shop = await givenShop({ plan: "pro" });
    emulator.expireAdminToken(shop);
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, index) =>
        callProxy("/proxy/api/is-saved", { customerId: String(300 + index), query: identityQuery() }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(5).fill(200));
    expect(emulator.usage(shop).refreshes).toBe(1);
  });

  test("a refresh the platform refuses reads as SHOP_NOT_INSTALLED, not a 500", async () => {
    const shop = await givenShop({ plan: "pro" });
    emulator.revokeAdminToken(shop);
    const answer = await callProxy("/proxy/api/save", { body: aSaveRequest() });
    expect(answer.status).toBe(403);
    expect(answer.body.error).toMatchObject({ code: "SHOP_NOT_INSTALLED", retryable: false });
  });

  test("a non-expiring token from before the switch is migrated to an expiring one on first use", async () => {
    const shop = "legacy.myshopify.com";
    const { adminCredentials } = emulator.addShop({ domain: shop, plan: "pro", expiringAdminToken: false });
    expect(adminCredentials!.expiresAt).toBeNull();
    await db.shop.create({ data: { domain: shop, plan: "pro" } });
    await sessionStorage.storeSession(offlineSessionFor(shop, adminCredentials!));
    expect((await callProxy("/proxy/api/is-saved", { shop, query: identityQuery() })).status).toBe(200);
    const migrated = await storedSession(shop);
    expect(migrated.accessToken).not.toBe(adminCredentials!.accessToken);
    expect(migrated.refreshToken).toEqual(expect.any(String));
    expect(migrated.expires!.getTime()).toBeGreaterThan(Date.now());
  });
});
