import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

import { repoRoot } from "@saved-items/platform-emulator/schemas";

// The repository's root, defined once in the package every other builds on.
export { repoRoot };

/** Sandbox-only defaults; a real deployment sets its own and never runs this entry point. */
export const SANDBOX_DEFAULTS = {
  PORT: "3000",
  SHOPIFY_API_KEY: "sandbox-api-key",
  SHOPIFY_API_SECRET: "sandbox-api-secret",
  DIRECT_API_JWT_SECRET: "sandbox-only-direct-api-jwt-secret-do-not-deploy",
  SANDBOX_SEED: path.join(import.meta.dirname, "../seed.example.json"),
  DATABASE_URL: "pglite:memory",
};

export function applySandboxDefaults(): void {
  for (const [key, value] of Object.entries(SANDBOX_DEFAULTS)) process.env[key] ||= value;
  process.env.SHOPIFY_APP_URL ||= `http://localhost:${process.env.PORT}`;
}

/**
 * Where the app instances' request log goes: a file by default, so the banner stays on screen;
 * SANDBOX_LOG=- keeps it on the terminal, SANDBOX_LOG=<file> names another file. Null: the terminal.
 */
export function sandboxLogFile(env: Record<string, string | undefined> = process.env): string | null {
  const setting = env.SANDBOX_LOG;
  if (setting === "-") return null;
  return path.resolve(repoRoot, setting || path.join(".data", `sandbox-${env.PORT ?? SANDBOX_DEFAULTS.PORT}.log`));
}

/** The running sandbox `npm run sign` signs for when no port is given: the one started last. */
const RUNNING_FILE = path.join(repoRoot, ".data", "sandbox-running.json");

export function recordRunningSandbox(port: number): () => void {
  mkdirSync(path.dirname(RUNNING_FILE), { recursive: true });
  writeFileSync(RUNNING_FILE, JSON.stringify({ port, pid: process.pid }));
  return () => {
    if (runningSandboxPort() === port) rmSync(RUNNING_FILE, { force: true });
  };
}

/** The port of the sandbox started last, if it still runs. */
export function runningSandboxPort(): number | undefined {
  try {
    const { port, pid } = JSON.parse(readFileSync(RUNNING_FILE, "utf8")) as { port: number; pid: number };
    process.kill(pid, 0);
    return port;
  } catch {
    return undefined;
  }
}
