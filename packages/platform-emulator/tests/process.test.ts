import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startEmulatorProcess } from "../src/process";
import { createRemoteEmulator } from "../src/remote";
import { repoRoot } from "../src/schemas";
import { isAlive } from "../src/processes";
import { adminUrl, postAdmin } from "../src/testing";

const tsx = path.join(repoRoot, "node_modules/.bin/tsx");
const mainScript = path.join(import.meta.dirname, "../src/main.ts");
const scratch = mkdtempSync(path.join(tmpdir(), "emulator-process-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const answers = (url: string) =>
  fetch(`${url}/__emulator/health`).then(
    () => true,
    () => false,
  );

/** Spawns a TypeScript script and resolves with the first line matching `pattern`. */
function spawnScript(args: string[], pattern: RegExp, via: "tsx" | "node" = "tsx") {
  // Through node itself there is no tsx process in between, so the child is the script.
  const [command, prefix] = via === "tsx" ? [tsx, []] : [process.execPath, ["--import", "tsx"]];
  const child = spawn(command, [...prefix, ...args], {
    cwd: repoRoot,
    env: { ...process.env, PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ""}` },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let output = "";
  const line = new Promise<RegExpExecArray>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
      const match = pattern.exec(output);
      if (match) resolve(match);
    });
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    child.once("exit", (code) => reject(new Error(`exited with ${code}:\n${output}`)));
  });
  // A caller that only waits for the exit does not care that the line never came.
  line.catch(() => undefined);
  const exit = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, line, exit };
}

describe("startEmulatorProcess", () => {
  it("starts the CLI with a setup module, serves over HTTP and dies when stopped", async () => {
    const emulator = await startEmulatorProcess({
      setup: { module: path.join(import.meta.dirname, "fixtures/setup.ts"), argument: "demo.myshopify.com" },
      searchLagMs: 0,
    });
    try {
      expect(emulator.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const remote = createRemoteEmulator(emulator.url);
      const credentials = await remote.adminCredentials("demo.myshopify.com");
      expect(credentials).toMatchObject({
        accessToken: expect.stringMatching(/^shpat_/),
        refreshToken: expect.any(String),
      });
      expect(await remote.adminCredentials("gone.myshopify.com")).toBeUndefined();
      const { body } = await postAdmin(
        remote.platformUrl(adminUrl("demo.myshopify.com")),
        credentials!.accessToken,
        `{ currentAppInstallation { activeSubscriptions { name } } }`,
      );
      expect(body.data.currentAppInstallation.activeSubscriptions).toEqual([{ name: "Scale" }]);
    } finally {
      await emulator.stop();
    }
    expect(isAlive(emulator.pid)).toBe(false);
    expect(await answers(emulator.url)).toBe(false);
    await emulator.stop();
  });

  it("does not outlive a parent that dies without stopping it", async () => {
    const script = path.join(scratch, "parent.mts");
    writeFileSync(
      script,
      `import { startEmulatorProcess } from ${JSON.stringify(path.join(import.meta.dirname, "../src/process.ts"))};
       const emulator = await startEmulatorProcess({});
       console.log("STARTED " + emulator.url + " " + emulator.pid);
       setInterval(() => {}, 1000);`,
    );
    const parent = spawnScript([script], /^STARTED (\S+) (\d+)$/m, "node");
    const [, url, pid] = await parent.line;
    expect(await answers(url!)).toBe(true);
    parent.child.kill("SIGKILL");
    await parent.exit;
    await expect.poll(() => answers(url!), { timeout: 10_000, interval: 200 }).toBe(false);
    await expect.poll(() => isAlive(Number(pid)), { timeout: 10_000, interval: 200 }).toBe(false);
  });
});

describe("the CLI", () => {
  it("prints only its URL on stdout, honours --port and exits cleanly on SIGINT", async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port: free } = probe.address() as AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    const cli = spawnScript([mainScript, "--port", String(port)], /^EMULATOR_URL=(\S+)\n/m);
    const [first, url] = await cli.line;
    expect(first).toBe(`EMULATOR_URL=http://127.0.0.1:${port}\n`);
    expect(await answers(url!)).toBe(true);
    cli.child.kill("SIGINT");
    expect(await cli.exit).toBe(0);
  });

  it("refuses an unknown flag", async () => {
    const cli = spawnScript([mainScript, "--nope"], /never/);
    expect(await cli.exit).toBe(2);
  });
});
