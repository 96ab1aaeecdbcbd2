// The platform's codegen (`npm run graphql-codegen`) types every Admin GraphQL document in app/
// from the schema vendored in the repository, as the platform's app template does from the
// published one. The template points the preset at the network; this reads the vendored snapshot
// instead, so generation is offline and repeatable, and tests/codegen checks the checked-in output.
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { ApiType, pluckConfig, preset } from "@shopify/api-codegen-preset";
import type { IGraphQLConfig } from "graphql-config";
import { ADMIN_API_VERSION } from "./app/platform/api-versions";

const outputDir = "./app/types";
const schema = gunzipSync(
  readFileSync(`./packages/platform-emulator/schemas/admin-${ADMIN_API_VERSION}.graphql.gz`),
).toString("utf8");

const config = {
  projects: {
    default: {
      schema,
      documents: ["./app/**/*.{ts,tsx}", "!./app/services/direct-access/headless-*.server.ts"],
      extensions: {
        codegen: {
          pluckConfig,
          generates: {
            [`${outputDir}/admin.types.d.ts`]: {
              plugins: ["typescript"],
              // As the preset's own configuration, but enums as string unions: a declaration file
              // has no enum objects to compare against at run time.
              config: { defaultScalarType: "string", scalars: { JSON: "unknown" }, enumsAsTypes: true },
            },
            [`${outputDir}/admin.generated.d.ts`]: {
              preset,
              presetConfig: { apiType: ApiType.Admin, module: "~/platform/admin-graphql.server" },
            },
          },
        },
      },
    },
  },
} satisfies IGraphQLConfig;

export default config;
