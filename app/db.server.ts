import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@prisma/client";
import type pg from "pg";
import { databaseTarget } from "./config/env.server";
import { provideCoordinationDatabase } from "./infrastructure/coordination/shared-coordinator.server";
import {
  startEmbeddedPostgres,
  stopOnTermination,
  type EmbeddedPostgres,
} from "./infrastructure/database/embedded.server";
import { createPool } from "./infrastructure/database/pool.server";

interface Database {
  prisma: PrismaClient;
  pool: pg.Pool;
  close(): Promise<void>;
}

declare global {
  var databaseGlobal: Database | undefined;
}

// PGlite runs one statement at a time: a few connections keep it busy; more would only queue.
const EMBEDDED_POOL_SIZE = 4;

/**
 * A PostgreSQL URL gets a pool on that server, whose schema `npm run db:migrate` (or applyMigrations
 * at the server's start) keeps current. Otherwise this process owns the embedded database: it
 * starts PGlite, migrates it and serves it on loopback before anything can query it.
 */
async function openDatabase(): Promise<Database> {
  const target = databaseTarget();
  let embedded: EmbeddedPostgres | undefined;
  let pool: pg.Pool;
  if (target.kind === "postgres") {
    pool = createPool(target.url);
  } else {
    embedded = await startEmbeddedPostgres({ dataDir: target.dataDir });
    pool = createPool(embedded.url, { max: EMBEDDED_POOL_SIZE });
  }
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  let closed: Promise<void> | undefined;
  const close = () =>
    (closed ??= (async () => {
      await prisma.$disconnect();
      await pool.end();
      await embedded?.stop();
    })());
  if (embedded) stopOnTermination(close);
  return { prisma, pool, close };
}

// Dev-server reloads re-evaluate modules: the database is opened once per process, as an embedded
// one's data directory admits a single owner.
const database = globalThis.databaseGlobal ?? (await openDatabase());
globalThis.databaseGlobal = database;

/** The pool under the Prisma client, for what Prisma does not do (migration checks, health, list locks without Redis). */
export const pool = database.pool;
provideCoordinationDatabase(pool);

export type DatabaseHealth = { ok: true; latencyMs: number } | { ok: false; error: string };

/** One round trip; a down database answers within the pool's connect timeout, not never. */
export async function databaseHealth(): Promise<DatabaseHealth> {
  const started = performance.now();
  try {
    await pool.query("SELECT 1");
    return { ok: true, latencyMs: Math.round(performance.now() - started) };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

/** Ends the pool (and stops the embedded database when this process owns one). */
export function closeDatabase(): Promise<void> {
  return database.close();
}

export default database.prisma;
