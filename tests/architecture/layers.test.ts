// The house rules of docs/architecture.md are the linter's (eslint.config.js: import-x's
// no-restricted-paths and no-cycle), run by `npm run lint`. This proves the configuration still
// refuses each kind of violation, so a rule switched off or a layer mistyped fails here.
import { readdirSync } from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import { beforeAll, describe, expect, test } from "vitest";
import { repoRoot } from "@saved-items/sandbox/config";
import { SERVICE_FOLDERS } from "../../eslint.config.js";

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
    ["app/lib/fixture.ts", "~/infrastructure/coordination/shared-coordinator.server"],
    ["app/infrastructure/jobs/fixture.ts", "~/platform/api-versions"],
    ["app/infrastructure/jobs/fixture.ts", "~/db.server"],
    ["app/lib/fixture.ts", "~/platform/api-versions"],
    ["app/db.server.ts", "~/services/plans"],
    ["app/platform/fixture.ts", "~/services/channels"],
    ["app/services/fixture.ts", "~/edge/route-table"],
    ["app/services/saved-items/fixture.ts", "~/operations/dispatcher.server"],
    ["app/services/flow/fixture.ts", "~/operations/operations"],
    ["app/operations/fixture.ts", "~/edge/route-table"],
    ["app/services/fixture.ts", "~/shopify.server"],
    ["app/edge/fixture.ts", "~/entry.server"],
    ["app/routes/fixture.ts", "../../server/config"],
  ])("%s may not import %s, a layer above it", async (file, specifier) => {
    expect(await importProblems(file, `import "${specifier}";\n`)).toEqual(["import-x/no-restricted-paths"]);
  });

  test.each([
    ["app/routes/fixture.ts", "~/services/plans"],
    ["app/edge/fixture.ts", "~/operations/operations"],
    ["app/operations/fixture.ts", "~/services/saved-items/reads.server"],
    ["app/edge/fixture.ts", "~/lib/errors"],
    ["app/lib/fixture.ts", "~/config/env.server"],
    ["app/infrastructure/jobs/fixture.ts", "~/lib/clock"],
    ["app/platform/fixture.ts", "~/infrastructure/database/availability.server"],
    ["app/platform/fixture.ts", "~/db.server"],
    ["app/db.server.ts", "~/infrastructure/database/pool.server"],
    ["server/fixture.ts", "../app/lib/envelope"],
  ])("%s may import %s, below it", async (file, specifier) => {
    expect(await importProblems(file, `import "${specifier}";\n`)).toEqual([]);
  });

  test.each([
    ["app/edge/fixture.ts", "../../tests/support/platform"],
    ["server/fixture.ts", "../tests/support/app"],
    ["scripts/fixture.ts", "../tests/support/platform"],
    ["fixture.config.ts", "./tests/support/platform"],
    ["packages/sandbox/src/fixture.ts", "../../../tests/support/app"],
  ])("%s may not import %s: only tests/ imports tests/", async (file, specifier) => {
    expect(await importProblems(file, `import "${specifier}";\n`)).toEqual(["import-x/no-restricted-paths"]);
  });

  test("tests/ may import tests/", async () => {
    expect(await importProblems("tests/fixture.ts", `import "./support/platform";\n`)).toEqual([]);
  });

  test.each([
    ["tools/bench/fixture.ts", "../../tests/support/fixtures", []],
    ["tools/bench/fixture.ts", "../../tests/deploy/dockerfile.test", ["import-x/no-restricted-paths"]],
    ["tests/deploy/fixture.ts", "../../tools/deploy/dockerfile", []],
    ["app/lib/fixture.ts", "../../tools/bench/stats", ["import-x/no-restricted-paths"]],
    ["server/fixture.ts", "../tools/bench/stats", ["import-x/no-restricted-paths"]],
    ["packages/sandbox/src/fixture.ts", "../../../tools/bench/stats", ["import-x/no-restricted-paths"]],
  ])(
    "%s importing %s: tools/ takes only tests/support, and nothing shipped takes tools/",
    async (file, specifier, problems) => {
      expect(await importProblems(file, `import "${specifier}";\n`)).toEqual(problems);
    },
  );

  test.each([
    ["app/edge/fixture.ts", "@saved-items/platform-emulator/schemas"],
    ["server/fixture.ts", "@saved-items/sandbox/config"],
    ["app/routes/fixture.ts", "../../packages/sandbox/src/config"],
  ])("%s may not import %s: the app imports no package", async (file, specifier) => {
    expect(await importProblems(file, `import "${specifier}";\n`)).toEqual(["import-x/no-restricted-paths"]);
  });

  test.each([
    ["packages/platform-emulator/src/fixture.ts", "@saved-items/sandbox/seed"],
    ["packages/platform-emulator/src/fixture.ts", "../../../app/services/plans"],
    ["packages/platform-emulator/src/fixture.ts", "../../../server/config"],
  ])("%s may not import %s: the emulator stands alone", async (file, specifier) => {
    expect(await importProblems(file, `import "${specifier}";\n`)).toEqual(["import-x/no-restricted-paths"]);
  });

  test.each([
    ["packages/sandbox/src/fixture.ts", "@saved-items/platform-emulator/remote"],
    ["packages/sandbox/src/fixture.ts", "../../../app/services/plans"],
    ["scripts/fixture.ts", "@saved-items/platform-emulator/schemas"],
    ["tests/fixture.ts", "@saved-items/sandbox/config"],
  ])("%s may import %s", async (file, specifier) => {
    expect(await importProblems(file, `import "${specifier}";\n`)).toEqual([]);
  });

  test.each([
    ["app/services/records/fixture.ts", "~/services/saved-items/schemas"],
    ["app/services/saved-items/fixture.ts", "~/services/flow/item-saved.server"],
    ["app/services/saved-items/fixture.ts", "../compliance/pending-redactions.server"],
    ["app/services/installs/fixture.ts", "~/services/usage/monthly-budget.server"],
    ["app/services/caller.ts", "~/services/installs/shop-state.server"],
  ])("%s may not import %s, a feature folder above it", async (file, specifier) => {
    expect(await importProblems(file, `import "${specifier}";\n`)).toEqual(["import-x/no-restricted-paths"]);
  });

  test.each([
    ["app/services/flow/fixture.ts", "~/services/saved-items/contexts"],
    ["app/services/saved-items/fixture.ts", "~/services/records/fields"],
    ["app/services/saved-items/fixture.ts", "./reads.server"],
    ["app/services/records/fixture.ts", "~/services/caller"],
  ])("%s may import %s, below it or beside it", async (file, specifier) => {
    expect(await importProblems(file, `import "${specifier}";\n`)).toEqual([]);
  });

  test("every feature folder of app/services has its place in SERVICE_FOLDERS", () => {
    const folders = readdirSync(path.join(repoRoot, "app/services"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect([...SERVICE_FOLDERS].sort()).toEqual(folders.sort());
  });

  test("two modules that import each other are a circle", async () => {
    const results = await eslint.lintFiles([path.join(repoRoot, "tests/architecture/fixtures/cycle")]);
    const cycles = results.flatMap((result) =>
      result.messages.filter((m) => m.ruleId === "import-x/no-cycle").map(() => path.basename(result.filePath)),
    );
    expect(cycles.sort()).toEqual(["a.ts", "b.ts"]);
  });

  test.each(["app/services/fixture.ts", "server/fixture.ts"])("%s may not use console: one logger", async (file) => {
    const [result] = await eslint.lintText('console.warn("logged");\n', { filePath: path.join(repoRoot, file) });
    expect(result!.messages.map((message) => message.ruleId)).toContain("no-console");
  });
});
