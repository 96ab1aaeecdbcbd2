import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync } from "node:fs";
import path from "node:path";
import { SERVER_NODE_FLAGS } from "../../../server/config";
import { repoRoot, sandboxLogFile } from "./config";
import { freePort } from "./ports";

export interface InstanceExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface RunningInstance {
  url: string;
  port: number;
  pid: number;
  /** SIGTERM (a graceful drain), then waits for the exit. */
  stop(): Promise<void>;
  /** Settles when the process exits before stop() was called, and never otherwise. */
  crashed: Promise<InstanceExit>;
}

const START_TIMEOUT_MS = 60_000;

/**
 * The front's health probes, answered: twice a second per instance, they would bury the log lines
 * that say something. A failed probe is not an answer and still shows.
 */
const ANSWERED_PROBE = /^.*"msg":"request".*"path":"\/healthz".*"status":200.*\n/gm;

let requestLog: NodeJS.WritableStream | undefined;

/** Where every instance's log lines (the request log) go: sandboxLogFile's file, appended to, or the terminal. */
function requestLogTarget(): NodeJS.WritableStream {
  const file = sandboxLogFile();
  if (!file) return process.stdout;
  if (!requestLog) {
    mkdirSync(path.dirname(file), { recursive: true });
    requestLog = createWriteStream(file, { flags: "a" });
  }
  return requestLog;
}

/**
 * Starts one app instance (packages/sandbox/src/instance.mjs: build/server.js as `npm start` runs it) on
 * `port` if it is free, another free loopback port otherwise, and resolves once it listens. Its log
 * lines (stdout) go to the request log, its stderr to this process's, prefixed with the instance
 * number when there are several.
 */
export async function startAppInstance(
  index: number,
  env: Record<string, string>,
  prefixed: boolean,
  preferredPort?: number,
): Promise<RunningInstance> {
  const port = await freePort(preferredPort);
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, path.join(import.meta.dirname, "instance.mjs")], {
    cwd: repoRoot,
    env: { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1", NODE_ENV: "production" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  const prefix = prefixed ? `[app ${index}] ` : "";
  let listening = false;
  let onListening!: () => void;
  const ready = new Promise<void>((resolve) => (onListening = resolve));
  // Whole lines are relayed in one write per chunk: a write per line cost the sandbox's process as
  // much CPU as the instance's own logging, on the cores the instances share.
  const relay = (target: NodeJS.WritableStream) => {
    let pending = "";
    return (chunk: Buffer) => {
      pending += chunk.toString("utf8");
      const end = pending.lastIndexOf("\n") + 1;
      if (end === 0) return;
      let lines = pending.slice(0, end);
      pending = pending.slice(end);
      if (!listening && /"msg":"listening"/.test(lines)) {
        listening = true;
        onListening();
      }
      if (lines.includes('"/healthz"')) lines = lines.replace(ANSWERED_PROBE, "");
      if (lines) target.write(prefix ? lines.replace(/^/gm, prefix).slice(0, -prefix.length) : lines);
    };
  };
  child.stdout.on("data", relay(requestLogTarget()));
  child.stderr.on("data", relay(process.stderr));
  const exited = new Promise<InstanceExit>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  let stopped = false;

  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      ready,
      exited.then(({ code, signal }) => {
        throw new Error(`app instance ${index} exited with ${signal ?? code} before listening`);
      }),
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`app instance ${index} did not listen within ${START_TIMEOUT_MS} ms`)),
          START_TIMEOUT_MS,
        );
      }),
    ]);
  } catch (error) {
    // Whoever retries starts a fresh one; this one must not linger half-started.
    child.kill("SIGKILL");
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    pid: child.pid!,
    async stop() {
      stopped = true;
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
    crashed: exited.then((exit) => (stopped ? new Promise<never>(() => {}) : exit)),
  };
}
