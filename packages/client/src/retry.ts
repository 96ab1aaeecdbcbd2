import { SavedItemsError } from "./errors.js";

/**
 * The retry rules: a failure is retried exactly when the service marked it retryable
 * (RATE_LIMITED, PLATFORM_UPSTREAM_ERROR, INTERNAL_ERROR) or no answer arrived, at most
 * `maxAttempts` attempts in all, waiting base, 2×base, 4×base… between them (capped, with jitter
 * so many shoppers do not retry in step). A Retry-After from the service is waited out when it is
 * within `maxDelayMs`; a longer one ends the retries, since nobody waits minutes on a click.
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

export const browserRetryRuntime: RetryRuntime = {
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: Math.random,
};

/** The wait before attempt `attempt + 1` (attempt counts from 1): half fixed, half jitter. */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

/**
 * Whether a failed attempt may be repeated: always for an operation that is idempotent by state
 * (save, remove, reads), and for one that is not (toggle, a batch with a toggle) only when the
 * failure says it was never applied. An answer lost, a 502 or a 500 leaves the outcome unknown:
 * a toggle that was applied but answered 502, repeated, undid the shopper's save.
 */
export type MayRepeat = (error: SavedItemsError) => boolean;

/** The service's refusals made before an operation runs: the operation was not applied. */
const REFUSED_BEFORE_RUNNING = new Set(["RATE_LIMITED"]);

export const refusedBeforeRunning: MayRepeat = (error) => REFUSED_BEFORE_RUNNING.has(error.code);

/** How long to wait before repeating after `error` on attempt `attempt`, or undefined to give up. */
export function retryDelay(
  error: unknown,
  attempt: number,
  policy: RetryPolicy,
  random: () => number,
  mayRepeat: MayRepeat = () => true,
): number | undefined {
  if (!(error instanceof SavedItemsError) || !error.retryable || attempt >= policy.maxAttempts) return undefined;
  if (!mayRepeat(error)) return undefined;
  // The backoff never exceeds maxDelayMs, so only a longer Retry-After can.
  const delay = Math.max(error.retryAfterMs || 0, backoffDelay(attempt, policy, random));
  return delay <= policy.maxDelayMs ? delay : undefined;
}

export async function withRetry<T>(
  task: (attempt: number) => Promise<T>,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
  runtime: RetryRuntime = browserRetryRuntime,
  mayRepeat?: MayRepeat,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await task(attempt);
    } catch (error) {
      const delay = retryDelay(error, attempt, policy, runtime.random, mayRepeat);
      if (delay === undefined) throw error;
      await runtime.sleep(delay);
    }
  }
}
