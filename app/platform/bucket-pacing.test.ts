import { describe, expect, test } from "vitest";
import {
  availableAt,
  BACKGROUND_RESERVE_SHARE,
  pointsBeforeSending,
  waitBeforeSendingMs,
  type BucketObservation,
} from "~/platform/bucket-pacing";

/** A Standard shop's bucket as an answer at t = 0 reported it. */
const standard = (currentlyAvailable: number): BucketObservation => ({
  maximumAvailable: 2_000,
  currentlyAvailable,
  restoreRate: 100,
  atMs: 0,
});

describe("availableAt: the bucket extrapolated from the last throttle status", () => {
  test("restored at the restore rate since the answer", () => {
    expect(availableAt(standard(500), 0)).toBe(500);
    expect(availableAt(standard(500), 2_500)).toBe(750);
  });

  test("never past the maximum", () => {
    expect(availableAt(standard(1_900), 5_000)).toBe(2_000);
  });

  test("a clock behind the answer restores nothing", () => {
    expect(availableAt(standard(500), -1_000)).toBe(500);
  });
});

describe("waitBeforeSendingMs: how long background work leaves the bucket to shoppers", () => {
  test("the reserve is 90% of the bucket: a page-sized request waits for a full one", () => {
    expect(BACKGROUND_RESERVE_SHARE).toBe(0.9);
    expect(pointsBeforeSending(standard(0), 10, BACKGROUND_RESERVE_SHARE)).toBe(1_810);
    expect(pointsBeforeSending(standard(0), 202, BACKGROUND_RESERVE_SHARE)).toBe(2_000);
  });

  test("nothing known yet: the first request goes, and its answer says", () => {
    expect(waitBeforeSendingMs(undefined, 0, 202)).toBe(0);
  });

  test("a bucket holding the reserve and the cost: no wait", () => {
    expect(waitBeforeSendingMs(standard(1_810), 0, 10)).toBe(0);
    expect(waitBeforeSendingMs(standard(2_000), 0, 202)).toBe(0);
  });

  test("below it: until the restore rate has brought it there", () => {
    // 1,810 needed, 1,600 there: 210 points at 100 a second.
    expect(waitBeforeSendingMs(standard(1_600), 0, 10)).toBe(2_100);
    // Time since the answer counts.
    expect(waitBeforeSendingMs(standard(1_600), 1_000, 10)).toBe(1_100);
    expect(waitBeforeSendingMs(standard(1_600), 2_100, 10)).toBe(0);
  });

  test("a drained bucket after a throttled answer waits for the reserve, not just the cost", () => {
    expect(waitBeforeSendingMs(standard(0), 0, 10)).toBe(18_100);
  });

  test("a cost beyond what the reserve leaves room for waits for a full bucket, not forever", () => {
    expect(pointsBeforeSending(standard(0), 1_500, BACKGROUND_RESERVE_SHARE)).toBe(2_000);
    expect(waitBeforeSendingMs(standard(1_798), 0, 202)).toBe(2_020);
  });

  test("the share is a parameter of the arithmetic", () => {
    expect(waitBeforeSendingMs(standard(1_202), 0, 202, 0.5)).toBe(0);
    expect(waitBeforeSendingMs(standard(1_000), 0, 202, 0.5)).toBe(2_020);
  });
});
