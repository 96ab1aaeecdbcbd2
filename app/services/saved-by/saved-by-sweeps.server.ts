import { periodicSweep } from "~/lib/periodic-sweep.server";
import { startSavedBySweep, stopSavedByFlushes } from "./saved-by-flush.server";
import { runSavedByRecounts } from "./saved-by-recount.server";

/**
 * The timers of the saved-by counts: the flush and the daily recount. Every instance sweeps; the
 * shop's lock makes each flush run once and the recount's claims each of its steps, and both keep
 * their state in the database, so a restart loses none. A flush sweep only starts its flushes, so
 * a shop whose flush runs long delays no other shop's next one; stopping stops every flush still
 * running before its next platform request and waits for them.
 */

/** With SAVED_BY_MAX_DELAY_MS, sets how stale a count may be once saves stop (decision 0010). */
export const SAVED_BY_SWEEP_INTERVAL_MS = 30_000;
/**
 * How often a shop's recount is looked at: how late after its day a recount starts, and how
 * often a running one's bulk query is polled.
 */
export const SAVED_BY_RECOUNT_SWEEP_INTERVAL_MS = 10 * 60 * 1000;

const sweeps = [
  periodicSweep("saved-by", SAVED_BY_SWEEP_INTERVAL_MS, startSavedBySweep),
  periodicSweep("saved-by-recount", SAVED_BY_RECOUNT_SWEEP_INTERVAL_MS, runSavedByRecounts),
];

export const startSavedBySweeps = (): void => sweeps.forEach((sweep) => sweep.start());

export async function stopSavedBySweeps(): Promise<void> {
  await Promise.all(sweeps.map((sweep) => sweep.stop()));
  await stopSavedByFlushes();
}
