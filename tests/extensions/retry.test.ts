import { describe, expect, test } from "vitest";
import { SavedItemsError } from "../../extensions/saved-items-account/src/lib/errors";
import {
  DEFAULT_RETRY_POLICY,
  backoffDelay,
  shouldRetry,
  withRetry,
} from "../../extensions/saved-items-account/src/lib/retry";
import { FakeClock } from "./fakes";

const error = (status: number, retryable: boolean, code = "X") => new SavedItemsError(code, code, status, retryable);

describe("shouldRetry", () => {
  test.each([
    [502, true, true],
    [500, true, true],
    [0, true, true], // no answer
    [503, false, false],
    [429, true, true], // RATE_LIMITED: the flag is the contract
    [409, false, false],
    [401, false, false],
    [404, false, false],
  ])("status %i, retryable %s → %s", (status, retryable, expected) => {
    expect(shouldRetry(error(status, retryable))).toBe(expected);
  });

  test("anything that is not the service's error is not retried", () => {
    expect(shouldRetry(new Error("bug"))).toBe(false);
    expect(shouldRetry("nope")).toBe(false);
  });
});

describe("backoff", () => {
  test("doubles from the base, capped, with up to half of it as jitter", () => {
    const policy = { maxAttempts: 10, baseDelayMs: 500, maxDelayMs: 4_000 };
    expect([1, 2, 3, 4, 5].map((attempt) => backoffDelay(attempt, policy, () => 1))).toEqual([500, 1000, 2000, 4000, 4000]);
    expect([1, 2, 3].map((attempt) => backoffDelay(attempt, policy, () => 0))).toEqual([250, 500, 1000]);
  });

  test("the default is 3 attempts from 500 ms", () => {
    expect(DEFAULT_RETRY_POLICY).toEqual({ maxAttempts: 3, baseDelayMs: 500, maxDelayMs: 4_000 });
  });

  test("withRetry stops at the first success, waits between attempts only", async () => {
    const clock = new FakeClock();
    const attempts: number[] = [];
    const result = await withRetry(
      async (attempt) => {
        attempts.push(attempt);
        if (attempt < 2) throw error(502, true);
        return "done";
      },
      DEFAULT_RETRY_POLICY,
      { sleep: clock.sleep, random: () => 0.5 },
    );
    expect(result).toBe("done");
    expect(attempts).toEqual([1, 2]);
    expect(clock.sleeps).toEqual([375]);
  });
});
