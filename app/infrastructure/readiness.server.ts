import { readdirSync } from "node:fs";
import path from "node:path";
import type pg from "pg";
import { getEnv } from "~/config/env.server";
import { getCoordinator } from "~/infrastructure/coordination/shared-coordinator.server";
import { OUTAGE_STALENESS_MS } from "~/infrastructure/database/availability.server";
import type { Dependency } from "~/lib/dependencies";

export interface ReadinessCheck {
  ok: boolean;
  detail?: string;
}

/** The app's database as readiness asks it: the pool db.server.ts opens, handed in by the entry module. */
export type ReadinessDatabase = Pick<pg.Pool, "query">;

export interface Readiness {
  ok: boolean;
  /**
   * The shared dependencies this instance cannot reach now, by the names the error log uses
   * (absent from the answers the HTTP server makes for itself: shutting down, a check that threw).
   */
  away?: Dependency[];
  checks: Record<string, ReadinessCheck>;
}

/** Each check gets this long; a dependency that hangs makes the instance unready, not /readyz slow. */
const CHECK_TIMEOUT_MS = 2_000;

async function bounded(name: string, check: () => Promise<ReadinessCheck>): Promise<ReadinessCheck> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<ReadinessCheck>((resolve) => {
    timer = setTimeout(
      () => resolve({ ok: false, detail: `${name} did not answer within ${CHECK_TIMEOUT_MS} ms` }),
      CHECK_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([
      check().catch((error: unknown) => ({ ok: false, detail: `${name} failed: ${describe(error)}` })),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** A short reason without connection strings or credentials (first line, no URLs). */
function describe(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const firstLine = text.split("\n").find((line) => line.trim()) ?? "unknown error";
  return firstLine.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, "[url]").slice(0, 200);
}

/** The migrations shipped with the app (prisma/migrations/<name>/), or undefined where there are none. */
function shippedMigrations(): string[] | undefined {
  try {
    return readdirSync(path.resolve("prisma/migrations"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
  } catch {
    return undefined;
  }
}

async function checkDatabase(database: ReadinessDatabase): Promise<ReadinessCheck> {
  await database.query("SELECT 1");
  return { ok: true };
}

async function checkMigrations(database: ReadinessDatabase): Promise<ReadinessCheck> {
  const { rows } = await database.query<{ migration_name: string; finished_at: unknown; rolled_back_at: unknown }>(
    "SELECT migration_name, finished_at, rolled_back_at FROM _prisma_migrations",
  );
  const unfinished = rows.filter((row) => row.finished_at === null && row.rolled_back_at === null);
  if (unfinished.length)
    return { ok: false, detail: `migration not finished: ${unfinished.map((row) => row.migration_name).join(", ")}` };
  const applied = new Set(
    rows.filter((row) => row.finished_at !== null && row.rolled_back_at === null).map((row) => row.migration_name),
  );
  const shipped = shippedMigrations();
  if (!shipped)
    return applied.size
      ? { ok: true, detail: `${applied.size} applied` }
      : { ok: false, detail: "no migration applied" };
  const pending = shipped.filter((name) => !applied.has(name));
  return pending.length
    ? { ok: false, detail: `pending: ${pending.join(", ")}` }
    : { ok: true, detail: `${shipped.length} applied` };
}

async function checkRedis(): Promise<ReadinessCheck> {
  const coordinator = getCoordinator();
  if (coordinator.kind !== "redis")
    return { ok: false, detail: "REDIS_URL is set but this process coordinates in-process only" };
  await coordinator.readVersions(["readiness-probe"]);
  return { ok: true };
}

/** What readiness knows: this round's checks, and whether the instance was ever ready and since when the database has been away. */
export interface ReadinessFacts {
  databaseOk: boolean;
  migrationsOk: boolean;
  /** undefined without REDIS_URL. */
  redisOk: boolean | undefined;
  /** Whether an earlier round found the database and every migration in place. */
  everReady: boolean;
  /** How long the database has been away by these rounds' count (0 while it answers). */
  databaseAwayMs: number;
}

/**
 * Whether to take traffic. An instance that has never reached the database and seen its migrations
 * holds nothing to serve from, so it waits. One that has keeps serving through a database outage
 * for as long as its memory vouches for what it holds (decision 0027's `OUTAGE_STALENESS_MS`), and
 * through a Redis outage (its list locks fall back to PostgreSQL, decision 0026), but not through
 * both at once: nothing then vouches for what it holds, nor grants a lock. A readiness that turned
 * red on either outage would make a load balancer take every instance out together and turn the
 * outage of one dependency into a full one.
 */
export function isReady(facts: ReadinessFacts): boolean {
  if (facts.databaseOk) return facts.migrationsOk;
  if (!facts.everReady || facts.redisOk === false) return false;
  return facts.databaseAwayMs < OUTAGE_STALENESS_MS;
}

let everReady = false;
let databaseAwaySinceMs: number | undefined;

/**
 * Whether this instance can serve (isReady), with each check and `away` naming the dependencies
 * that do not answer. The HTTP server calls it (through the build's entry module) for GET /readyz.
 */
export async function readiness(database: ReadinessDatabase): Promise<Readiness> {
  const answered = await bounded("database", () => checkDatabase(database));
  const checks: Record<string, ReadinessCheck> = { database: answered };
  checks.migrations = answered.ok
    ? await bounded("migrations", () => checkMigrations(database))
    : { ok: false, detail: "database unavailable" };
  if (getEnv().REDIS_URL) checks.redis = await bounded("redis", checkRedis);
  const away: Dependency[] = [];
  if (!answered.ok) away.push("postgres");
  if (checks.redis && !checks.redis.ok) away.push("redis");
  const nowMs = Date.now();
  if (answered.ok) databaseAwaySinceMs = undefined;
  else databaseAwaySinceMs ??= nowMs;
  const ok = isReady({
    databaseOk: answered.ok,
    migrationsOk: checks.migrations.ok,
    redisOk: checks.redis?.ok,
    everReady,
    databaseAwayMs: databaseAwaySinceMs === undefined ? 0 : nowMs - databaseAwaySinceMs,
  });
  if (ok && answered.ok) everReady = true;
  return { ok, away, checks };
}
