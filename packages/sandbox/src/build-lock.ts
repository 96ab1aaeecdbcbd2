import { mkdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "./config";

/**
 * Test files run in parallel (and several people may test in one tree): a build empties build/ while
 * another sandbox may be about to import it. One build-and-start at a time, across processes.
 */
export async function withBuildLock<T>(run: () => T | Promise<T>): Promise<T> {
  const lock = path.join(repoRoot, ".cache/sandbox-build.lock");
  mkdirSync(path.dirname(lock), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 180_000) rmSync(lock, { recursive: true, force: true }); // left by a killed run
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    return await run();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
