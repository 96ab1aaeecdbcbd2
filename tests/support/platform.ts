import { setTimeout as sleep } from "node:timers/promises";
import { Session } from "@shopify/shopify-api";
import { setupServer } from "msw/node";
import { onTestFinished } from "vitest";
import { createPlatformEmulator, type AdminCredentials } from "@saved-items/platform-emulator";
import { heldSleeps } from "@saved-items/platform-emulator/testing";
import { OVERAGE_METER } from "~/services/plans";
import { TEST_ENV } from "./test-env";

let platformAheadMs = 0;

/** The emulated platform's time: real time, moved ahead by advancePlatformClock. */
export const platformNow = (): Date => new Date(Date.now() + platformAheadMs);

/**
 * Moves the emulated platform's clock ahead (its search lag, token lifetimes), so a test waits
 * for the search without sleeping; tests/support/time.ts moves the app's clock with it.
 */
export function advancePlatformClock(ms: number): void {
  platformAheadMs += ms;
}

/** Back to real time, before every test (tests/setup/per-file.ts). */
export function resetPlatformClock(): void {
  platformAheadMs = 0;
}

let held: ReturnType<typeof heldSleeps> | undefined;

/**
 * The emulator's waits (latency, delay faults) held until the test wakes them (`wakeAll`), for the
 * rest of the test: what a test orders by a delay happens in that order however slow the machine.
 */
export function holdPlatformSleeps(): ReturnType<typeof heldSleeps> {
  const sleeps = (held = heldSleeps());
  onTestFinished(() => {
    held = undefined;
    sleeps.wakeAll();
  });
  return sleeps;
}

/** One emulator per test file; tests reach it to seed shops, inject faults and count requests. */
export const emulator = createPlatformEmulator({
  clientId: TEST_ENV.SHOPIFY_API_KEY,
  clientSecret: TEST_ENV.SHOPIFY_API_SECRET,
  now: platformNow,
  sleep: (ms) => (held ? held.sleep(ms) : sleep(ms)),
  // The app's Shopify App Pricing configuration, as its Partner Dashboard holds it.
  appPricing: { meters: [OVERAGE_METER] },
});

/** The offline session the library stores for credentials the platform issued. */
export function offlineSessionFor(shop: string, credentials: AdminCredentials): Session {
  return new Session({
    id: `offline_${shop}`,
    shop,
    state: "",
    isOnline: false,
    accessToken: credentials.accessToken,
    scope: credentials.scope,
    ...(credentials.expiresAt ? { expires: new Date(credentials.expiresAt) } : {}),
    ...(credentials.refreshToken ? { refreshToken: credentials.refreshToken } : {}),
    ...(credentials.refreshTokenExpiresAt ? { refreshTokenExpires: new Date(credentials.refreshTokenExpiresAt) } : {}),
  });
}
export const platformServer = setupServer(...emulator.handlers);
platformServer.listen({
  // Loopback is where black-box tests reach a sandbox they started; everything else must be emulated.
  onUnhandledRequest(request, print) {
    if (!["localhost", "127.0.0.1"].includes(new URL(request.url).hostname)) print.error();
  },
});

/** What Liquid would read: the product's saved_by metafield, or undefined when the app wrote none. */
export function savedByMetafield(shop: string, product: string): number | undefined {
  const metafield = emulator.metafields(shop, product).find((candidate) => candidate.key === "saved_by");
  return metafield === undefined ? undefined : Number(metafield.value);
}
