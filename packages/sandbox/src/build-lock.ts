import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { isAlive } from "@saved-items/platform-emulator/processes";
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

// Keyed by the parent process: for a test worker, the vitest process of the run.
const RUN_BUILDS = path.join(repoRoot, ".cache/run-builds");
const runMarker = (runPid = process.ppid) => path.join(RUN_BUILDS, String(runPid));

/**
 * Whether build/ holds the production build this run's first sandbox made (`npm run sandbox`).
 * Later sandboxes of the run start on it: one build per run instead of one per test file that
 * starts a sandbox (about 40 s of both cores each), and no build empties build/ under them.
 */
export function builtThisRun(): boolean {
  return existsSync(runMarker());
}

export function markBuiltThisRun(): void {
  mkdirSync(RUN_BUILDS, { recursive: true });
  for (const marker of readdirSync(RUN_BUILDS)) {
    if (!isAlive(Number(marker))) rmSync(path.join(RUN_BUILDS, marker), { force: true });
  }
  writeFileSync(runMarker(), "");
}

/** For the test run's global setup (the workers' parent): a marker left under a reused process id is not this run's build. */
export function forgetRunBuild(runPid: number = process.pid): void {
  rmSync(runMarker(runPid), { force: true });
}
