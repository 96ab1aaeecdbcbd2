import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type pg from "pg";
import { parseDatabaseUrl } from "../../../app/config/database-url";
import { serveEmbeddedPostgres } from "../../../app/infrastructure/database/embedded.server";
import { applyMigrations, readMigrations } from "../../../app/infrastructure/database/migrations.server";
import { createPool } from "../../../app/infrastructure/database/pool.server";
import { repoRoot } from "./config";

/**
 * Where the run's test databases come from, decided once by the global setup: the embedded default
 * (PGlite dumps each file loads its own copy of; a pglite: DATABASE_URL means the same), or the
 * PostgreSQL server a postgres:// DATABASE_URL named when the run started (a migrated template
 * database each file copies).
 */
export type TestDatabases =
  | { kind: "embedded"; emptyDump: string; migratedDump: string }
  | { kind: "postgres"; serverUrl: string; template: string; prefix: string };

export interface TestDatabase {
  /** postgres:// URL of a database no other test file uses. */
  url: string;
  drop(): Promise<void>;
}

// Every test database's name starts with this and the run's start time, so a run that was killed
// before its teardown is cleaned up by a later one.
const NAME_PREFIX = "saved_items_test_";
const STALE_AFTER_MS = 2 * 60 * 60 * 1000;

function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A statement on the server's maintenance connection (CREATE/DROP DATABASE cannot run in a database being copied). */
async function onServer<T>(serverUrl: string, run: (pool: pg.Pool) => Promise<T>): Promise<T> {
  const pool = createPool(serverUrl, { max: 1 });
  try {
    return await run(pool);
  } finally {
    await pool.end();
  }
}

async function dropStaleDatabases(serverUrl: string): Promise<void> {
  await onServer(serverUrl, async (pool) => {
    const { rows } = await pool.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE starts_with(datname, $1)",
      [NAME_PREFIX],
    );
    for (const { datname } of rows) {
      const startedAt = Number.parseInt(datname.slice(NAME_PREFIX.length).split("_")[0] ?? "", 36);
      if (Date.now() - startedAt > STALE_AFTER_MS)
        await pool.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    }
  });
}

const DUMP_CACHE = path.join(repoRoot, ".cache/test-databases");

/**
 * PGlite's initdb takes seconds, a copy of its result a fraction of one: the dumps (empty, and
 * migrated) are kept between runs (and for the sandbox) under a key of everything they are made from.
 */
export async function embeddedDumps(): Promise<{ emptyDump: string; migratedDump: string }> {
  const key = createHash("sha256")
    .update(readFileSync(path.join(repoRoot, "node_modules/@electric-sql/pglite/package.json")))
    .update(readFileSync(path.join(repoRoot, "app/infrastructure/database/migrations.server.ts")))
    .update(
      readMigrations()
        .map((migration) => `${migration.name}:${migration.checksum}`)
        .join("\n"),
    )
    .digest("hex")
    .slice(0, 16);
  const dir = path.join(DUMP_CACHE, key);
  const dumps = { emptyDump: path.join(dir, "empty.tar"), migratedDump: path.join(dir, "migrated.tar") };
  if (existsSync(dir)) return dumps;

  mkdirSync(DUMP_CACHE, { recursive: true });
  // Other keys' dumps are outdated, but a run that started before the change may still be reading them.
  for (const entry of readdirSync(DUMP_CACHE)) {
    const file = path.join(DUMP_CACHE, entry);
    if (Date.now() - statSync(file).mtimeMs > 60 * 60 * 1000) rmSync(file, { recursive: true, force: true });
  }
  const building = mkdtempSync(path.join(DUMP_CACHE, "building-"));
  const db = await PGlite.create();
  await writeFile(path.join(building, "empty.tar"), Buffer.from(await (await db.dumpDataDir("none")).arrayBuffer()));
  const embedded = await serveEmbeddedPostgres(db);
  const pool = createPool(embedded.url, { max: 1 });
  await applyMigrations(pool).finally(() => pool.end());
  await writeFile(path.join(building, "migrated.tar"), Buffer.from(await (await db.dumpDataDir("none")).arrayBuffer()));
  await embedded.stop();
  try {
    renameSync(building, dir);
  } catch {
    rmSync(building, { recursive: true, force: true }); // a run beside this one got there first
  }
  return dumps;
}

/** For the global setup: migrates once what every test file then copies. Returns the teardown. */
export async function prepareTestDatabases(): Promise<{ databases: TestDatabases; teardown: () => Promise<void> }> {
  const target = process.env.DATABASE_URL ? parseDatabaseUrl(process.env.DATABASE_URL) : undefined;
  if (target?.kind !== "postgres") {
    return { databases: { kind: "embedded", ...(await embeddedDumps()) }, teardown: async () => {} };
  }

  const serverUrl = target.url;
  await dropStaleDatabases(serverUrl);
  const prefix = `${NAME_PREFIX}${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  const template = `${prefix}_template`;
  await onServer(serverUrl, (pool) => pool.query(`CREATE DATABASE "${template}"`));
  await onServer(databaseUrl(serverUrl, template), applyMigrations);
  return {
    databases: { kind: "postgres", serverUrl, template, prefix },
    teardown: async () => {
      await onServer(serverUrl, (pool) => pool.query(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`));
    },
  };
}

/**
 * The run's test databases and, when they are a PostgreSQL server's, the embedded ones too: for
 * the tests of what the embedded database must do as well as a server (its wire protocol, the
 * migrations), which a run against a server would otherwise never try on it.
 */
export async function everyKindOfTestDatabases(run: TestDatabases): Promise<TestDatabases[]> {
  return run.kind === "embedded" ? [run] : [run, { kind: "embedded", ...(await embeddedDumps()) }];
}

/** A database of this file's own: migrated, or empty (no schema at all) for tests of the migrations themselves. */
export async function createTestDatabase(
  databases: TestDatabases,
  options: { empty?: boolean } = {},
): Promise<TestDatabase> {
  if (databases.kind === "embedded") {
    const dump = await readFile(options.empty ? databases.emptyDump : databases.migratedDump);
    const embedded = await serveEmbeddedPostgres(await PGlite.create({ loadDataDir: new Blob([dump]) }));
    return { url: embedded.url, drop: embedded.stop };
  }
  const name = `${databases.prefix}_${randomBytes(4).toString("hex")}`;
  const source = options.empty ? "template0" : databases.template;
  await onServer(databases.serverUrl, (pool) => pool.query(`CREATE DATABASE "${name}" TEMPLATE "${source}"`));
  return {
    url: databaseUrl(databases.serverUrl, name),
    drop: async () => {
      await onServer(databases.serverUrl, (pool) => pool.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}
