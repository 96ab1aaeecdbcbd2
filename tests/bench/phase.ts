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
  const { app } = target;
  const [usageBefore, metricsBefore] = app
    ? await Promise.all([app.sandbox.usage(app.shop), scrape(app.instanceUrl)])
    : [undefined, undefined];
  const cpuBefore = cpuSeconds(target.pid);
  const result = await run();
  const cpu = cpuSeconds(target.pid) - cpuBefore;
  const summary = summarizeLoad(result);
  const report: PhaseReport = { name, summary, cpuMsPerRequest: (cpu * 1000) / summary.requests };
  if (app && usageBefore && metricsBefore) {
    const [usageAfter, metricsAfter] = await Promise.all([app.sandbox.usage(app.shop), scrape(app.instanceUrl)]);
    report.platform = usageDelta(usageBefore, usageAfter);
    report.budgetUnits = total(metricsAfter, "budget_units_total") - total(metricsBefore, "budget_units_total");
  }
  return report;
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
