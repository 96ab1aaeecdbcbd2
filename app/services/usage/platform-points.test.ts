import { describe, expect, test } from "vitest";
import { callerPointsRule } from "./platform-points";

describe("callerPointsRule", () => {
  test("before any answer from the shop: a quarter of a Standard bucket, a tenth of its restore rate", () => {
    expect(callerPointsRule()).toEqual({ capacity: 500, refillPerSecond: 10 });
  });

  test("sized on the shop's bucket as its answers report it", () => {
    expect(callerPointsRule({ maximumAvailable: 20_000, restoreRate: 1_000 })).toEqual({
      capacity: 5_000,
      refillPerSecond: 100,
    });
  });

  test("one shopper's share leaves the shop's other shoppers most of the bucket and its restore rate", () => {
    const bucket = { maximumAvailable: 2_000, restoreRate: 100 };
    const share = callerPointsRule(bucket);
    expect(bucket.maximumAvailable - share.capacity).toBe(1_500);
    expect(bucket.restoreRate - share.refillPerSecond).toBe(90);
  });
});
