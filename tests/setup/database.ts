import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";

const repoRoot = path.resolve(import.meta.dirname, "../..");
const placeholder = path.join(repoRoot, "prisma/.engine-placeholder");

/** Applies the committed migrations to a SQLite file with the JS schema engine (no engine download). */
export function migrateDatabase(file: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  execFileSync(path.join(repoRoot, "node_modules/.bin/prisma"), ["migrate", "deploy"], {
    cwd: repoRoot,
    env: {
      ...process.env,
      DATABASE_URL: `file:${file}`,
      PRISMA_QUERY_ENGINE_LIBRARY: placeholder,
      PRISMA_SCHEMA_ENGINE_BINARY: placeholder,
      PRISMA_HIDE_UPDATE_MESSAGE: "1",
    },
    stdio: "pipe",
  });
}
