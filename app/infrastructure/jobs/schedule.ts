/**
 * The job runner's decisions (docs/decisions/0028-background-jobs-on-one-runner.md), pure: when a
 * job may be claimed, when it is next due after a run, and how late it is. Times are the app's
 * clock (app/lib/clock.ts), so tests move them.
 */

/** How long a claim holds a job; the running instance renews it, so only a dead one's runs out. */
export const JOB_LEASE_MS = 60_000;
/** The first retry's delay after a failed run; each further failure doubles it. */
export const BACKOFF_BASE_MS = 5_000;
/** The longest a failing job waits between tries. */
export const BACKOFF_MAX_MS = 5 * 60_000;

/** A job's row as the runner decides on it. */
export interface JobState {
  runAfter: Date;
  leaseUntil: Date | null;
  failures: number;
}

/** What a run came to: `again` when the job left work due at once (a full batch). */
export type RunOutcome = { ok: true; again: boolean } | { ok: false };

const leased = (state: JobState, now: Date) => state.leaseUntil !== null && state.leaseUntil > now;

/** Due, and held by no live run: a claim may take it (the claim's conditional write repeats this). */
export const isClaimable = (state: JobState, now: Date): boolean => state.runAfter <= now && !leased(state, now);

/** The wait before the next try after `failures` failed runs in a row: doubling, capped. */
export function retryDelayMs(failures: number): number {
  return Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, failures - 1));
}

/** When the job is next due, and its failures in a row, after a run ended at `now`. */
export function afterRun(
  outcome: RunOutcome,
  state: Pick<JobState, "failures">,
  now: Date,
  intervalMs: number,
): { runAfter: Date; failures: number } {
  if (!outcome.ok) {
    const failures = state.failures + 1;
    return { runAfter: new Date(now.getTime() + retryDelayMs(failures)), failures };
  }
  return { runAfter: new Date(now.getTime() + (outcome.again ? 0 : intervalMs)), failures: 0 };
}

/** How long a job has waited past its time with no run holding it (0 when not due or running). */
export function overdueSeconds(state: JobState, now: Date): number {
  if (leased(state, now)) return 0;
  return Math.max(0, now.getTime() - state.runAfter.getTime()) / 1000;
}
