// The generated GraphQL types are checked in (app/types/), so a fresh clone typechecks without
// running the codegen. This runs the codegen as `npm run graphql-codegen -- --check` does (nothing
// written) and fails when a document, the vendored schema or the codegen changed without
// `npm run graphql-codegen`.
import path from "node:path";
import { createContext, generate } from "@graphql-codegen/cli";
import { describe, expect, test } from "vitest";
import { repoRoot } from "@saved-items/sandbox/config";

describe("the generated GraphQL types", () => {
  test("are what the codegen writes from the documents and the vendored schema today", async () => {
    const context = await createContext({
      config: path.join(repoRoot, ".graphqlrc.ts"),
      project: "default",
      check: true,
      silent: true,
      errorsOnly: true,
      watch: false,
      require: [],
      overwrite: true,
      profile: false,
    });
    const outputs: { filename: string }[] = await generate(context);
    expect(outputs.map((output) => path.relative(repoRoot, path.resolve(repoRoot, output.filename))).sort()).toEqual([
      "app/types/admin.generated.d.ts",
      "app/types/admin.types.d.ts",
    ]);
    expect(context.checkModeStaleFiles, "stale: run npm run graphql-codegen").toEqual([]);
  }, 120_000);
});
