// The generated GraphQL types are checked in (app/types/), so a fresh clone typechecks without
// running the codegen. This runs the codegen for each API's project as
// `npm run graphql-codegen -- --check` does (nothing written) and fails when a document, a vendored
// schema or the codegen changed without `npm run graphql-codegen`.
import path from "node:path";
import { createContext, generate } from "@graphql-codegen/cli";
import { describe, expect, test } from "vitest";
import codegenConfig from "../../.graphqlrc";
import { repoRoot } from "@saved-items/sandbox/config";

const expectedOutputs: Record<keyof typeof codegenConfig.projects, string[]> = {
  default: ["app/types/admin.generated.d.ts", "app/types/admin.types.d.ts"],
  storefront: ["app/types/storefront.generated.d.ts", "app/types/storefront.types.d.ts"],
  customer: ["app/types/customer.generated.d.ts", "app/types/customer.types.d.ts"],
};

describe("the generated GraphQL types", () => {
  test.each(Object.entries(expectedOutputs))(
    "of the %s project are what the codegen writes from the documents and the vendored schema today",
    async (project, outputFiles) => {
      const context = await createContext({
        config: path.join(repoRoot, ".graphqlrc.ts"),
        project,
        check: true,
        silent: true,
        errorsOnly: true,
        watch: false,
        require: [],
        overwrite: true,
        profile: false,
      });
      const outputs: { filename: string }[] = await generate(context);
      expect(outputs.map((output) => path.relative(repoRoot, path.resolve(repoRoot, output.filename))).sort()).toEqual(
        outputFiles,
      );
      expect(context.checkModeStaleFiles, "stale: run npm run graphql-codegen").toEqual([]);
    },
    120_000,
  );
});
