import { describe, expect, test } from "vitest";
import { dependencyOf, isDatabaseUnavailable } from "./dependencies";

/** The shapes Prisma's driver adapter for node-postgres throws (Prisma 6.19), and what it wraps. */
const socketError = (code: string) =>
  Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code, syscall: "connect", errno: -111 });
const prismaError = (code: string, message: string, kind?: string, originalCode?: string) =>
  Object.assign(new Error(message), {
    name: "PrismaClientKnownRequestError",
    code,
    meta: kind || originalCode ? { driverAdapterError: { cause: { kind, originalCode } } } : undefined,
  });

describe("which dependency a failure comes from", () => {
  test("the database away: unreachable, connection closed or timed out, shutting down, pool exhausted", () => {
    const away = [
      prismaError("P1001", "Can't reach database server at 127.0.0.1:5432", "DatabaseNotReachable"),
      prismaError("P2010", "Raw query failed. Code: `N/A`. Message: `Can't reach database server at 127.0.0.1:5432`"),
      prismaError("P1017", "Server has closed the connection.", "ConnectionClosed"),
      prismaError("P2010", "Raw query failed", undefined, "57P01"),
      prismaError("P2024", "Timed out fetching a new connection from the connection pool."),
      new Error("Unexpected failure", { cause: new Error("timeout exceeded when trying to connect") }),
      new Error("Connection terminated unexpectedly"),
      Object.assign(new Error("init"), { name: "PrismaClientInitializationError" }),
    ];
    for (const error of away) {
      expect(isDatabaseUnavailable(error), String(error)).toBe(true);
      expect(dependencyOf(error, "INTERNAL_ERROR")).toBe("postgres");
    }
  });

  test("the database answering with an error of the statement's own is no outage", () => {
    const own = [
      prismaError("P2002", "Unique constraint failed", "UniqueConstraintViolation"),
      prismaError("P2010", "Raw query failed", undefined, "23505"),
      new Error("something else"),
      socketError("ECONNREFUSED"),
    ];
    for (const error of own) {
      expect(isDatabaseUnavailable(error), String(error)).toBe(false);
      expect(dependencyOf(error, "INTERNAL_ERROR")).toBeUndefined();
    }
  });

  test("Redis and the platform", () => {
    const redisAway = Object.assign(new Error("Redis did not answer"), { name: "CoordinatorUnavailableError" });
    expect(dependencyOf(new Error("wrapped", { cause: redisAway }), "INTERNAL_ERROR")).toBe("redis");
    const lock = Object.assign(new Error("The locks could not be taken: Redis is unreachable; retry shortly"), {
      name: "LockUnavailableError",
    });
    expect(dependencyOf(lock, "INTERNAL_ERROR")).toBe("redis");
    expect(dependencyOf(new TypeError("fetch failed"), "PLATFORM_UPSTREAM_ERROR")).toBe("platform");
  });

  test("a cause chain that loops ends", () => {
    const error: Error & { cause?: unknown } = new Error("a");
    error.cause = error;
    expect(dependencyOf(error, "INTERNAL_ERROR")).toBeUndefined();
  });
});
