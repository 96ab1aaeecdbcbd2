// Which dependency a failure comes from, told from the error alone (its cause chain), so the answer
// can say a retry will help and when (Retry-After), and the log line can say what was away.

export type Dependency = "postgres" | "redis" | "platform";

/** What a client is told to wait before retrying a request refused because a dependency is away. */
export const DEPENDENCY_RETRY_AFTER_SECONDS: Record<Dependency, number> = {
  // A managed database fails over or restarts within seconds to a minute; a retry storm helps nobody.
  postgres: 2,
  redis: 1,
  platform: 1,
};

/** Prisma's codes for a server that cannot be reached, closed the connection, timed out or is out of connections. */
const PRISMA_UNAVAILABLE_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);
/** What the driver adapter reports for the same (Prisma's raw queries wrap it in P2010). */
const ADAPTER_UNAVAILABLE_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout"]);
/** SQLSTATE class 08 (connection exception) and the server shutting down or starting (57P01-57P03). */
const SQLSTATE_UNAVAILABLE = /^(08[0-9A-Z]{3}|57P0[123])$/;
/** node-postgres's own messages for a pool that could not connect or a connection that died. */
const PG_UNAVAILABLE_MESSAGE =
  /Can't reach database server|timeout exceeded when trying to connect|Connection terminated|Server has closed the connection/;

type ErrorLike = {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  cause?: unknown;
  meta?: { driverAdapterError?: { cause?: { kind?: unknown; originalCode?: unknown } } };
};

function* causeChain(error: unknown): Generator<ErrorLike> {
  const seen = new Set<unknown>();
  for (let current = error; current && typeof current === "object" && !seen.has(current);) {
    seen.add(current);
    yield current as ErrorLike;
    current = (current as ErrorLike).cause;
  }
}

function isDatabaseUnavailableLink(error: ErrorLike): boolean {
  if (error.name === "PrismaClientInitializationError") return true;
  if (typeof error.code === "string" && PRISMA_UNAVAILABLE_CODES.has(error.code)) return true;
  const adapterCause = error.meta?.driverAdapterError?.cause;
  if (adapterCause && ADAPTER_UNAVAILABLE_KINDS.has(String(adapterCause.kind))) return true;
  if (typeof adapterCause?.originalCode === "string" && SQLSTATE_UNAVAILABLE.test(adapterCause.originalCode))
    return true;
  return typeof error.message === "string" && PG_UNAVAILABLE_MESSAGE.test(error.message);
}

/** The database could not be reached or dropped the connection: waiting can help, the statement did not run. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (const link of causeChain(error)) if (isDatabaseUnavailableLink(link)) return true;
  return false;
}

/**
 * The dependency whose absence made a request fail, or undefined for a failure of the app's own.
 * `serviceCode` is the code the failure is answered with: the platform's failures are already
 * PLATFORM_UPSTREAM_ERROR by the time they reach the answer.
 */
export function dependencyOf(error: unknown, serviceCode?: string): Dependency | undefined {
  if (serviceCode === "PLATFORM_UPSTREAM_ERROR") return "platform";
  for (const link of causeChain(error)) {
    if (link.name === "CoordinatorUnavailableError") return "redis";
    if (link.name === "LockUnavailableError" && typeof link.message === "string" && /Redis/.test(link.message))
      return "redis";
    if (isDatabaseUnavailableLink(link)) return "postgres";
  }
  return undefined;
}
