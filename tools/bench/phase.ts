// One measured run of load against one process: its answers, latency, CPU and (for an app
// instance) what the platform and the monthly budget saw meanwhile.
import type { LoadResult } from "./load";
import { scrape, total } from "./metrics";
import { cpuSeconds } from "./process-stats";
import { usageDelta, type MeasuredSandbox } from "./sandbox";
import { fixed, formatAnswers, summarizeLoad, type Summary } from "./stats";

export interface PhaseReport {
  name: string;
  summary: Summary;
  cpuMsPerRequest: number;
  /** Per request, from the sandbox's platform usage and the instance's metrics; absent for the baseline. */
  platform?: ReturnType<typeof usageDelta>;
  budgetUnits?: number;
}

export interface Target {
  pid: number;
  /** The app instance and shop whose platform usage and budget are read; absent for the baseline. */
  app?: { sandbox: MeasuredSandbox; instanceUrl: string; shop: string };
}

export async function measurePhase(name: string, target: Target, run: () => Promise<LoadResult>): Promise<PhaseReport> {
  return (await measureAlternating([{ name, target, run }], 1))[0]!;
}

/**
 * Measures several targets in turns: `rounds` rounds, each running every target's `run` once, one
 * after another. What else the machine does meanwhile (on a shared machine it changes from minute
 * to minute) then falls on all of them alike, so the ratios between their figures are taken side
 * by side. Each report covers all of its target's turns.
 */
export async function measureAlternating(
  entries: readonly { name: string; target: Target; run: () => Promise<LoadResult> }[],
  rounds: number,
): Promise<PhaseReport[]> {
  const states = await Promise.all(
    entries.map(async ({ target: { app } }) => ({
      before: app ? await Promise.all([app.sandbox.usage(app.shop), scrape(app.instanceUrl)]) : undefined,
      outcomes: [] as LoadResult["outcomes"],
      durationMs: 0,
      cpu: 0,
    })),
  );
  for (let round = 0; round < rounds; round++) {
    for (const [index, { target, run }] of entries.entries()) {
      const state = states[index]!;
      const cpuBefore = cpuSeconds(target.pid);
      const result = await run();
      state.cpu += cpuSeconds(target.pid) - cpuBefore;
      state.outcomes.push(...result.outcomes);
      state.durationMs += result.durationMs;
    }
  }
  return Promise.all(
    entries.map(async ({ name, target: { app } }, index) => {
      const { before, outcomes, durationMs, cpu } = states[index]!;
      const summary = summarizeLoad({ outcomes, durationMs });
      const report: PhaseReport = { name, summary, cpuMsPerRequest: (cpu * 1000) / summary.requests };
      if (app && before) {
        const [usageAfter, metricsAfter] = await Promise.all([app.sandbox.usage(app.shop), scrape(app.instanceUrl)]);
        report.platform = usageDelta(before[0], usageAfter);
        report.budgetUnits = total(metricsAfter, "budget_units_total") - total(before[1], "budget_units_total");
      }
      return report;
    }),
  );
}

export function phaseRow(report: PhaseReport): Record<string, string> {
  const { summary, platform } = report;
  const per = (value: number | undefined, digits = 2) =>
    value === undefined ? "-" : fixed(value / summary.requests, digits);
  return {
    operation: report.name,
    requests: String(summary.requests),
    "req/s": fixed(summary.perSecond, 0),
    "p50 ms": fixed(summary.p50),
    "p99 ms": fixed(summary.p99),
    "app CPU ms/req": fixed(report.cpuMsPerRequest, 3),
    "platform req/req": per(platform?.requests),
    "requested pts/req": per(platform?.requestedPoints),
    "actual pts/req": per(platform?.actualPoints),
    throttled: platform ? String(platform.throttled) : "-",
    "budget units/req": per(report.budgetUnits),
    answers: formatAnswers(summary.answers),
  };
}
