import { runSavedBySweep } from "./saved-by-flush.server";

/**
 * The timer that flushes the saved-by counts. Every instance sweeps; the shop's lock makes each
 * flush run once, and the marks live in the database, so a restart loses none.
 */

/** With SAVED_BY_MAX_DELAY_MS, sets how stale a count may be once saves stop (decision 0010). */
export const SAVED_BY_SWEEP_INTERVAL_MS = 30_000;

let timer: NodeJS.Timeout | undefined;
let sweeping: Promise<void> | undefined;

function sweep(): void {
  sweeping ??= runSavedBySweep()
    .catch((error: unknown) => console.error("[saved-by] sweeping the saved-by counts failed", error))
    .finally(() => (sweeping = undefined));
}

export function startSavedBySweeps(): void {
  if (timer) return;
  sweep();
  timer = setInterval(sweep, SAVED_BY_SWEEP_INTERVAL_MS);
  timer.unref();
}

/** Stops the timer and waits for a sweep in progress, so its writes end before connections close. */
export async function stopSavedBySweeps(): Promise<void> {
  clearInterval(timer);
  timer = undefined;
  await sweeping;
}
