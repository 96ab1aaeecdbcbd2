// The budget's month, pure, so the sandbox's seed writes a shop's usage under the key the app reads.

// The month every request asks about is nearly always the one asked about last.
let lastMonth = { from: 0, until: 0, period: "" };

/** Calendar month in UTC, e.g. "2026-11": budgets reset at 00:00 UTC on the 1st. */
export function usagePeriod(at: Date): string {
  const ms = at.getTime();
  if (ms < lastMonth.from || ms >= lastMonth.until) {
    const from = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1);
    lastMonth = { from, until: nextPeriodStart(at).getTime(), period: at.toISOString().slice(0, 7) };
  }
  return lastMonth.period;
}

export function nextPeriodStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
}
