import { errorFields, writeLog } from "~/lib/json-log";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { applyMigrations } from "./migrations.server";
import { servePGlite } from "./pglite-server.server";
import { createPool } from "./pool.server";

export interface EmbeddedPostgres {
  /** postgres:// URL of the server on 127.0.0.1; any number of `pg` pools in any process may use it. */
  url: string;
  /** Closes the server and the database (flushing a data directory); safe to call twice. */
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  /** A data directory (created if missing, kept across runs) or "memory" (the default: gone at stop). */
  dataDir?: string | "memory";
}

/**
 * Serves a PGlite over the PostgreSQL wire protocol on an ephemeral loopback port, so the app reaches
 * it through the same `pg` driver and adapter as a real server. PGlite is a single session: the
 * server runs one connection's batch or transaction at a time, and session settings and advisory
 * locks are shared by every connection.
 */
export async function serveEmbeddedPostgres(db: PGlite): Promise<EmbeddedPostgres> {
  const server = await servePGlite(db, { host: "127.0.0.1", port: 0 });
  let stopped: Promise<void> | undefined;
  return {
    url: `postgres://postgres@127.0.0.1:${server.port}/postgres`,
    stop: () =>
      (stopped ??= (async () => {
        await server.close();
        await db.close();
      })()),
  };
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * PGlite takes no lock on its data directory, and two processes writing one would corrupt it: a
 * lock file beside the directory names the owner. Returns its release.
 */
function claimDataDir(dataDir: string): () => void {
  const lockFile = `${dataDir}.lock`;
  for (;;) {
    try {
      writeFileSync(lockFile, String(process.pid), { flag: "wx" });
      return () => rmSync(lockFile, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = Number(readFileSync(lockFile, "utf8"));
      if (isRunning(owner)) {
        throw new Error(
          `The embedded database in ${dataDir} is open in process ${owner}, and one process owns it: stop that process, or have it serve the database and connect to its postgres:// URL`,
        );
      }
      rmSync(lockFile, { force: true }); // left by a process that died without stopping the database
    }
  }
}

/**
 * Starts PGlite with the app's schema migrated, served on 127.0.0.1. One process owns a data
 * directory: several app processes share the database by connecting to this process's URL.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions = {}): Promise<EmbeddedPostgres> {
  const dataDir = options.dataDir ?? "memory";
  if (dataDir === "memory") return migrated(await serveEmbeddedPostgres(await PGlite.create()));
  mkdirSync(dataDir, { recursive: true });
  const release = claimDataDir(dataDir);
  try {
    const embedded = await migrated(await serveEmbeddedPostgres(await PGlite.create({ dataDir })));
    let stopped: Promise<void> | undefined;
    return { url: embedded.url, stop: () => (stopped ??= embedded.stop().finally(release)) };
  } catch (error) {
    release();
    throw error;
  }
}

async function migrated(embedded: EmbeddedPostgres): Promise<EmbeddedPostgres> {
  const pool = createPool(embedded.url, { max: 1 });
  try {
    await applyMigrations(pool).finally(() => pool.end());
    return embedded;
  } catch (error) {
    await embedded.stop();
    throw error;
  }
}

/**
 * Stops an embedded database this process owns when the process is told to end, so a data
 * directory is closed cleanly (nothing else would: the open server keeps the process alive).
 */
export function stopOnTermination(stop: () => Promise<void>): void {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      // A server that also listens (remix-serve) finishes the shutdown itself once nothing is left
      // open; otherwise the process ends the way the signal would have ended it.
      const handledElsewhere = process.listenerCount(signal) > 0;
      stop()
        .catch((error: unknown) =>
          writeLog("error", "stopping the embedded database failed", { error: errorFields(error) }),
        )
        .finally(() => {
          if (!handledElsewhere) process.kill(process.pid, signal);
        });
    });
  }
}
