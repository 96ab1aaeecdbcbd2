// The client package as `npm pack` makes it from a clone: prepack builds dist/ with tsc, the tarball
// holds the ES modules and their declarations and nothing else, Node's own ESM loader can import it
// (every relative import names its .js file), and it depends on nothing at run time.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";

const run = promisify(execFile);
const PACKAGE_ROOT = path.resolve(__dirname, "../../packages/client");

describe("npm pack of packages/client", () => {
  test("builds dist/ and ships only it, with types, importable by Node as ES modules", async () => {
    const { stdout } = await run("npm", ["pack", "--dry-run", "--json"], { cwd: PACKAGE_ROOT });
    const [tarball] = JSON.parse(stdout.slice(stdout.indexOf("["))) as { files: { path: string }[] }[];
    const files = tarball!.files.map((file) => file.path).sort();

    expect(files.filter((file) => !file.startsWith("dist/"))).toEqual(["README.md", "package.json"]);
    expect(files).toEqual(expect.arrayContaining(["dist/index.js", "dist/index.d.ts", "dist/generated/openapi.d.ts"]));
    expect(files.filter((file) => /test|\.ts$/.test(file) && !file.endsWith(".d.ts"))).toEqual([]);

    const { stdout: exported } = await run(
      process.execPath,
      ["--input-type=module", "-e", "console.log(Object.keys(await import('./dist/index.js')).join(' '))"],
      { cwd: PACKAGE_ROOT },
    );
    expect(exported.trim().split(" ")).toEqual(
      expect.arrayContaining(["createHeadlessClient", "createCustomerAccountClient", "SavedItemsError"]),
    );
  }, 180_000);

  test("has no run-time dependency (fetch is the platform's)", () => {
    const manifest = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, "package.json"), "utf8")) as Record<
      string,
      unknown
    >;
    expect(manifest.dependencies).toBeUndefined();
    expect(manifest.peerDependencies).toBeUndefined();
    expect(manifest.type).toBe("module");
  });
});
