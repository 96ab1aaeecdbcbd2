import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type pg from "pg";
import { repoRoot } from "@saved-items/sandbox/config";
import { afterAll, afterEach, describe, expect, inject, test } from "vitest";
import { applyMigrations, checkMigrationsApplied, readMigrations } from "~/infrastructure/database/migrations.server";
import { createPool } from "~/infrastructure/database/pool.server";
import {
  createTestDatabase,
  everyKindOfTestDatabases,
  type TestDatabase,
  type TestDatabases,
} from "@saved-items/sandbox/test-databases";

const migrationsDir = path.join(repoRoot, "prisma/migrations");
const codeMigrations = readMigrations().map((migration) => migration.name);

const opened: { database: TestDatabase; pool: pg.Pool }[] = [];
afterEach(async () => {
  for (const { database, pool } of opened.splice(0)) {
    await pool.end();
    await database.drop();
  }
});

/** A database with no schema at all (of the kind the tests run on), and a pool on it. */
async function emptyDatabase(kind: TestDatabases): Promise<{ url: string; pool: pg.Pool }> {
  const database = await createTestDatabase(kind, { empty: true });
  const pool = createPool(database.url, { max: 4 });
  opened.push({ database, pool });
  return { url: database.url, pool };
}

const scratch = mkdtempSync(path.join(tmpdir(), "saved-items-migrations-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The committed migrations plus some of a test's own. */
function migrationsWith(extra: Record<string, string>): string {
  const dir = mkdtempSync(path.join(scratch, "dir-"));
  cpSync(migrationsDir, dir, { recursive: true });
  for (const [name, sql] of Object.entries(extra)) {
    mkdirSync(path.join(dir, name));
    writeFileSync(path.join(dir, name, "migration.sql"), sql);
  }
  return dir;
}

/** What the schema says the database should be, from Prisma itself (its JS engine needs a connection). */
async function schemaSql(connectTo: string): Promise<string> {
  const placeholder = path.join(repoRoot, "prisma/.engine-placeholder");
  // Asynchronously: an embedded database is served by this very process.
  const { stdout } = await promisify(execFile)(
    path.join(repoRoot, "node_modules/.bin/prisma"),
    ["migrate", "diff", "--from-empty", "--to-schema-datamodel", "prisma/schema.prisma", "--script"],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        DATABASE_URL: connectTo,
        PRISMA_QUERY_ENGINE_LIBRARY: placeholder,
        PRISMA_SCHEMA_ENGINE_BINARY: placeholder,
        PRISMA_HIDE_UPDATE_MESSAGE: "1",
      },
    },
  );
  return stdout;
}

/** Everything a schema change can change, in a stable order; column order is not compared. */
async function catalog(pool: pg.Pool) {
  const scope = `n.nspname = 'public' AND c.relname <> '_prisma_migrations'`;
  const rows = async (sql: string) => (await pool.query(sql)).rows;
  return {
    relations: await rows(`
      SELECT c.relname AS name, c.relkind AS kind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE ${scope} AND c.relkind IN ('r', 'p', 'v', 'm', 'S') ORDER BY 1`),
    columns: await rows(`
      SELECT c.relname AS table, a.attname AS column, format_type(a.atttypid, a.atttypmod) AS type,
             a.attnotnull AS "notNull", pg_get_expr(d.adbin, d.adrelid) AS default
      FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      WHERE ${scope} AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped ORDER BY 1, 2`),
    constraints: await rows(`
      SELECT c.relname AS table, con.conname AS name, con.contype AS kind, pg_get_constraintdef(con.oid) AS definition
      FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE ${scope} ORDER BY 1, 2`),
    indexes: await rows(`
      SELECT tablename AS table, indexname AS name, indexdef AS definition FROM pg_indexes
      WHERE schemaname = 'public' AND tablename <> '_prisma_migrations' ORDER BY 1, 2`),
    enums: await rows(`
      SELECT t.typname AS type, e.enumlabel AS label FROM pg_enum e JOIN pg_type t ON t.oid = e.enumtypid
      JOIN pg_namespace n ON n.oid = t.typnamespace WHERE n.nspname = 'public' ORDER BY 1, e.enumsortorder`),
  };
}

const kinds = await everyKindOfTestDatabases(inject("testDatabases"));

describe.each(kinds.map((databases) => [databases.kind, databases] as const))("the migrations (%s)", (_, databases) => {
  test("produce exactly the schema in prisma/schema.prisma (a schema change needs a migration)", async () => {
    const migrated = await emptyDatabase(databases);
    await applyMigrations(migrated.pool);
    const fromSchema = await emptyDatabase(databases);
    await fromSchema.pool.query(await schemaSql(fromSchema.url));

    const expected = await catalog(fromSchema.pool);
    expect(expected.relations.map((relation) => relation.name)).toEqual(
      expect.arrayContaining(["PendingCustomerRedaction", "Session", "Shop", "UsageCounter"]),
    );
    expect(await catalog(migrated.pool)).toEqual(expected);
  }, 60_000);

  test("are recorded in Prisma's own bookkeeping table, checksum and all, and applied once", async () => {
    const { pool } = await emptyDatabase(databases);
    expect(await checkMigrationsApplied(pool)).toEqual({ ok: false, missing: codeMigrations, unknown: [] });

    expect(await applyMigrations(pool)).toEqual(codeMigrations);
    const { rows } = await pool.query(
      `SELECT migration_name, checksum, finished_at, rolled_back_at, applied_steps_count, started_at FROM "_prisma_migrations" ORDER BY migration_name`,
    );
    expect(rows).toEqual(
      codeMigrations.map((name) => ({
        migration_name: name,
        checksum: createHash("sha256")
          .update(readFileSync(path.join(migrationsDir, name, "migration.sql")))
          .digest("hex"),
        finished_at: expect.any(Date),
        rolled_back_at: null,
        applied_steps_count: 1,
        started_at: expect.any(Date),
      })),
    );
    expect(await applyMigrations(pool)).toEqual([]);
    expect(await checkMigrationsApplied(pool)).toEqual({ ok: true, missing: [], unknown: [] });
  });

  test("instances starting together migrate once", async () => {
    const { url, pool } = await emptyDatabase(databases);
    const instances = Array.from({ length: 4 }, () => createPool(url, { max: 2 }));
    try {
      const applied = await Promise.all(instances.map((instance) => applyMigrations(instance)));
      expect(applied.flat()).toEqual(codeMigrations);
    } finally {
      await Promise.all(instances.map((instance) => instance.end()));
    }
    const { rows } = await pool.query(`SELECT count(*)::int AS count FROM "_prisma_migrations"`);
    expect(rows[0].count).toBe(codeMigrations.length);
  });

  test("a database migrated by a newer release is refused, naming the migration the code does not know", async () => {
    const { pool } = await emptyDatabase(databases);
    const newer = migrationsWith({ "29990101000000_newer": `CREATE TABLE "Newer" ("id" INTEGER NOT NULL);` });
    await applyMigrations(pool, { migrationsDir: newer });

    await expect(applyMigrations(pool)).rejects.toThrow(/migrations this code does not know: 29990101000000_newer/);
    expect(await checkMigrationsApplied(pool)).toEqual({ ok: false, missing: [], unknown: ["29990101000000_newer"] });
  });

  test("a failing migration leaves nothing behind: no half-applied statements, no record", async () => {
    const { pool } = await emptyDatabase(databases);
    const broken = migrationsWith({
      "29990101000000_broken": `CREATE TABLE "Half" ("id" INTEGER NOT NULL);\nSELECT 1 / 0;`,
    });

    await expect(applyMigrations(pool, { migrationsDir: broken })).rejects.toThrow(
      /Migration 29990101000000_broken failed and was rolled back: division by zero/,
    );
    const { rows } = await pool.query(`SELECT to_regclass('"Half"') IS NULL AS absent`);
    expect(rows[0].absent).toBe(true);
    expect(await checkMigrationsApplied(pool, { migrationsDir: broken })).toEqual({
      ok: false,
      missing: ["29990101000000_broken"],
      unknown: [],
    });
  });
});
