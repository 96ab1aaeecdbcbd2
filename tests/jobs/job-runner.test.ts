import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import db from "~/db.server";
import { createJobRunner, type JobDefinition } from "~/infrastructure/jobs/job-runner.server";
import { BACKOFF_BASE_MS, JOB_LEASE_MS } from "~/infrastructure/jobs/schedule";
import { clock } from "~/lib/clock";
import { metricsRegistry } from "~/lib/metrics.server";

/**
 * The job runner on the test database (embedded by default, PostgreSQL under
 * scripts/test-services.sh): several runners stand for several instances. Time is the app's clock,
 * moved by hand; the runner's own intervals (its poll, a run's lease renewal) are faked, so nothing
 * runs unless a test says so.
 */

const INTERVAL_MS = 60_000;
let nowMs = 0;
const runners: ReturnType<typeof createJobRunner>[] = [];

function anInstance() {
  const runner = createJobRunner(db);
  runners.push(runner);
  return runner;
}

function deferred() {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

/** A job whose runs do what `outcomes` says in turn (then succeed), counting runs and overlaps. */
function aJob(name: string, outcomes: (() => Promise<void>)[] = []) {
  const seen = { runs: 0, running: 0, mostAtOnce: 0 };
  const job: JobDefinition = {
    name,
    intervalMs: INTERVAL_MS,
    run: async () => {
      seen.runs += 1;
      seen.running += 1;
      seen.mostAtOnce = Math.max(seen.mostAtOnce, seen.running);
      try {
        await outcomes.shift()?.();
      } finally {
        seen.running -= 1;
      }
    },
  };
  return { job, seen };
}

const failing = (message: string) => () => Promise.reject(new Error(message));
const rowOf = (name: string) => db.backgroundJob.findUniqueOrThrow({ where: { name } });
const at = (offsetMs: number) => new Date(nowMs + offsetMs);

async function metric(name: string, labels: Record<string, string>): Promise<number | undefined> {
  const { values } = await metricsRegistry.getSingleMetric(name)!.get();
  return values.find((value) => Object.entries(labels).every(([key, label]) => value.labels[key] === label))?.value;
}

beforeEach(() => {
  nowMs = Date.parse("2026-11-29T12:00:00Z");
  vi.spyOn(clock, "now").mockImplementation(() => new Date(nowMs));
  vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
});

afterEach(async () => {
  await Promise.all(runners.splice(0).map((runner) => runner.stop()));
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("retries", () => {
  test("a failed run is tried again after a backoff that doubles, then on its interval once it succeeds", async () => {
    const { job, seen } = aJob("retried", [failing("platform down"), failing("still down")]);
    vi.spyOn(process.stdout, "write").mockImplementation(() => true); // the failures' log lines
    const instance = anInstance();

    await instance.start([job]);
    expect(seen.runs).toBe(1);
    expect(await rowOf("retried")).toMatchObject({
      failures: 1,
      runAfter: at(BACKOFF_BASE_MS),
      lastError: "platform down",
    });

    nowMs += BACKOFF_BASE_MS - 1;
    await instance.tick();
    expect(seen.runs).toBe(1);
    nowMs += 1;
    await instance.tick();
    expect(seen.runs).toBe(2);
    expect(await rowOf("retried")).toMatchObject({ failures: 2, runAfter: at(2 * BACKOFF_BASE_MS) });

    nowMs += 2 * BACKOFF_BASE_MS;
    await instance.tick();
    expect(seen.runs).toBe(3);
    expect(await rowOf("retried")).toMatchObject({
      failures: 0,
      runAfter: at(INTERVAL_MS),
      lastError: null,
      lastSucceededAt: at(0),
      leaseToken: null,
    });
  });
});

describe("several instances", () => {
  test("two instances never run the same job at once, and each due time runs it once", async () => {
    const started = deferred();
    const finish = deferred();
    const { job, seen } = aJob("shared", [
      () => {
        started.resolve();
        return finish.promise;
      },
    ]);
    const first = anInstance();
    const second = anInstance();

    const firstRun = first.start([job]);
    await started.promise;
    await second.start([job]);
    expect(seen.runs).toBe(1);
    finish.resolve();
    await firstRun;

    await Promise.all([first.tick(), second.tick()]);
    expect(seen.runs).toBe(1); // not due before its interval
    nowMs += INTERVAL_MS;
    await Promise.all([first.tick(), second.tick(), first.tick(), second.tick()]);
    expect(seen).toMatchObject({ runs: 2, mostAtOnce: 1 });
  });

  test("a claim whose instance died is taken over once its lease has run out", async () => {
    await db.backgroundJob.create({
      data: { name: "orphan", runAfter: at(-1_000), leaseToken: "dead-instance", leaseUntil: at(JOB_LEASE_MS) },
    });
    const { job, seen } = aJob("orphan");
    const survivor = anInstance();

    await survivor.start([job]);
    nowMs += JOB_LEASE_MS - 1;
    await survivor.tick();
    expect(seen.runs).toBe(0);
    nowMs += 1;
    await survivor.tick();
    expect(seen.runs).toBe(1);
    expect(await rowOf("orphan")).toMatchObject({ leaseToken: null, runAfter: at(INTERVAL_MS) });
  });

  test("a live run renews its lease, so it is not taken over however long it runs", async () => {
    const started = deferred();
    const finish = deferred();
    const { job, seen } = aJob("long", [
      () => {
        started.resolve();
        return finish.promise;
      },
    ]);
    const running = anInstance();
    const other = anInstance();
    const run = running.start([job]);
    await started.promise;

    nowMs += (JOB_LEASE_MS * 2) / 3;
    await vi.advanceTimersByTimeAsync(JOB_LEASE_MS / 3);
    await vi.waitFor(async () => expect((await rowOf("long")).leaseUntil).toEqual(at(JOB_LEASE_MS)));
    nowMs += (JOB_LEASE_MS * 2) / 3; // past the first lease, within the renewed one
    await other.start([job]);
    expect(seen.runs).toBe(1);

    finish.resolve();
    await run;
  });
});

describe("what operators see", () => {
  test("a due job's lateness and a failing job's failures are on /metrics, and each failure in the log", async () => {
    await db.backgroundJob.create({
      data: { name: "late", runAfter: at(-90_000), failures: 2, lastError: "earlier failure" },
    });
    const started = deferred();
    const finish = deferred();
    const { job } = aJob("late", [
      () => {
        started.resolve();
        return finish.promise;
      },
    ]);
    const lines: string[] = [];
    vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    const instance = anInstance();

    const run = instance.start([job]);
    await started.promise;
    // As read before the run took it: 90 s late, failing twice in a row.
    expect(await metric("background_job_overdue_seconds", { job: "late" })).toBe(90);
    expect(await metric("background_job_failures", { job: "late" })).toBe(2);

    finish.reject(new Error("the platform refused"));
    await run;
    expect(await metric("background_job_failures", { job: "late" })).toBe(3);
    expect(await metric("background_job_overdue_seconds", { job: "late" })).toBe(0);
    expect(await metric("background_job_runs_total", { job: "late", outcome: "failed" })).toBe(1);
    const logged = lines
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line))
      .find((entry) => entry.job === "late");
    expect(logged).toMatchObject({
      level: "error",
      msg: "background job failed; retried with backoff",
      failures: 3,
      retryAt: at(4 * BACKOFF_BASE_MS).toISOString(),
      error: { message: "the platform refused" },
    });
  });
});
