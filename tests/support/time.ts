import { onTestFinished, vi } from "vitest";
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

/**
 * Moves both clocks on by a minute, the time a customer's share of the shop's platform points
 * takes to refill from empty (docs/rate-limits.md, "Platform points"): for tests of one customer's
 * long run of writes (storage bounds, big lists) whose subject is not that share.
 */
export function refillCustomerPoints(): void {
  advanceTime(60_000);
}

/** Makes the app's clock read the emulated platform's time. */
export function followPlatformClock(appClock: typeof clock = clock): void {
  if (!vi.isMockFunction(appClock.now)) vi.spyOn(appClock, "now").mockImplementation(platformNow);
}

/**
 * The test's own hand on AbortSignal.timeout (what bounds every platform call) until it ends: the
 * signals abort, as a timeout would, only when `fire` is called.
 */
export function controlTimeouts() {
  const timeouts: { ms: number; controller: AbortController }[] = [];
  const spy = vi.spyOn(AbortSignal, "timeout").mockImplementation((ms) => {
    const controller = new AbortController();
    timeouts.push({ ms, controller });
    return controller.signal;
  });
  onTestFinished(() => spy.mockRestore());
  return {
    /** The bounds asked for so far, in milliseconds. */
    asked: () => timeouts.map((timeout) => timeout.ms),
    fire: () => {
      for (const { controller } of timeouts) controller.abort(new DOMException("timed out", "TimeoutError"));
    },
  };
}

/**
 * Holds the app's clock still until the test moves it (`advance`), for the rest of the test: what
 * the app judges by it (a token bucket's refill) then does not depend on how long the test's calls
 * take, seconds on a loaded machine.
 */
export function holdClock(appClock: typeof clock = clock): { advance(ms: number): void } {
  let nowMs = Date.now();
  const spy = vi.spyOn(appClock, "now").mockImplementation(() => new Date(nowMs));
  onTestFinished(() => spy.mockRestore());
  return { advance: (ms) => void (nowMs += ms) };
}
