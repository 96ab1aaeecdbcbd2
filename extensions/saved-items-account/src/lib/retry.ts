import { isSavedItemsError } from "./errors";

/**
 * The retry rules: a failure is retried exactly when the service marked it retryable
 * (RATE_LIMITED, PLATFORM_UPSTREAM_ERROR, INTERNAL_ERROR, or no answer at all), at most
 * `maxAttempts` attempts in all, waiting base, 2×base, 4×base… between them (capped, with jitter
 * so many customers do not retry in step). TOKEN_EXPIRED is not a retry: the client handles it by
 * exchanging again (service-client.ts).
 */
export interface RetryPolicy {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 3, baseDelayMs: 500, maxDelayMs: 4_000 };

export interface RetryRuntime {
  sleep: (ms: number) => Promise<void>;
  /** A number in [0, 1); the jitter source. */
  random: () => number;
}

export function shouldRetry(error: unknown): boolean {
  return isSavedItemsError(error) && error.retryable;
}

/** The wait before attempt `attempt + 1` (attempt counts from 1): half fixed, half jitter. */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

export async function withRetry<T>(
  task: (attempt: number) => Promise<T>,
  policy: RetryPolicy,
  runtime: RetryRuntime,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await task(attempt);
    } catch (error) {
      if (attempt >= policy.maxAttempts || !shouldRetry(error)) throw error;
      await runtime.sleep(backoffDelay(attempt, policy, runtime.random));
    }
  }
}
