import type { JobDefinition } from "~/infrastructure/jobs/job-runner.server";
import { startSavedBySweep, stopSavedByFlushes } from "./saved-by-flush.server";
import { runSavedByRecounts } from "./saved-by-recount.server";

/**
 * The jobs of the saved-by counts, on the app's job runner (decision 0028): the flush and the
 * daily recount. The shop's lock makes each flush run once and the recount's claims each of its
 * steps, and both keep their state in the database, so a restart loses none. A flush run only
 * starts its flushes, so a shop whose flush runs long delays no other shop's next one; stopping
 * stops every flush still running before its next platform request and waits for them.
 */

/** With SAVED_BY_MAX_DELAY_MS, sets how stale a count may be once saves stop (decision 0010). */
export const SAVED_BY_SWEEP_INTERVAL_MS = 30_000;
/**
 * How often a shop's recount is looked at: how late after its day a recount starts, and how
 * often a running one's bulk query is polled.
 */
export const SAVED_BY_RECOUNT_SWEEP_INTERVAL_MS = 10 * 60 * 1000;

export const savedByFlushJob: JobDefinition = {
  name: "saved-by-flush",
  intervalMs: SAVED_BY_SWEEP_INTERVAL_MS,
  run: startSavedBySweep,
  stop: stopSavedByFlushes,
};

export const savedByRecountJob: JobDefinition = {
  name: "saved-by-recount",
  intervalMs: SAVED_BY_RECOUNT_SWEEP_INTERVAL_MS,
  run: runSavedByRecounts,
};
