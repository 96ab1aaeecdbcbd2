import { randomUUID } from "node:crypto";
import type { PrismaClient } from "@prisma/client";
import { clock } from "~/lib/clock";
import { errorFields, writeLog } from "~/lib/json-log";
import { countJobRun, showJobState } from "./job-metrics.server";
import { afterRun, isClaimable, JOB_LEASE_MS, type JobState, type RunOutcome } from "./schedule";

/**
 * The background jobs' runner (docs/decisions/0028-background-jobs-on-one-runner.md). Every
 * instance runs one and polls the BackgroundJob table: a job that is due and held by no live run
 * is claimed by one conditional write (so one instance at a time runs it), run, and given its next
 * time: its interval after a success, a growing backoff after a failure. The claim is a lease the
 * run renews; an instance that dies leaves it to run out, and another takes the job over. What is
 * due and failing is on /metrics (job-metrics.server.ts) and failures are in the log.
 */

/** Where the runner keeps the jobs' rows: the app's database, handed over by whoever starts the runner. */
export type JobDatabase = Pick<PrismaClient, "backgroundJob">;

export interface JobDefinition {
  /** The job's row; a short identifier (also the metrics' label). */
  name: string;
  /** From the end of a successful run to the next. */
  intervalMs: number | (() => number);
  /**
   * One run. `signal` aborts when the job is stopped (a shutdown): long work stops before its next
   * platform request. `{ again: true }` says it left work due now (a full batch): no interval then.
   */
  run(signal: AbortSignal): Promise<{ again?: boolean } | void>;
  /** At stop, once its runs here have ended: ends work the runs started and left going. */
  stop?(): Promise<void>;
}

/** How often a runner looks for due jobs: the longest a job waits past its time on a live fleet. */
const POLL_MS = 5_000;
/** How much of a failure's message the row keeps for operators (the log has the whole error). */
const KEPT_ERROR_CHARS = 500;

interface ActiveJob {
  job: JobDefinition;
  controller: AbortController;
}

type JobRow = JobState & { name: string; lastSucceededAt: Date | null };

const intervalOf = (job: JobDefinition) => (typeof job.intervalMs === "number" ? job.intervalMs : job.intervalMs());
const later = (ms: number) => new Date(clock.now().getTime() + ms);

export function createJobRunner(prisma: JobDatabase) {
  const active = new Map<string, ActiveJob>();
  /** Jobs whose run is in this process (a later poll does not claim them again here). */
  const running = new Set<string>();
  /** Per job, the polls begun and not ended: stopping waits for them. */
  const inFlight = new Map<string, Set<Promise<void>>>();
  let timer: NodeJS.Timeout | undefined;

  async function readStates(names: string[]): Promise<Map<string, JobRow>> {
    const read = () => prisma.backgroundJob.findMany({ where: { name: { in: names } } });
    let rows = await read();
    // A job new to the table gets its row, due now; a poll of known jobs writes nothing.
    const missing = names.filter((name) => !rows.some((row) => row.name === name));
    if (missing.length > 0) {
      await prisma.backgroundJob.createMany({
        data: missing.map((name) => ({ name, runAfter: clock.now() })),
        skipDuplicates: true,
      });
      rows = await read();
    }
    const now = clock.now();
    for (const row of rows) showJobState(row.name, row, now);
    return new Map(rows.map((row) => [row.name, row]));
  }

  /** Keeps the lease while the run is alive; a run whose lease was taken over is said in the log. */
  async function renew(name: string, token: string): Promise<void> {
    const renewed = await prisma.backgroundJob.updateMany({
      where: { name, leaseToken: token },
      data: { leaseUntil: later(JOB_LEASE_MS) },
    });
    if (renewed.count === 0) writeLog("warn", "background job's lease was taken over while it ran", { job: name });
  }

  async function runIfDue({ job, controller }: ActiveJob, state: JobRow | undefined): Promise<void> {
    const { name } = job;
    const now = clock.now();
    if (!state || !isClaimable(state, now) || running.has(name)) return;
    running.add(name);
    try {
      const token = randomUUID();
      const taken = await prisma.backgroundJob.updateMany({
        where: { name, runAfter: { lte: now }, OR: [{ leaseUntil: null }, { leaseUntil: { lte: now } }] },
        data: { leaseToken: token, leaseUntil: later(JOB_LEASE_MS), lastStartedAt: now },
      });
      if (taken.count !== 1) return;
      const heartbeat = setInterval(() => {
        renew(name, token).catch((error: unknown) =>
          writeLog("warn", "renewing a background job's lease failed", { job: name, error: errorFields(error) }),
        );
      }, JOB_LEASE_MS / 3);
      heartbeat.unref();
      let outcome: RunOutcome;
      let failure: unknown;
      try {
        const result = await job.run(controller.signal);
        outcome = { ok: true, again: result?.again === true };
      } catch (error) {
        outcome = { ok: false };
        failure = error;
      } finally {
        clearInterval(heartbeat);
      }
      const ended = clock.now();
      const next = afterRun(outcome, state, ended, intervalOf(job));
      // Only while it still holds the lease: a run taken over leaves the schedule to the new one.
      await prisma.backgroundJob.updateMany({
        where: { name, leaseToken: token },
        data: {
          leaseToken: null,
          leaseUntil: null,
          runAfter: next.runAfter,
          failures: next.failures,
          ...(outcome.ok
            ? { lastSucceededAt: ended, lastError: null }
            : { lastError: String(errorFields(failure).message).slice(0, KEPT_ERROR_CHARS) }),
        },
      });
      countJobRun(name, outcome.ok ? "ok" : "failed");
      const lastSucceededAt = outcome.ok ? ended : state.lastSucceededAt;
      showJobState(
        name,
        { runAfter: next.runAfter, leaseUntil: null, failures: next.failures, lastSucceededAt },
        ended,
      );
      if (!outcome.ok) {
        writeLog("error", "background job failed; retried with backoff", {
          job: name,
          failures: next.failures,
          retryAt: next.runAfter.toISOString(),
          error: errorFields(failure),
        });
      }
    } finally {
      running.delete(name);
    }
  }

  /** One poll: every active job that is due is claimed and run. Resolves when the runs it began have ended. */
  function tick(): Promise<void> {
    const jobs = [...active.values()];
    if (jobs.length === 0) return Promise.resolve();
    // Unread (the database away), no job is due here: the next poll tries again.
    const states = readStates(jobs.map(({ job }) => job.name)).catch((error: unknown) => {
      writeLog("error", "background jobs: their table could not be read", { error: errorFields(error) });
      return new Map<string, JobRow>();
    });
    const polls = jobs.map((entry) => {
      const poll = states
        .then((rows) => runIfDue(entry, rows.get(entry.job.name)))
        .catch((error: unknown) =>
          writeLog("error", "background job: its claim or its end could not be written", {
            job: entry.job.name,
            error: errorFields(error),
          }),
        );
      const polling = inFlight.get(entry.job.name) ?? new Set();
      inFlight.set(entry.job.name, polling.add(poll));
      void poll.finally(() => polling.delete(poll));
      return poll;
    });
    return Promise.all(polls).then(() => undefined);
  }

  return {
    tick,
    /**
     * Runs the jobs from now on: a poll at once (what is due after a restart runs now), then every
     * POLL_MS. Resolves when the first poll's runs have ended.
     */
    start(jobs: readonly JobDefinition[]): Promise<void> {
      for (const job of jobs) {
        if (!active.has(job.name)) active.set(job.name, { job, controller: new AbortController() });
      }
      if (!timer) {
        timer = setInterval(() => void tick(), POLL_MS);
        timer.unref();
      }
      return tick();
    },
    /**
     * Stops the given jobs (all without any): no poll claims them again here, their runs are
     * aborted and waited for (a poll begun before the stop still runs what it found due), then each
     * job's own stop, which ends what its runs left going even if it was never started here.
     */
    async stop(jobs?: readonly JobDefinition[]): Promise<void> {
      const names = jobs?.map((job) => job.name);
      const stopping = [...active.values()].filter(({ job }) => !names || names.includes(job.name));
      for (const { job, controller } of stopping) {
        active.delete(job.name);
        controller.abort();
      }
      if (active.size === 0) {
        clearInterval(timer);
        timer = undefined;
      }
      await Promise.all(stopping.flatMap(({ job }) => [...(inFlight.get(job.name) ?? [])]));
      await Promise.all((jobs ?? stopping.map(({ job }) => job)).map((job) => job.stop?.()));
    },
  };
}
