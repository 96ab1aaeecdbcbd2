import prisma from "~/db.server";
import { createJobRunner, type JobDefinition } from "~/infrastructure/jobs/job-runner.server";
import { redactionJob } from "./compliance/redaction-sweeps.server";
import { fanOutResumeJob } from "./flow/fan-outs.server";
import { savedByFlushJob, savedByRecountJob } from "./saved-by/saved-by-sweeps.server";
import { retentionJob } from "./saved-items/retention.server";

/**
 * Every background job of the app, in one place: each is run by the job runner
 * (app/infrastructure/jobs, decision 0028), its work stays in its service.
 */
export const BACKGROUND_JOBS: readonly JobDefinition[] = [
  redactionJob,
  savedByFlushJob,
  savedByRecountJob,
  fanOutResumeJob,
  retentionJob,
];

const processRunner = createJobRunner(prisma);

/** This process's runner, on the app's database: start (or stop) the given jobs. */
export const startJobs = processRunner.start;
export const stopJobs = processRunner.stop;

/** At start-up: what is due (a restart's backlog) runs now, then each job on its interval. */
export const startBackgroundJobs = (): void => void startJobs(BACKGROUND_JOBS);

/** At shutdown: the runs in progress stop before their next platform request and are waited for. */
export const stopBackgroundJobs = (): Promise<void> => stopJobs(BACKGROUND_JOBS);
