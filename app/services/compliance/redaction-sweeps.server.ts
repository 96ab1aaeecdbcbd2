import { periodicSweep } from "~/lib/periodic-sweep.server";
import { runDueRedactions } from "./pending-redactions.server";

/**
 * The timer that runs pending customer redactions' later passes. There is no cron: every instance
 * sweeps, at start-up and then on an interval, and the records' claims make each pass run once.
 */

const SWEEP_INTERVAL_MS = 15_000;
/** Passes one sweep runs at most, so a backlog spreads over sweeps and instances. */
const PASSES_PER_SWEEP = 20;

const sweeps = periodicSweep("compliance", SWEEP_INTERVAL_MS, () => runDueRedactions(PASSES_PER_SWEEP));

/** Starts sweeping now (what a restart left pending runs at once) and every SWEEP_INTERVAL_MS. */
export const startRedactionSweeps = sweeps.start;
export const stopRedactionSweeps = sweeps.stop;
