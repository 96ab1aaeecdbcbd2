// The sandbox's command-line conveniences without starting one: where its request log goes, and
// `npm run sign` following the port of the running sandbox (issue #32 items 7 and 10).
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test } from "vitest";
import { recordRunningSandbox, repoRoot, runningSandboxPort, sandboxLogFile } from "../src/config";

const sign = (args: string[], env: Record<string, string> = {}) =>
  promisify(execFile)("npx", ["tsx", "packages/sandbox/src/sign.ts", ...args], {
    cwd: repoRoot,
    env: { ...process.env, PORT: "", SHOPIFY_APP_URL: "", ...env },
  });

test("the request log goes to a file named for the port by default; SANDBOX_LOG=- keeps it on the terminal", () => {
  expect(sandboxLogFile({ PORT: "3471" })).toBe(path.join(repoRoot, ".data", "sandbox-3471.log"));
  expect(sandboxLogFile({ PORT: "3471", SANDBOX_LOG: "/tmp/x.log" })).toBe("/tmp/x.log");
  expect(sandboxLogFile({ SANDBOX_LOG: "-" })).toBeNull();
});

test("npm run sign signs for the running sandbox's port, unless told another; --help answers", async () => {
  const forget = recordRunningSandbox(3987);
  try {
    expect(runningSandboxPort()).toBe(3987);
    expect((await sign(["/proxy/api/list"])).stdout).toMatch(/^http:\/\/localhost:3987\/proxy\/api\/list\?/);
    expect((await sign(["/proxy/api/list", "--port", "4001"])).stdout).toMatch(/^http:\/\/localhost:4001\//);
  } finally {
    forget();
  }
  expect(runningSandboxPort()).toBeUndefined();
  expect((await sign(["--help"])).stdout).toContain("usage: npm run -s sign");
}, 60_000);
