import { periodicSweep } from "~/lib/periodic-sweep.server";
import { runSavedBySweep } from "./saved-by-flush.server";

/**
 * The timer that flushes the saved-by counts. Every instance sweeps; the shop's lock makes each
 * flush run once, and the marks live in the database, so a restart loses none.
 */

/** With SAVED_BY_MAX_DELAY_MS, sets how stale a count may be once saves stop (decision 0010). */
export const SAVED_BY_SWEEP_INTERVAL_MS = 30_000;

const sweeps = periodicSweep("saved-by", SAVED_BY_SWEEP_INTERVAL_MS, runSavedBySweep);

export const startSavedBySweeps = sweeps.start;
export const stopSavedBySweeps = sweeps.stop;
