import { periodicSweep } from "~/lib/periodic-sweep.server";
import { savedByFlushesEnded, startSavedBySweep } from "./saved-by-flush.server";

/**
 * The timer that flushes the saved-by counts. Every instance sweeps; the shop's lock makes each
 * flush run once, and the marks live in the database, so a restart loses none. A sweep only
 * starts its flushes, so a shop whose flush runs long delays no other shop's next one; stopping
 * waits for every flush still running.
 */

/** With SAVED_BY_MAX_DELAY_MS, sets how stale a count may be once saves stop (decision 0010). */
export const SAVED_BY_SWEEP_INTERVAL_MS = 30_000;

const sweeps = periodicSweep("saved-by", SAVED_BY_SWEEP_INTERVAL_MS, startSavedBySweep);

export const startSavedBySweeps = sweeps.start;

export async function stopSavedBySweeps(): Promise<void> {
  await sweeps.stop();
  await savedByFlushesEnded();
}
