import type { LoadResult, Outcome } from "./load";

export interface Summary {
  requests: number;
  perSecond: number;
  p50: number;
  p99: number;
  /** "200": 1234, "409 DUPLICATE_SAVE": 5, ... */
  answers: Record<string, number>;
}

export function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))]!;
}

export function summarize(outcomes: Outcome[], durationMs: number): Summary {
  const latencies = outcomes.map((outcome) => outcome.ms).sort((a, b) => a - b);
  return {
    requests: outcomes.length,
    perSecond: (outcomes.length * 1000) / durationMs,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    answers: countAnswers(outcomes),
  };
}

export const summarizeLoad = (result: LoadResult): Summary => summarize(result.outcomes, result.durationMs);

export function countAnswers(outcomes: Outcome[]): Record<string, number> {
  const answers: Record<string, number> = {};
  for (const { status, code } of outcomes) {
    const key = code ? `${status} ${code}` : String(status);
    answers[key] = (answers[key] ?? 0) + 1;
  }
  return answers;
}

export const formatAnswers = (answers: Record<string, number>): string =>
  Object.entries(answers)
    .sort(([, a], [, b]) => b - a)
    .map(([key, count]) => `${key}×${count}`)
    .join(" ");

export const fixed = (value: number, digits = 1): string => (Number.isFinite(value) ? value.toFixed(digits) : "-");

export const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** A plain aligned table on stdout (console.table quotes strings and adds an index column). */
export function printTable(rows: Record<string, string>[], print: (line: string) => void = console.log): void {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!);
  const widths = columns.map((column) => Math.max(column.length, ...rows.map((row) => (row[column] ?? "").length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  ");
  print(line(columns));
  for (const row of rows) print(line(columns.map((column) => row[column] ?? "")));
}
