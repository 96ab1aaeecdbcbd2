import { spawn } from "node:child_process";
import path from "node:path";
import { repoRoot } from "./schemas";

export interface EmulatorProcess {
  /** http://127.0.0.1:port; see createRemoteEmulator for its control endpoints. */
  url: string;
  pid: number;
  /** Stops the process (SIGTERM, then SIGKILL after 5 s) and resolves once it has exited. */
  stop(): Promise<void>;
}

export interface EmulatorProcessOptions {
  /** A module whose default export (an EmulatorSetup) fills the emulator before it listens, and its argument. */
  setup?: { module: string; argument?: string };
  /** 0 or absent: any free port. */
  port?: number;
  /** Absent: the CLI's default (see main.ts). */
  searchLagMs?: number;
  adminTokenLifetimeSeconds?: number;
  /** Entries per metaobject definition and shop; absent: the platform's 1,000,000. */
  metaobjectEntryCap?: number;
  /** Absent: SHOPIFY_API_KEY and SHOPIFY_API_SECRET of this process's environment. */
  clientId?: string;
  clientSecret?: string;
}

const START_TIMEOUT_MS = 30_000;
const STOP_GRACE_MS = 5_000;
// Enough of the child's output to explain a failed start, without growing for as long as it runs.
const OUTPUT_KEPT = 16_384;

/**
 * Starts main.ts as a child process and resolves once it listens. The child reads
 * its stdin as a lifeline: if this process dies without calling stop(), the pipe closes and the
 * emulator exits with it.
 */
export async function startEmulatorProcess(options: EmulatorProcessOptions = {}): Promise<EmulatorProcess> {
  const flags: [string, string | number | undefined][] = [
    ["--port", options.port ?? 0],
    ["--setup", options.setup && path.resolve(options.setup.module)],
    ["--setup-argument", options.setup?.argument],
    ["--search-lag", options.searchLagMs],
    ["--token-lifetime", options.adminTokenLifetimeSeconds],
    ["--entry-cap", options.metaobjectEntryCap],
    ["--client-id", options.clientId],
    ["--client-secret", options.clientSecret],
  ];
  const args = flags.flatMap(([flag, value]) => (value === undefined ? [] : [flag, String(value)]));
  const child = spawn(
    path.join(repoRoot, "node_modules/.bin/tsx"),
    [path.join(import.meta.dirname, "main.ts"), ...args, "--exit-with-parent"],
    {
      cwd: repoRoot,
      // tsx runs on the first `node` in PATH; put this process's own Node first so both agree.
      env: { ...process.env, PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ""}` },
      stdio: ["pipe", "pipe", "pipe"],
    },
  );
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString("utf8")).slice(-OUTPUT_KEPT);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`emulator did not start within ${START_TIMEOUT_MS} ms:\n${output}`));
    }, START_TIMEOUT_MS);
    const onData = () => {
      const match = /^EMULATOR_URL=(\S+)$/m.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.stdout.off("data", onData);
      resolve(match[1]!);
    };
    child.stdout.on("data", onData);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`emulator exited with ${signal ?? code} before listening:\n${output}`));
    });
  });
  // A caller that forgets stop() must still be able to exit; the lifeline then takes the child down.
  // The pipes are net.Sockets, which can be unref'd, though the stream types do not say so.
  child.unref();
  for (const stream of [child.stdin, child.stdout, child.stderr]) (stream as unknown as { unref(): void }).unref();

  return {
    url,
    pid: child.pid!,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), STOP_GRACE_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}
