import { AsyncLocalStorage } from "node:async_hooks";

/** What the one access-log line of a request says beyond method, path, status and duration. */
export interface RequestLogFields {
  shop?: string;
  channel?: string;
  /** The staff user behind a point-of-sale read (the POS session token's subject). */
  staff?: string;
  operation?: string;
  code?: string;
  /** Admin API cost points the request spent (actual cost, summed over its platform calls). */
  platformPoints?: number;
  platformRequests?: number;
  cache?: "hit" | "miss";
}

interface RequestScope {
  log: RequestLogFields;
  memo: Map<string, Promise<unknown>>;
  /** Who pays the platform points of what runs in this scope (payingPlatformPoints). */
  payer?: PlatformPointsPayer;
}

const scopes = new AsyncLocalStorage<RequestScope>();

/**
 * Runs one request's handling with a scope that deeper layers can annotate (the access log's
 * fields) and memoise per-request lookups in. `log` is the server's own object, so what the app
 * writes into it is what the server logs when the response finishes.
 */
export function runInRequestScope<T>(log: RequestLogFields, fn: () => Promise<T>): Promise<T> {
  return scopes.run({ log, memo: new Map() }, fn);
}

/** Adds to the current request's log fields; platform points and requests accumulate. */
export function annotateRequest(fields: RequestLogFields): void {
  const log = scopes.getStore()?.log;
  if (!log) return;
  // A loop, not a rest spread: this runs several times per request, and the spread's copy was garbage.
  for (const key of Object.keys(fields) as (keyof RequestLogFields)[]) {
    if (key === "platformPoints" || key === "platformRequests") {
      if (fields[key] !== undefined) log[key] = (log[key] ?? 0) + fields[key];
    } else {
      (log as Record<string, unknown>)[key] = fields[key];
    }
  }
}

/** Who a request's platform attempts are made for: asked before each attempt, told what each answer spent. */
export interface PlatformPointsPayer {
  /** Throws (RATE_LIMITED) to stop an attempt before it is sent. */
  beforeAttempt(): Promise<void>;
  spent(points: number): void;
}

/**
 * Runs fn with `payer` asked before every platform attempt within it and told the points of every
 * answer, retries included: what a caller's request spends of the shop's bucket is the caller's,
 * whatever its outcome. In a request's scope without a payer (the dispatcher's one call per
 * request) the payer joins that scope for the rest of the request, so an attempt still under way
 * when fn ends is charged too; work started for after the answer leaves it (runAfterAnswer). Only
 * elsewhere is a scope of its own entered: a second AsyncLocalStorage frame on every request
 * bought nothing.
 */
export function payingPlatformPoints<T>(payer: PlatformPointsPayer, fn: () => Promise<T>): Promise<T> {
  const outer = scopes.getStore();
  if (outer && outer.payer === undefined) {
    outer.payer = payer;
    return fn();
  }
  return scopes.run({ log: outer?.log ?? {}, memo: outer?.memo ?? new Map(), payer }, fn);
}

/** Runs fn in the current request's scope without its payer: work that is not the caller's request. */
export function withoutPayer<T>(fn: () => Promise<T>): Promise<T> {
  const outer = scopes.getStore();
  return outer?.payer === undefined ? fn() : scopes.run({ log: outer.log, memo: outer.memo }, fn);
}

/** Before a platform attempt: the scope's payer may refuse it. */
export async function beforePlatformAttempt(): Promise<void> {
  await scopes.getStore()?.payer?.beforeAttempt();
}

/** One platform answer and the points it spent: into the access log, and charged to the scope's payer. */
export function recordPlatformAnswer(points: number): void {
  annotateRequest({ platformRequests: 1, platformPoints: points });
  scopes.getStore()?.payer?.spent(points);
}

/** The value of `produce` computed once per request (every call when there is no request scope). */
export function oncePerRequest<T>(key: string, produce: () => Promise<T>): Promise<T> {
  const memo = scopes.getStore()?.memo;
  if (!memo) return produce();
  let value = memo.get(key) as Promise<T> | undefined;
  if (!value) {
    value = produce();
    memo.set(key, value);
  }
  return value;
}

/** The operation the current request serves, as annotated (for labelling what it costs). */
export function currentOperation(): string | undefined {
  return scopes.getStore()?.log.operation;
}
