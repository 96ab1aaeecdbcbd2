import { describe, expect, test } from "vitest";
import { OUTAGE_STALENESS_MS } from "~/infrastructure/database/availability.server";
import { isReady, type ReadinessFacts } from "./readiness.server";

const healthy: ReadinessFacts = {
  databaseOk: true,
  migrationsOk: true,
  redisOk: true,
  everReady: true,
  databaseAwayMs: 0,
};

describe("isReady", () => {
  test("ready with every dependency answering and every migration applied", () => {
    expect(isReady(healthy)).toBe(true);
    expect(isReady({ ...healthy, redisOk: undefined })).toBe(true);
  });

  test("a migration not applied keeps the instance out", () => {
    expect(isReady({ ...healthy, migrationsOk: false })).toBe(false);
  });

  test("Redis away alone: still ready, its list locks fall back to PostgreSQL", () => {
    expect(isReady({ ...healthy, redisOk: false })).toBe(true);
  });

  test("PostgreSQL away: ready while memory vouches for what the instance holds, once it was ready", () => {
    const away = { ...healthy, databaseOk: false, migrationsOk: false };
    expect(isReady({ ...away, databaseAwayMs: 1_000 })).toBe(true);
    expect(isReady({ ...away, databaseAwayMs: OUTAGE_STALENESS_MS - 1 })).toBe(true);
    expect(isReady({ ...away, databaseAwayMs: OUTAGE_STALENESS_MS })).toBe(false);
  });

  test("PostgreSQL away at start: an instance that never loaded anything waits", () => {
    expect(isReady({ ...healthy, databaseOk: false, migrationsOk: false, everReady: false })).toBe(false);
  });

  test("PostgreSQL and Redis away together: nothing vouches for what is held, nothing grants a lock", () => {
    expect(isReady({ ...healthy, databaseOk: false, migrationsOk: false, redisOk: false, databaseAwayMs: 1 })).toBe(
      false,
    );
  });
});
