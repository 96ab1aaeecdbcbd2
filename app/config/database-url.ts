import path from "node:path";
import { z } from "zod";

/** Where the app's one PostgreSQL schema lives: a PostgreSQL server, or PGlite embedded in the process. */
export type DatabaseTarget = { kind: "postgres"; url: string } | { kind: "embedded"; dataDir: string | "memory" };

/**
 * The embedded default needs no database server, so a fresh clone and a single small instance run
 * as they are. The directory is relative to the working directory: the repository under npm scripts.
 */
export const DEFAULT_DATABASE_URL = "pglite:.data/pglite";

const WHAT_TO_SET =
  "set DATABASE_URL to postgres://USER:PASSWORD@HOST:5432/DATABASE, or to pglite:<directory> or pglite:memory for the embedded database (unset means pglite:.data/pglite)";

/** Why the URL cannot be used, without repeating it: it may carry a password. */
function problemWith(url: string): string | undefined {
  if (url.startsWith("pglite:")) return url.slice("pglite:".length) ? undefined : "names no data directory";
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "is not a URL";
  }
  if (parsed.protocol !== "postgres:" && parsed.protocol !== "postgresql:") {
    return `uses the scheme "${parsed.protocol}", which is neither postgres: nor pglite:`;
  }
  if (!parsed.hostname && !parsed.searchParams.get("host")) return "names no host";
  return undefined;
}

export function parseDatabaseUrl(url: string): DatabaseTarget {
  const problem = problemWith(url);
  if (problem) throw new Error(`DATABASE_URL ${problem}; ${WHAT_TO_SET}`);
  if (!url.startsWith("pglite:")) return { kind: "postgres", url };
  const location = url.slice("pglite:".length);
  return { kind: "embedded", dataDir: location === "memory" ? "memory" : path.resolve(location) };
}

/** For the environment schema, so a malformed URL is reported with every other misconfiguration. */
export const DatabaseUrlSchema = z.string().superRefine((url, context) => {
  const problem = problemWith(url);
  if (problem) context.addIssue({ code: "custom", message: `${problem}; ${WHAT_TO_SET}` });
});
