// The client package as `npm pack` makes it from a clone: prepack builds dist/ with tsc, the tarball
// holds ES modules, CommonJS and their declarations and nothing else, a backend installs it and
// loads it with `import` or `require` (Node's own loaders, TypeScript's NodeNext for the types), its
// README's links lead to files in the tarball, and it depends on nothing at run time.
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import ts from "typescript";
import { describe, expect, test } from "vitest";

const run = promisify(execFile);
const PACKAGE_ROOT = path.resolve(__dirname, "../../packages/client");
const EXPECTED_EXPORTS = ["createHeadlessClient", "createCustomerAccountClient", "SavedItemsError"];

/** A backend's source: loads the package one way, prints its value exports, uses its types. */
const consumer = (load: string) => `${load}
const error: SavedItemsError = new client.SavedItemsError(client.NETWORK_ERROR, "no answer", 0, true);
const code: string = error.code;
console.log(Object.keys(client).join(" "), code);
`;

describe("npm pack of packages/client", () => {
  test("packs ES modules and CommonJS with types, loadable both ways once installed", async () => {
    const folder = await mkdtemp(path.join(tmpdir(), "client-pack-"));
    try {
      const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", folder], { cwd: PACKAGE_ROOT });
      const [tarball] = JSON.parse(stdout.slice(stdout.indexOf("["))) as {
        filename: string;
        files: { path: string }[];
      }[];
      const files = tarball!.files.map((file) => file.path).sort();

      expect(files.filter((file) => !file.startsWith("dist/"))).toEqual(["README.md", "package.json"]);
      expect(files).toEqual(
        expect.arrayContaining([
          "dist/esm/index.js",
          "dist/esm/index.d.ts",
          "dist/cjs/index.js",
          "dist/cjs/index.d.ts",
          "dist/cjs/package.json",
        ]),
      );
      expect(files.filter((file) => /test|\.ts$/.test(file) && !file.endsWith(".d.ts"))).toEqual([]);

      // Every link of the README the tarball carries leads to a file the tarball carries.
      const readme = await readFile(path.join(PACKAGE_ROOT, "README.md"), "utf8");
      for (const [, target] of readme.matchAll(/\]\(([^)#]*)(?:#[^)]*)?\)/g)) {
        if (target) expect(files, `README link ${target}`).toContain(path.posix.normalize(target));
      }

      // Installed as a backend installs it: the tarball unpacked into its node_modules.
      const installed = path.join(folder, "node_modules/@saved-items/client");
      await mkdir(installed, { recursive: true });
      await run("tar", ["-xzf", path.join(folder, tarball!.filename), "-C", installed, "--strip-components=1"]);
      const sources = {
        "consumer.mts": consumer(
          'import * as client from "@saved-items/client";\nimport type { SavedItemsError } from "@saved-items/client";',
        ),
        "consumer.cts": consumer(
          'import client = require("@saved-items/client");\ntype SavedItemsError = client.SavedItemsError;',
        ),
      };
      for (const [name, source] of Object.entries(sources)) await writeFile(path.join(folder, name), source);

      const program = ts.createProgram(
        Object.keys(sources).map((name) => path.join(folder, name)),
        {
          module: ts.ModuleKind.NodeNext,
          moduleResolution: ts.ModuleResolutionKind.NodeNext,
          target: ts.ScriptTarget.ES2022,
          lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
          types: [],
          strict: true,
          outDir: path.join(folder, "out"),
        },
      );
      const emitted = program.emit();
      const diagnostics = [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics];
      expect(ts.formatDiagnostics(diagnostics, ts.createCompilerHost({}))).toBe("");

      for (const file of ["consumer.mjs", "consumer.cjs"]) {
        const { stdout: printed } = await run(process.execPath, [path.join(folder, "out", file)], { cwd: folder });
        expect(printed.trim().split(/\s+/), file).toEqual(
          expect.arrayContaining([...EXPECTED_EXPORTS, "NETWORK_ERROR"]),
        );
      }
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
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
