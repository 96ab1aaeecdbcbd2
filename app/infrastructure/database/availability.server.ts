// What this process knows of PostgreSQL's reachability, for the steps of a request that can answer
// from memory while it is away (decision 0027): they try the database, and after a failure use
// their fallback without trying again for DATABASE_RETRY_MS, so an outage costs one failed attempt
// per retry window, not one per request (a server that drops packets instead of refusing would
// make every attempt wait out the pool's connect timeout).
import { errorFields, writeLog } from "~/lib/json-log";
import { isDatabaseUnavailable } from "~/lib/dependencies";

/** After a failed attempt, fallbacks are used without trying the database for this long. */
export const DATABASE_RETRY_MS = 1_000;

/**
 * While the database is away, what a process cache loaded about a shop (install state and plan,
 * offline session, pending redactions) is still served if its shop version has not changed since
 * and it was loaded at most this long ago (their TTL is 60 s): the staleness decision 0027 states.
 * A change recorded meanwhile by any instance bumps the version and is seen at once as before.
 */
export const OUTAGE_STALENESS_MS = 120_000;

/** A cache entry as loadOrFallback's fallback: its value while its version holds and it is fresh enough. */
export function staleEntry<Entry extends { version: number; loadedAtMs: number }, T>(
  entry: Entry | undefined,
  version: number,
  value: (entry: Entry) => T,
): () => T | undefined {
  return () =>
    entry && entry.version === version && Date.now() - entry.loadedAtMs <= OUTAGE_STALENESS_MS
      ? value(entry)
      : undefined;
}

let awaySinceMs: number | undefined;
let lastFailureMs = -Infinity;

/** Whether a step with a fallback should use it now rather than try the database. */
export function databaseSeemsAway(): boolean {
  return awaySinceMs !== undefined && Date.now() - lastFailureMs < DATABASE_RETRY_MS;
}

/** Notes a failed attempt when it is the database's unavailability; true when it was. */
export function noteDatabaseFailure(error: unknown): boolean {
  if (!isDatabaseUnavailable(error)) return false;
  lastFailureMs = Date.now();
  if (awaySinceMs !== undefined) return true;
  awaySinceMs = lastFailureMs;
  // Once per outage, naming the dependency, so an operator reading the log knows what the
  // requests served from memory meanwhile are waiting for.
  writeLog("warn", "PostgreSQL unreachable: serving from memory what can be (decision 0027)", {
    dependency: "postgres",
    error: errorFields(error),
  });
  return true;
}

/** Notes an answer from the database. */
export function noteDatabaseAnswer(): void {
  if (awaySinceMs === undefined) return;
  writeLog("info", "PostgreSQL reachable again", { dependency: "postgres", awayMs: Date.now() - awaySinceMs });
  awaySinceMs = undefined;
}

/**
 * `load` from the database, or, while it is unreachable, `fallback` when the caller has one (it
 * returns undefined when it has nothing good enough to answer with: the database's error is thrown
 * then). Errors that are not the database's unavailability are thrown as they are.
 */
export async function loadOrFallback<T>(load: () => Promise<T>, fallback: () => T | undefined): Promise<T> {
  if (databaseSeemsAway()) {
    const answer = fallback();
    if (answer !== undefined) return answer;
  }
  try {
    const loaded = await load();
    noteDatabaseAnswer();
    return loaded;
  } catch (error) {
    if (!noteDatabaseFailure(error)) throw error;
    const answer = fallback();
    if (answer !== undefined) return answer;
    throw error;
  }
}
