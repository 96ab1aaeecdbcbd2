import type { JobDefinition } from "~/infrastructure/jobs/job-runner.server";
import { runDueRedactions } from "./pending-redactions.server";

/**
 * The job that runs pending customer redactions' later passes, on the app's job runner (decision
 * 0028): one instance at a time runs it, every SWEEP_INTERVAL_MS and at start-up if due, and the
 * records' claims make each pass run once, whoever else (a webhook, an admin page) runs passes.
 */

const SWEEP_INTERVAL_MS = 15_000;
/** Passes one run takes at most; a full batch leaves the job due at once, so a backlog keeps going. */
const PASSES_PER_SWEEP = 20;

export const redactionJob: JobDefinition = {
  name: "compliance-redactions",
  intervalMs: SWEEP_INTERVAL_MS,
  run: async () => ({ again: (await runDueRedactions(PASSES_PER_SWEEP)) === PASSES_PER_SWEEP }),
};
