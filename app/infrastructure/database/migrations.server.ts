import { writeLog } from "~/lib/json-log";
import { createHash, randomUUID } from "node:crypto";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type pg from "pg";

// Our own runner because `prisma migrate deploy` through the JS schema engine and adapter-pg fails
// on PostgreSQL (prisma/orm#27403), and the native engines cannot be downloaded everywhere we run.
// It keeps Prisma's bookkeeping table, so Prisma's CLI on a machine with the engines agrees with it.

export interface Migration {
  name: string;
  sql: string;
  /** What Prisma stores: the SHA-256 of migration.sql, in hex. */
  checksum: string;
}

export interface MigrationOptions {
  migrationsDir?: string;
}

export interface MigrationStatus {
  ok: boolean;
  /** In the code, not applied to the database yet. */
  missing: string[];
  /** Applied to the database, unknown to the code: a newer release migrated it. */
  unknown: string[];
}

/**
 * The bundled server (build/server/index.js) and the sources (app/infrastructure/database/) sit at different
 * depths below the repository, so the migrations are looked up from wherever this module ended up.
 */
function findMigrationsDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, "prisma", "migrations");
    if (existsSync(candidate)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`No prisma/migrations directory above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

/** Migrations in the order Prisma applies them: by directory name, which starts with a timestamp. */
export function readMigrations(migrationsDir: string = findMigrationsDir()): Migration[] {
  return readdirSync(migrationsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(migrationsDir, entry.name, "migration.sql")))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(migrationsDir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

// Prisma's own definition, so `prisma migrate status` can read what we wrote.
const CREATE_BOOKKEEPING_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

// Prisma's migration lock key: our runner and Prisma's CLI exclude each other too.
const ADVISORY_LOCK_KEY = 72707369;
const LOCK_WAIT_MS = 120_000;
const LOCK_RETRY_MS = 250;

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
}

type Queryable = Pick<pg.Pool, "query"> | pg.PoolClient;

/** Rows of migrations that count as applied or failed; a rolled-back one is applied again, as Prisma does. */
async function appliedRows(db: Queryable): Promise<AppliedRow[] | undefined> {
  const table = await db.query<{ exists: boolean }>(
    `SELECT to_regclass('"_prisma_migrations"') IS NOT NULL AS "exists"`,
  );
  if (!table.rows[0]?.exists) return undefined;
  const result = await db.query<AppliedRow>(
    `SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL ORDER BY started_at`,
  );
  return result.rows;
}

function compare(code: Migration[], rows: AppliedRow[]): MigrationStatus {
  const known = new Set(code.map((migration) => migration.name));
  const finished = new Set(rows.filter((row) => row.finished_at).map((row) => row.migration_name));
  const missing = code.filter((migration) => !finished.has(migration.name)).map((migration) => migration.name);
  const unknown = [...new Set(rows.map((row) => row.migration_name))].filter((name) => !known.has(name));
  return { ok: missing.length === 0 && unknown.length === 0, missing, unknown };
}

/** Whether the database has exactly the code's migrations; for readiness checks, takes no lock. */
export async function checkMigrationsApplied(pool: pg.Pool, options: MigrationOptions = {}): Promise<MigrationStatus> {
  const code = readMigrations(options.migrationsDir);
  return compare(code, (await appliedRows(pool)) ?? []);
}

async function acquireLock(client: pg.PoolClient): Promise<void> {
  // Polling instead of a blocking pg_advisory_lock: the wait stays bounded without changing the
  // session's timeouts, which on PGlite every connection shares.
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    const result = await client.query<{ locked: boolean }>("SELECT pg_try_advisory_lock($1) AS locked", [
      ADVISORY_LOCK_KEY,
    ]);
    if (result.rows[0]?.locked) return;
    if (Date.now() > deadline) {
      throw new Error(
        `Another process has held the migration lock for ${LOCK_WAIT_MS / 1000} s; is a migration stuck?`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS));
  }
}

/**
 * Applies the code's pending migrations, each in its own transaction together with its bookkeeping
 * row, under an advisory lock so that instances starting together migrate once. Refuses a database
 * that a newer release migrated, or where a migration failed half-way under Prisma's CLI.
 * Returns the names of the migrations it applied.
 */
export async function applyMigrations(pool: pg.Pool, options: MigrationOptions = {}): Promise<string[]> {
  const code = readMigrations(options.migrationsDir);
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await acquireLock(client);
    try {
      await client.query(CREATE_BOOKKEEPING_TABLE);
      const rows = (await appliedRows(client)) ?? [];
      const failed = rows.filter((row) => !row.finished_at).map((row) => row.migration_name);
      if (failed.length > 0) {
        throw new Error(
          `Migration ${failed.join(", ")} failed earlier and was not rolled back; repair the database, then mark it with \`prisma migrate resolve\``,
        );
      }
      const status = compare(code, rows);
      if (status.unknown.length > 0) {
        throw new Error(
          `The database has migrations this code does not know: ${status.unknown.join(", ")}; it was migrated by a newer release, so run that release (or roll the database back)`,
        );
      }
      for (const row of rows) {
        const migration = code.find((candidate) => candidate.name === row.migration_name);
        if (migration && migration.checksum !== row.checksum) {
          // Prisma's `migrate deploy` also only warns: the migration ran; the file changed since.
          writeLog("warn", `Migration ${migration.name} was modified after it was applied to this database`);
        }
      }
      const applied: string[] = [];
      for (const migration of code.filter((candidate) => status.missing.includes(candidate.name))) {
        await client.query("BEGIN");
        try {
          // On PGlite every connection is one session, so the advisory lock does not exclude a
          // second migrator there; its transactions do run one at a time, so checking again inside
          // the transaction does.
          const done = await client.query(
            `SELECT 1 FROM "_prisma_migrations" WHERE migration_name = $1 AND finished_at IS NOT NULL AND rolled_back_at IS NULL`,
            [migration.name],
          );
          if (done.rowCount) {
            await client.query("ROLLBACK");
            continue;
          }
          // A migration may legitimately outlast the pool's statement timeout; SET LOCAL ends with it.
          await client.query("SET LOCAL statement_timeout = 0");
          await client.query(migration.sql);
          // now() is the transaction's start, clock_timestamp() the present.
          await client.query(
            `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at, applied_steps_count)
             VALUES ($1, $2, clock_timestamp(), $3, NULL, NULL, now(), 1)`,
            [randomUUID(), migration.checksum, migration.name],
          );
          await client.query("COMMIT");
          applied.push(migration.name);
        } catch (error) {
          await client.query("ROLLBACK");
          throw new Error(`Migration ${migration.name} failed and was rolled back: ${(error as Error).message}`, {
            cause: error,
          });
        }
      }
      return applied;
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [ADVISORY_LOCK_KEY]);
    }
  } catch (error) {
    broken = error as Error;
    throw error;
  } finally {
    // A connection that failed mid-way may be in any state: discard it rather than reuse it.
    client.release(broken);
  }
}
