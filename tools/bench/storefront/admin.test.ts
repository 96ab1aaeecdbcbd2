// The admin Web Vitals bench's own arithmetic (tools/bench/storefront/admin.ts): CLS's session windows.
import { describe, expect, test } from "vitest";
import { cumulativeLayoutShift } from "./admin";

const shift = (startTime: number, value: number) => ({ startTime, value });

describe("CLS as the largest session window of layout shifts", () => {
  test("shifts under 1 s apart add up; a gap of more than 1 s starts a new window", () => {
    expect(cumulativeLayoutShift([])).toBe(0);
    expect(cumulativeLayoutShift([shift(100, 0.05), shift(900, 0.04), shift(2_500, 0.06)])).toBeCloseTo(0.09);
    expect(cumulativeLayoutShift([shift(100, 0.05), shift(1_200, 0.04)])).toBeCloseTo(0.05);
  });

  test("a window ends after 5 s however close its shifts", () => {
    const everyHalfSecond = Array.from({ length: 14 }, (_, index) => shift(index * 500, 0.01));
    // 0 ms to 5,000 ms: 11 shifts; the rest open a second, smaller window.
    expect(cumulativeLayoutShift(everyHalfSecond)).toBeCloseTo(0.11);
  });
});
