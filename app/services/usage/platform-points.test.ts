import { describe, expect, test } from "vitest";
import { callerPointsRule } from "./platform-points";

describe("callerPointsRule", () => {
  test("before any answer from the shop: half a Standard bucket, a fifth of its restore rate", () => {
    expect(callerPointsRule()).toEqual({ capacity: 1_000, refillPerSecond: 20 });
  });

  test("sized on the shop's bucket as its answers report it", () => {
    expect(callerPointsRule({ maximumAvailable: 20_000, restoreRate: 1_000 })).toEqual({
      capacity: 10_000,
      refillPerSecond: 200,
    });
  });

  test("one shopper's share leaves the shop's other shoppers most of the bucket and its restore rate", () => {
    const bucket = { maximumAvailable: 2_000, restoreRate: 100 };
    const share = callerPointsRule(bucket);
    expect(bucket.maximumAvailable - share.capacity).toBe(1_000);
    expect(bucket.restoreRate - share.refillPerSecond).toBe(80);
  });
});
