import { vi } from "vitest";
import { clock } from "~/lib/clock";
import { advancePlatformClock, platformNow } from "./platform";

/**
 * Moves the app's clock (app/lib/clock.ts) and the emulated platform's ahead together, so what
 * waits on time (the platform's search lag, a pending redaction's next pass) is reached without
 * sleeping. The app's clock is a spy, undone by vi.restoreAllMocks; the platform's goes back
 * before the next test. `appClock` is another module instance's clock (after vi.resetModules).
 */
export function advanceTime(ms: number, appClock: typeof clock = clock): void {
  advancePlatformClock(ms);
  followPlatformClock(appClock);
}

/** Makes the app's clock read the emulated platform's time. */
export function followPlatformClock(appClock: typeof clock = clock): void {
  if (!vi.isMockFunction(appClock.now)) vi.spyOn(appClock, "now").mockImplementation(platformNow);
}
