import { errorFields, writeLog } from "~/lib/json-log";
import pg from "pg";

export interface PoolOptions {
  /** Connections at most; PGlite runs one statement at a time, so the embedded database needs few. */
  max?: number;
}

/**
 * A pool that fails instead of hanging: an unreachable server errors within CONNECT_TIMEOUT_MS and
 * a runaway statement is cancelled by the server after STATEMENT_TIMEOUT_MS, so a request never
 * waits on the database for longer than the platform waits on us.
 */
export const CONNECT_TIMEOUT_MS = 5_000;
export const STATEMENT_TIMEOUT_MS = 15_000;

export function createPool(connectionString: string, options: PoolOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max: options.max ?? 10,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    statement_timeout: STATEMENT_TIMEOUT_MS,
    idleTimeoutMillis: 30_000,
    application_name: "saved-items",
  });
  // An idle connection the server drops (restart, failover) is reported here; without a listener
  // the process would crash. The pool replaces the connection on the next checkout.
  pool.on("error", (error) => writeLog("error", "database connection lost", { error: errorFields(error) }));
  return pool;
}
