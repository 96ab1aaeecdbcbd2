// A shop on SHOP_CUSTOM_DOMAIN (the platform's own test environments): its offline token is renewed
// by a second instance of the platform library (app/platform/shopify-api.server.ts), which has to
// accept the same shop domains as the Remix package's instance that installed the shop.
import { describe, expect, test, vi } from "vitest";
import db from "~/db.server";
import { clearProcessCaches } from "~/lib/process-caches.server";
import { requireOfflineSession } from "~/platform/offline-sessions.server";
import { platformApi } from "~/platform/shopify-api.server";
import { givenShop } from "../support/app";
import { emulator } from "../support/platform";

// Before the app's modules load: the configuration is read once.
const CUSTOM_DOMAIN = vi.hoisted(() => (process.env.SHOP_CUSTOM_DOMAIN = "platform-test.example"));
const SHOP = `demo.${CUSTOM_DOMAIN}`;

describe("a shop on SHOP_CUSTOM_DOMAIN", () => {
  test("the token refresh client accepts its domain and leaves it as it is", () => {
    expect(platformApi.utils.sanitizeShop(SHOP, true)).toBe(SHOP);
    expect(platformApi.utils.sanitizeShop(`demo.not-${CUSTOM_DOMAIN}`)).toBeNull();
  });

  test("its expired offline token is refreshed against the platform", async () => {
    await givenShop({ domain: SHOP, plan: "pro" });
    await db.session.update({ where: { id: `offline_${SHOP}` }, data: { expires: new Date(Date.now() - 60_000) } });
    clearProcessCaches();
    const renewed = await requireOfflineSession(SHOP);
    expect(emulator.usage(SHOP).refreshes).toBe(1);
    expect(renewed.shop).toBe(SHOP);
    expect(renewed.expires!.getTime()).toBeGreaterThan(Date.now() + 50 * 60_000);
  });
});
