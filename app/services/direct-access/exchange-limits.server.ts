import { writeLog } from "~/lib/json-log";
import { isIPv6 } from "node:net";
import { clock } from "~/lib/clock";
import type { TokenBucketRule, TokenDecision } from "~/infrastructure/coordination/coordinator.server";
import { getCoordinator } from "~/infrastructure/coordination/shared-coordinator.server";
import { ServiceError } from "~/lib/errors";
import { registerProcessCache } from "~/lib/process-caches.server";

/**
 * The exchanges' rate limits, per client address and shop (docs/rate-limits.md, "Exchanges").
 * Checked before the exchange sends anything to the platform; a refusal is 429 RATE_LIMITED with
 * Retry-After and costs neither a platform request nor any of the shop's budget.
 * - attempts: every exchange. A backend server exchanges for all of a shop's customers from one
 *   address, so this is generous: a burst of 120, then 20 a second.
 * - failures: exchanges refused with 401 or 403. A caller whose tokens keep failing is guessing or
 *   broken; after 10 failures it may try once every 6 s, and the platform is not asked meanwhile.
 *   A success gives no failure back, so valid tokens mixed in do not buy more guesses.
 */
export const EXCHANGE_LIMITS = {
  attempts: { capacity: 120, refillPerSecond: 20 },
  failures: { capacity: 10, refillPerSecond: 1 / 6 },
} as const satisfies Record<string, TokenBucketRule>;

export type ExchangePath = "modern" | "legacy" | "customer-account";

export interface ExchangeAttempt {
  clientAddress: string;
  /** The shop the attempt names; "unknown" when it names none. Never trusted for anything but keys and logs. */
  shop: string;
  path: ExchangePath;
}

/** Process-local bookkeeping is bounded; dropping an idle entry only makes the next attempt's check a little later. */
const MAX_TRACKED_PAIRS = 10_000;

/**
 * Pairs whose last exchange failed, until the failure bucket would have refilled. Such a pair
 * pays its failure token before the next attempt: the only way to check a bucket that is charged
 * on failure, with take-only buckets, before the platform is called. Kept per process, so with
 * several instances a pair may get one extra attempt per instance before it is stopped.
 */
const lastFailed = new Map<string, number>();
const FAILED_MEMORY_MS = (EXCHANGE_LIMITS.failures.capacity / EXCHANGE_LIMITS.failures.refillPerSecond) * 1000;

/** How many refusals each pair had in its current minute, for the sampled log. */
const refusals = new Map<string, { windowStartMs: number; count: number }>();
const LOG_WINDOW_MS = 60_000;
const LOG_ONE_IN = 100;

registerProcessCache(() => {
  lastFailed.clear();
  refusals.clear();
});

/** Runs one exchange attempt within the limits, and records how it ended. */
export async function meteredExchange<T>(attempt: ExchangeAttempt, exchange: () => Promise<T>): Promise<T> {
  const pair = `${addressKey(attempt.clientAddress)}|${attempt.shop}`;
  const failuresKey = `exchange:failures:${pair}`;
  let failurePaid = false;
  try {
    refuseUnless(await getCoordinator().takeTokens(`exchange:attempts:${pair}`, EXCHANGE_LIMITS.attempts));
    if (failedRecently(pair)) {
      refuseUnless(await getCoordinator().takeTokens(failuresKey, EXCHANGE_LIMITS.failures));
      failurePaid = true;
    }
    const result = await exchange();
    lastFailed.delete(pair);
    return result;
  } catch (error) {
    if (!(error instanceof ServiceError) || ![401, 403, 429].includes(error.status)) throw error;
    if (error.status !== 429) {
      if (!failurePaid) await getCoordinator().takeTokens(failuresKey, EXCHANGE_LIMITS.failures);
      remember(lastFailed, pair, clock.now().getTime() + FAILED_MEMORY_MS);
    }
    logRefusal(pair, attempt, error);
    throw error;
  }
}

function refuseUnless(decision: TokenDecision): void {
  if (decision.allowed) return;
  // The bucket already rounds up to the millisecond (fractional refill rates leave float dust);
  // rounding that millisecond up again would add a whole second.
  const retryAfterSeconds = Math.max(1, Math.ceil((decision.retryAfterMs - 1) / 1000));
  throw new ServiceError(
    "RATE_LIMITED",
    `Too many exchange attempts from this address for this shop; retry in ${retryAfterSeconds} s`,
    { retryAfterSeconds },
  );
}

/**
 * The first refusal of a pair in a minute is logged, then one in a hundred, so a flood is visible
 * without flooding the log. One JSON line; tokens are never part of it.
 */
function logRefusal(pair: string, attempt: ExchangeAttempt, error: ServiceError): void {
  const nowMs = clock.now().getTime();
  const current = refusals.get(pair);
  const window =
    current && nowMs - current.windowStartMs < LOG_WINDOW_MS ? current : { windowStartMs: nowMs, count: 0 };
  window.count += 1;
  remember(refusals, pair, window);
  if (window.count % LOG_ONE_IN !== 1) return;
  writeLog("warn", "exchange_refused", {
    clientAddress: attempt.clientAddress,
    shop: attempt.shop,
    path: attempt.path,
    code: error.code,
    status: error.status,
    refusalsThisMinute: window.count,
  });
}

function failedRecently(pair: string): boolean {
  const until = lastFailed.get(pair);
  if (until === undefined) return false;
  if (until > clock.now().getTime()) return true;
  lastFailed.delete(pair);
  return false;
}

function remember<V>(map: Map<string, V>, pair: string, value: V): void {
  // Re-inserting keeps the Map in least-recently-used order, so the first key is the idlest.
  map.delete(pair);
  if (map.size >= MAX_TRACKED_PAIRS) map.delete(map.keys().next().value!);
  map.set(pair, value);
}

/**
 * The address a limit applies to. An IPv6 client usually holds a whole /64, so its addresses
 * share one key; an IPv4 address mapped into IPv6 is the IPv4 address.
 */
export function addressKey(address: string): string {
  const bare = address.replace(/%.*$/, "");
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(bare)?.[1];
  if (mapped) return mapped;
  if (!isIPv6(bare)) return address;
  const [head = "", tail] = bare.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  // An embedded IPv4 tail (a.b.c.d) fills two groups.
  const groupCount = (groups: string[]) => groups.reduce((sum, group) => sum + (group.includes(".") ? 2 : 1), 0);
  const zeros = tail === undefined ? [] : Array<string>(8 - groupCount(left) - groupCount(right)).fill("0");
  const prefix = [...left, ...zeros, ...right].slice(0, 4).map((group) => parseInt(group, 16).toString(16));
  return `${prefix.join(":")}::/64`;
}
