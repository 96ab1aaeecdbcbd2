import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { builtThisRun, markBuiltThisRun, withBuildLock } from "./build-lock";
import { repoRoot } from "./config";
import { freePort } from "./ports";

const OUTPUT_KEPT = 256 * 1024;

export interface RunningSandbox {
  url: string;
  /** npm's, which `npm run sandbox` runs under (tsx's on the run's build). */
  pid: number;
  output: () => string;
  stop: () => Promise<void>;
}

/** The parent's environment minus what vitest sets, which would switch the Remix build plugin off. */
function childEnv(): NodeJS.ProcessEnv {
  const entries = Object.entries(process.env).filter(
    ([key]) => !key.startsWith("VITEST") && key !== "TEST" && key !== "NODE_ENV",
  );
  // NODE_ENV is left out on purpose: the build sets its own, and the sandbox refuses "production".
  return Object.fromEntries(entries) as NodeJS.ProcessEnv;
}

/**
 * How long a start (the production build included) may take. A build takes about 40 s alone and
 * twice or three times that beside other test files building and running on two cores.
 */
export const START_LIMIT_MS = 180_000;

/**
 * Runs `npm run sandbox` (a build, then packages/sandbox/src/start.ts) and resolves once it listens;
 * once the run has built (builtThisRun), only the start, on that build.
 */
export async function startSandbox(env: Record<string, string> = {}): Promise<RunningSandbox> {
  if (builtThisRun()) return start(env, { build: false });
  return withBuildLock(async () => {
    if (builtThisRun()) return start(env, { build: false });
    const sandbox = await start(env, { build: true });
    markBuiltThisRun();
    return sandbox;
  });
}

async function start(env: Record<string, string>, { build }: { build: boolean }): Promise<RunningSandbox> {
  const port = await freePort();
  // The README's command itself, so what stops it here (SIGTERM to npm) is what stops it for a user;
  // on the run's build, what that command runs after building.
  const [command, ...args] = build
    ? ["npm", "run", "-s", "sandbox"]
    : [path.join(repoRoot, "node_modules/.bin/tsx"), "packages/sandbox/src/start.ts"];
  const child: ChildProcess = spawn(command!, args, {
    cwd: repoRoot,
    env: {
      ...childEnv(),
      SHOPIFY_API_KEY: "",
      SHOPIFY_API_SECRET: "",
      SHOPIFY_APP_URL: "",
      DIRECT_API_JWT_SECRET: "",
      DATABASE_URL: "",
      PORT: String(port),
      // The tests read the request log from the output (what it logs, and what it must not).
      SANDBOX_LOG: "-",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  // The tail is enough to explain a failure; a long run (benchmarks, the soak) must not grow without bound.
  let output = "";
  // Trimmed only when twice the kept size: copying the tail on every chunk would cost the
  // benchmarks, which log a line per request, as much CPU as the app they measure.
  const keep = (chunk: Buffer) => {
    output += chunk.toString("utf8");
    if (output.length > 2 * OUTPUT_KEPT) output = output.slice(-OUTPUT_KEPT);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`sandbox did not start:\n${output}`)), START_LIMIT_MS);
    // Removed once started: scanning the kept output on every later chunk would cost long runs dearly.
    const started = () => {
      if (!output.includes("listening on")) return;
      clearTimeout(timer);
      child.stdout!.off("data", started);
      resolve();
    };
    child.stdout!.on("data", started);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`sandbox exited with ${code}:\n${output}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    output: () => output.slice(-OUTPUT_KEPT),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
