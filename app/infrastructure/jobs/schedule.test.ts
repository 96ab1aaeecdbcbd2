import { describe, expect, test } from "vitest";
import {
  afterRun,
  BACKOFF_BASE_MS,
  BACKOFF_MAX_MS,
  isClaimable,
  overdueSeconds,
  retryDelayMs,
  type JobState,
} from "./schedule";

const NOW = new Date("2026-11-29T12:00:00Z");
const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs);
const state = (overrides: Partial<JobState> = {}): JobState => ({
  runAfter: at(0),
  leaseUntil: null,
  failures: 0,
  ...overrides,
});

describe("isClaimable", () => {
  test("a job is claimable once due and while no live lease holds it", () => {
    expect(isClaimable(state(), NOW)).toBe(true);
    expect(isClaimable(state({ runAfter: at(1) }), NOW)).toBe(false);
    expect(isClaimable(state({ leaseUntil: at(1) }), NOW)).toBe(false);
    // A lease that ran out is a dead run's: taken over.
    expect(isClaimable(state({ leaseUntil: at(0) }), NOW)).toBe(true);
    expect(isClaimable(state({ leaseUntil: at(-1) }), NOW)).toBe(true);
  });
});

describe("retryDelayMs", () => {
  test("doubles from the base with each failure in a row, up to the cap", () => {
    expect([1, 2, 3, 4].map(retryDelayMs)).toEqual([1, 2, 4, 8].map((factor) => factor * BACKOFF_BASE_MS));
    expect(retryDelayMs(30)).toBe(BACKOFF_MAX_MS);
    expect(retryDelayMs(1000)).toBe(BACKOFF_MAX_MS);
  });
});

describe("afterRun", () => {
  test("a success is due again after the interval, its failures forgotten", () => {
    expect(afterRun({ ok: true, again: false }, { failures: 3 }, NOW, 15_000)).toEqual({
      runAfter: at(15_000),
      failures: 0,
    });
  });

  test("a success that left work due is due again at once", () => {
    expect(afterRun({ ok: true, again: true }, { failures: 0 }, NOW, 15_000).runAfter).toEqual(NOW);
  });

  test("a failure is tried again after the backoff of its failures in a row, whatever the interval", () => {
    expect(afterRun({ ok: false }, { failures: 0 }, NOW, 600_000)).toEqual({
      runAfter: at(BACKOFF_BASE_MS),
      failures: 1,
    });
    expect(afterRun({ ok: false }, { failures: 2 }, NOW, 1_000)).toEqual({
      runAfter: at(4 * BACKOFF_BASE_MS),
      failures: 3,
    });
  });
});

describe("overdueSeconds", () => {
  test("how long a due job has waited with no live run; 0 before its time or while it runs", () => {
    expect(overdueSeconds(state({ runAfter: at(-90_000) }), NOW)).toBe(90);
    expect(overdueSeconds(state({ runAfter: at(5_000) }), NOW)).toBe(0);
    expect(overdueSeconds(state({ runAfter: at(-90_000), leaseUntil: at(1) }), NOW)).toBe(0);
    expect(overdueSeconds(state({ runAfter: at(-90_000), leaseUntil: at(-30_000) }), NOW)).toBe(90);
  });
});
