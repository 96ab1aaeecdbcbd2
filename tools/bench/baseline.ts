import { spawn } from "node:child_process";
import path from "node:path";
import { repoRoot, SANDBOX_DEFAULTS } from "@saved-items/sandbox/config";
import { freePort } from "@saved-items/sandbox/ports";

export type BaselineKind = "node" | "remix";

export interface Baseline {
  kind: BaselineKind;
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** Starts baseline-server.ts as one node process (tsx as a loader, so the pid is the server's own). */
export async function startBaseline(kind: BaselineKind): Promise<Baseline> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", path.join(repoRoot, "tools/bench/baseline-server.ts")], {
    cwd: repoRoot,
    env: {
      ...process.env,
      BASELINE: kind,
      PORT: String(port),
      SHOPIFY_API_SECRET: SANDBOX_DEFAULTS.SHOPIFY_API_SECRET,
      NODE_ENV: "production",
    },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => chunk.toString().includes("listening") && resolve());
    void exited.then(() => reject(new Error("the baseline server exited before listening")));
  });
  return {
    kind,
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    async stop() {
      child.kill("SIGTERM");
      await exited;
    },
  };
}
