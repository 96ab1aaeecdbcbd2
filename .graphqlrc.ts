// The platform's codegen (`npm run graphql-codegen`) types every GraphQL document in app/ from the
// schemas vendored in the repository, as the platform's app template does from the published ones.
// The template points the preset at the network; this reads the vendored snapshots instead, so
// generation is offline and repeatable, and tests/codegen checks the checked-in output. One project
// per API, so each document is checked against the schema of the API it is sent to.
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { ApiType, pluckConfig, preset } from "@shopify/api-codegen-preset";
import type { IGraphQLConfig, IGraphQLProject } from "graphql-config";
import { ADMIN_API_VERSION, STOREFRONT_API_VERSION } from "./app/platform/api-versions";

const VENDORED_SCHEMAS_DIR = "./packages/platform-emulator/schemas";
const outputDir = "./app/types";

const STOREFRONT_DOCUMENTS = "./app/services/direct-access/headless-legacy.server.ts";
const CUSTOMER_ACCOUNT_DOCUMENTS = "./app/services/direct-access/headless-modern.server.ts";

function vendoredSchema(api: "admin" | "customer-account" | "storefront", version: string): string {
  return gunzipSync(readFileSync(`${VENDORED_SCHEMAS_DIR}/${api}-${version}.graphql.gz`)).toString("utf8");
}

/**
 * One API's project. `files` is the name the preset gives the API's outputs (`customer` for the
 * Customer Account API): its generated file imports `./{files}.types.js`. `module` is the module
 * whose document-keyed interfaces the generated types fill in.
 */
function apiProject(
  apiType: ApiType,
  files: "admin" | "customer" | "storefront",
  project: { schema: string; documents: string[]; module: string },
): IGraphQLProject {
  return {
    schema: project.schema,
    documents: project.documents,
    extensions: {
      codegen: {
        pluckConfig,
        generates: {
          [`${outputDir}/${files}.types.d.ts`]: {
            plugins: ["typescript"],
            // As the preset's own configuration, but enums as string unions: a declaration file
            // has no enum objects to compare against at run time.
            config: { defaultScalarType: "string", scalars: { JSON: "unknown" }, enumsAsTypes: true },
          },
          [`${outputDir}/${files}.generated.d.ts`]: {
            preset,
            presetConfig: { apiType, module: project.module },
          },
        },
      },
    },
  };
}

const config = {
  projects: {
    default: apiProject(ApiType.Admin, "admin", {
      schema: vendoredSchema("admin", ADMIN_API_VERSION),
      documents: ["./app/**/*.{ts,tsx}", `!${STOREFRONT_DOCUMENTS}`, `!${CUSTOMER_ACCOUNT_DOCUMENTS}`],
      module: "~/platform/admin-graphql.server",
    }),
    storefront: apiProject(ApiType.Storefront, "storefront", {
      schema: vendoredSchema("storefront", STOREFRONT_API_VERSION),
      documents: [STOREFRONT_DOCUMENTS],
      module: "~/services/direct-access/headless-legacy.server",
    }),
    customer: apiProject(ApiType.Customer, "customer", {
      // The Customer Account API's version is the one the shop's discovery document names; the
      // snapshot vendored for it is the version the Admin and Storefront APIs are pinned to.
      schema: vendoredSchema("customer-account", ADMIN_API_VERSION),
      documents: [CUSTOMER_ACCOUNT_DOCUMENTS],
      module: "~/services/direct-access/headless-modern.server",
    }),
  },
} satisfies IGraphQLConfig;

export default config;
