// The house rules of docs/architecture.md are the linter's (eslint.config.js: import-x's
// no-restricted-paths and no-cycle), run by `npm run lint`. This proves the configuration still
// refuses each kind of violation, so a rule switched off or a layer mistyped fails here.
import path from "node:path";
import { ESLint } from "eslint";
import { beforeAll, describe, expect, test } from "vitest";
import { repoRoot } from "../sandbox/config";

let eslint: ESLint;

/** The import rules' complaints about `code` as if it were the file at `file` (need not exist). */
async function importProblems(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(repoRoot, file) });
  return result!.messages.filter((message) => message.ruleId?.startsWith("import-x/")).map((m) => m.ruleId!);
}

describe("the linter's import rules", () => {
  beforeAll(() => {
    // The cycle's fixture is ignored by `npm run lint`, which must stay green.
    eslint = new ESLint({ cwd: repoRoot, ignore: false });
  });

  test.each([
    ["app/lib/fixture.ts", "~/db.server"],
    ["app/lib/fixture.ts", "~/platform/api-versions"],
    ["app/db.server.ts", "~/services/plans"],
    ["app/platform/fixture.ts", "~/services/channels"],
    ["app/services/fixture.ts", "~/edge/route-table"],
    ["app/services/fixture.ts", "~/shopify.server"],
    ["app/edge/fixture.ts", "~/entry.server"],
    ["app/routes/fixture.ts", "../../server/config"],
  ])("%s may not import %s, a layer above it", async (file, specifier) => {
    expect(await importProblems(file, `import "${specifier}";\n`)).toEqual(["import-x/no-restricted-paths"]);
  });

  test.each([
    ["app/routes/fixture.ts", "~/services/plans"],
    ["app/edge/fixture.ts", "~/lib/errors"],
    ["app/lib/fixture.ts", "~/config/env.server"],
    ["server/fixture.ts", "../app/lib/envelope"],
  ])("%s may import %s, below it", async (file, specifier) => {
    expect(await importProblems(file, `import "${specifier}";\n`)).toEqual([]);
  });

  test.each([
    ["app/edge/fixture.ts", "../../tests/emulator/schemas"],
    ["server/fixture.ts", "../tests/sandbox/config"],
    ["scripts/fixture.ts", "../tests/emulator/schemas"],
    ["fixture.config.ts", "./tests/emulator/schemas"],
  ])("%s may not import %s: only tests/ imports tests/", async (file, specifier) => {
    expect(await importProblems(file, `import "${specifier}";\n`)).toEqual(["import-x/no-restricted-paths"]);
  });

  test("tests/ may import tests/", async () => {
    expect(await importProblems("tests/fixture.ts", `import "./emulator/schemas";\n`)).toEqual([]);
  });

  test("two modules that import each other are a circle", async () => {
    const results = await eslint.lintFiles([path.join(repoRoot, "tests/architecture/fixtures/cycle")]);
    const cycles = results.flatMap((result) =>
      result.messages.filter((m) => m.ruleId === "import-x/no-cycle").map(() => path.basename(result.filePath)),
    );
    expect(cycles.sort()).toEqual(["a.ts", "b.ts"]);
  });
});
