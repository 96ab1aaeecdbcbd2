import { runDueRedactions } from "./pending-redactions.server";

/**
 * The timer that runs pending customer redactions' later passes. There is no cron: every instance
 * sweeps, at start-up and then on an interval, and the records' claims make each pass run once.
 */

const SWEEP_INTERVAL_MS = 15_000;
/** Passes one sweep runs at most, so a backlog spreads over sweeps and instances. */
const PASSES_PER_SWEEP = 20;

let timer: NodeJS.Timeout | undefined;
let sweeping: Promise<void> | undefined;

function sweep(): void {
  // A sweep still running (a slow platform) is not overtaken by the next.
  sweeping ??= runDueRedactions(PASSES_PER_SWEEP)
    .then(() => undefined)
    .catch((error: unknown) => console.error("[compliance] sweeping pending customer redactions failed", error))
    .finally(() => (sweeping = undefined));
}

/** Starts sweeping now (what a restart left pending runs at once) and every SWEEP_INTERVAL_MS. */
export function startRedactionSweeps(): void {
  if (timer) return;
  sweep();
  timer = setInterval(sweep, SWEEP_INTERVAL_MS);
  timer.unref();
}

/** Stops the timer and waits for a sweep in progress, so its passes end before connections close. */
export async function stopRedactionSweeps(): Promise<void> {
  clearInterval(timer);
  timer = undefined;
  await sweeping;
}
