import { describe, expect, test } from "vitest";
import { judgePass, retryAfterFailure, settlesAt } from "~/services/compliance/redaction-schedule";

const requestedAt = new Date("2026-11-25T10:00:00Z");
const at = (seconds: number) => new Date(requestedAt.getTime() + seconds * 1000);
const LAG_MS = 60_000;
const pass = (startedAfterSeconds: number, items: number, lists = 0) =>
  judgePass({ requestedAt, startedAt: at(startedAfterSeconds), found: { items, lists }, searchLagMs: LAG_MS });

describe("when a customer redaction is complete", () => {
  test("settles the write grace (30 s) plus the search lag after it arrived", () => {
    expect(settlesAt(requestedAt, LAG_MS)).toEqual(at(90));
  });

  test("a pass before then proves nothing, whatever it found: the next is at the settle time", () => {
    expect(pass(0, 0)).toEqual({ status: "pending", runAfter: at(90) });
    expect(pass(0, 3, 2)).toEqual({ status: "pending", runAfter: at(90) });
    expect(pass(89.999, 0)).toEqual({ status: "pending", runAfter: at(90) });
  });

  test("a pass from then on that finds nothing completes it", () => {
    expect(pass(90, 0)).toEqual({ status: "completed" });
    expect(pass(3600, 0)).toEqual({ status: "completed" });
  });

  test("a late pass that still finds records looks again one search lag after it started", () => {
    expect(pass(90, 1)).toEqual({ status: "pending", runAfter: at(150) });
    expect(pass(200, 0, 1)).toEqual({ status: "pending", runAfter: at(260) });
  });

  test("failed passes are retried after 30 s, doubling, at most an hour apart", () => {
    const now = at(0);
    expect(
      [1, 2, 3, 8, 50].map((attempts) => (retryAfterFailure(now, attempts).getTime() - now.getTime()) / 1000),
    ).toEqual([30, 60, 120, 3600, 3600]);
  });
});
