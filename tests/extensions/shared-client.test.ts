// The one client core both the theme script and the customer-account extension are built with (the
// client package's, re-exported by extensions/shared): envelope parsing, error mapping, retry with
// backoff, jitter and Retry-After.
import { describe, expect, test } from "vitest";
import { parseRetryAfter, requestEnvelope } from "../../extensions/shared/envelope";
import { SavedItemsError, toSavedItemsError } from "../../extensions/shared/errors";
import { DEFAULT_RETRY_POLICY, backoffDelay, retryDelay, withRetry } from "../../extensions/shared/retry";
import { FakeClock, fail, ok } from "../support/extensions/service";

const error = (status: number, retryable: boolean, retryAfterMs?: number) =>
  new SavedItemsError("X", "X", status, retryable, retryAfterMs);
const answering = (response: Response | Error) => async () => {
  if (response instanceof Error) throw response;
  return response;
};
const request = (response: Response | Error) => requestEnvelope(answering(response), "https://app.example/x", {});
const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail("resolved"),
    (reason: unknown) => reason,
  );

describe("requestEnvelope", () => {
  test("resolves to data of a success envelope", async () => {
    expect(await request(ok({ saved: true }))).toEqual({ saved: true });
    expect(await request(ok(null))).toBeNull();
  });

  test("an error envelope is the service's code, message, retryable flag and status", async () => {
    const reason = await rejection(request(fail(409, "DUPLICATE_SAVE")));
    expect(reason).toBeInstanceOf(SavedItemsError);
    expect(reason).toMatchObject({
      code: "DUPLICATE_SAVE",
      message: "DUPLICATE_SAVE happened",
      status: 409,
      retryable: false,
    });
    expect(await rejection(request(fail(429, "RATE_LIMITED", true)))).toMatchObject({
      code: "RATE_LIMITED",
      retryable: true,
    });
  });

  test("no answer is NETWORK_ERROR, retryable, status 0", async () => {
    expect(await rejection(request(new TypeError("Failed to fetch")))).toMatchObject({
      code: "NETWORK_ERROR",
      status: 0,
      retryable: true,
    });
  });

  test("an answer that is not the envelope is BAD_RESPONSE, retryable only for a 5xx (something in front of the service)", async () => {
    expect(await rejection(request(new Response("<html>Bad gateway</html>", { status: 502 })))).toMatchObject({
      code: "BAD_RESPONSE",
      status: 502,
      retryable: true,
    });
    expect(await rejection(request(new Response("Not Found", { status: 404 })))).toMatchObject({
      code: "BAD_RESPONSE",
      retryable: false,
    });
    // JSON, but not the envelope: an error without its retryable flag is not trusted as one.
    const halfEnvelope = new Response(JSON.stringify({ ok: false, error: { code: "X", message: "m" } }), {
      status: 500,
    });
    expect(await rejection(request(halfEnvelope))).toMatchObject({ code: "BAD_RESPONSE", status: 500 });
    expect(await rejection(request(new Response(JSON.stringify({ ok: true }), { status: 200 })))).toMatchObject({
      code: "BAD_RESPONSE",
    });
  });

  test("carries the Retry-After wait of an error answer", async () => {
    const limited = fail(429, "RATE_LIMITED", true);
    limited.headers.set("Retry-After", "2");
    expect(await rejection(request(limited))).toMatchObject({ code: "RATE_LIMITED", retryAfterMs: 2000 });
    expect(await rejection(request(fail(429, "RATE_LIMITED", true)))).toMatchObject({ retryAfterMs: undefined });
  });
});

describe("Retry-After", () => {
  const now = Date.parse("2026-07-01T12:00:00Z");
  test.each([
    ["3", 3000],
    [" 0 ", 0],
    ["Wed, 01 Jul 2026 12:00:05 GMT", 5000],
    ["Wed, 01 Jul 2026 11:59:00 GMT", 0], // already past: no wait
    ["soon", undefined],
    ["-1", undefined],
    ["", undefined],
    [null, undefined],
  ])("%j → %s ms", (value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });
});

describe("retry rules", () => {
  test.each([
    [502, true, true],
    [500, true, true],
    [0, true, true], // no answer
    [503, false, false],
    [429, true, true], // RATE_LIMITED: the flag is the contract, not the status
    [409, false, false],
    [401, false, false],
    [404, false, false],
  ])("status %i, retryable %s → retried: %s", (status, retryable, expected) => {
    expect(retryDelay(error(status, retryable), 1, DEFAULT_RETRY_POLICY, () => 0) !== undefined).toBe(expected);
  });

  test("anything that is not the service's error is not retried", () => {
    expect(retryDelay(new Error("bug"), 1, DEFAULT_RETRY_POLICY, () => 0)).toBeUndefined();
    expect(retryDelay("nope", 1, DEFAULT_RETRY_POLICY, () => 0)).toBeUndefined();
  });

  test("backoff doubles from the base, capped, with up to half of it as jitter", () => {
    const policy = { maxAttempts: 10, baseDelayMs: 500, maxDelayMs: 4_000 };
    expect([1, 2, 3, 4, 5].map((attempt) => backoffDelay(attempt, policy, () => 1))).toEqual([
      500, 1000, 2000, 4000, 4000,
    ]);
    expect([1, 2, 3].map((attempt) => backoffDelay(attempt, policy, () => 0))).toEqual([250, 500, 1000]);
  });

  test("the default is 3 attempts from 500 ms, at most 4 s apart", () => {
    expect(DEFAULT_RETRY_POLICY).toEqual({ maxAttempts: 3, baseDelayMs: 500, maxDelayMs: 4_000 });
  });

  test("a Retry-After within the cap is waited out (never less than the backoff); a longer one ends the retries", () => {
    const policy = DEFAULT_RETRY_POLICY;
    expect(retryDelay(error(429, true, 3000), 1, policy, () => 1)).toBe(3000);
    expect(retryDelay(error(429, true, 100), 2, policy, () => 1)).toBe(1000);
    expect(retryDelay(error(429, true, 4000), 1, policy, () => 0)).toBe(4000);
    expect(retryDelay(error(429, true, 4001), 1, policy, () => 0)).toBeUndefined();
    expect(retryDelay(error(429, false, 1000), 1, policy, () => 0)).toBeUndefined();
  });

  test("withRetry stops at the first success and waits between attempts only", async () => {
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

  test("withRetry gives up after maxAttempts with the last error, and at once on a non-retryable one", async () => {
    const clock = new FakeClock();
    let attempts = 0;
    const last = error(503, true);
    const failing = withRetry(
      async () => {
        attempts += 1;
        throw attempts < 3 ? error(502, true) : last;
      },
      DEFAULT_RETRY_POLICY,
      { sleep: clock.sleep, random: () => 1 },
    );
    expect(await rejection(failing)).toBe(last);
    expect(clock.sleeps).toEqual([500, 1000]);

    const permanent = error(409, false);
    expect(
      await rejection(
        withRetry(async () => Promise.reject(permanent), DEFAULT_RETRY_POLICY, { sleep: clock.sleep, random: () => 1 }),
      ),
    ).toBe(permanent);
    expect(clock.sleeps).toHaveLength(2);
  });

  test("toSavedItemsError keeps the service's errors and wraps anything else as BAD_RESPONSE", () => {
    const known = error(500, true);
    expect(toSavedItemsError(known)).toBe(known);
    expect(toSavedItemsError(new Error("boom"))).toMatchObject({
      code: "BAD_RESPONSE",
      message: "boom",
      retryable: false,
    });
  });
});
