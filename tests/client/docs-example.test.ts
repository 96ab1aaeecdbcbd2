// docs/clients.md shows a headless backend using the client package; this typechecks that example
// against the package's source, so the documentation cannot drift from the typed surface.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import ts from "typescript";
import { expect, test } from "vitest";
import { repoRoot } from "@saved-items/sandbox/config";

test("the headless example in docs/clients.md typechecks against the client package", async () => {
  const doc = await readFile(path.join(repoRoot, "docs/clients.md"), "utf8");
  const section = doc.slice(doc.indexOf("### With the client package"));
  const example = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  expect(example, "a ts block under 'With the client package'").toContain('from "@saved-items/client"');

  const folder = await mkdtemp(path.join(tmpdir(), "client-docs-"));
  try {
    const file = path.join(folder, "example.ts");
    await writeFile(
      file,
      example!.replace('"@saved-items/client"', JSON.stringify(path.join(repoRoot, "packages/client/src/index.ts"))),
    );
    const program = ts.createProgram([file], {
      lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
      types: [],
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      allowImportingTsExtensions: true,
      target: ts.ScriptTarget.ES2022,
      strict: true,
      noEmit: true,
    });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
    expect(problems).toEqual([]);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}, 60_000);
