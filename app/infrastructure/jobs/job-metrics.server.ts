import { Counter, Gauge } from "prom-client";
import { metricsRegistry } from "~/lib/metrics.server";
import { overdueSeconds, type JobState } from "./schedule";

/**
 * What an operator sees of the background jobs on /metrics (docs/deploy.md): each job's state as
 * this instance's runner last read it from the shared table (so every instance shows the whole
 * fleet's), and the runs this instance made. Label values are the jobs' names, a fixed set.
 */

const overdue = new Gauge({
  name: "background_job_overdue_seconds",
  help: "How long a background job has been due with no run holding it (0: not due, or running)",
  labelNames: ["job"] as const,
  registers: [metricsRegistry],
});

const failures = new Gauge({
  name: "background_job_failures",
  help: "Failed runs of a background job since its last successful one (it is retried with backoff)",
  labelNames: ["job"] as const,
  registers: [metricsRegistry],
});

const lastSuccess = new Gauge({
  name: "background_job_last_success_timestamp_seconds",
  help: "When a background job's last successful run ended (0: never)",
  labelNames: ["job"] as const,
  registers: [metricsRegistry],
});

const runs = new Counter({
  name: "background_job_runs_total",
  help: "Runs of background jobs this instance made, by job and outcome (ok or failed)",
  labelNames: ["job", "outcome"] as const,
  registers: [metricsRegistry],
});

export function showJobState(job: string, state: JobState & { lastSucceededAt: Date | null }, now: Date): void {
  overdue.set({ job }, overdueSeconds(state, now));
  failures.set({ job }, state.failures);
  lastSuccess.set({ job }, (state.lastSucceededAt?.getTime() ?? 0) / 1000);
}

export function countJobRun(job: string, outcome: "ok" | "failed"): void {
  runs.inc({ job, outcome });
}
