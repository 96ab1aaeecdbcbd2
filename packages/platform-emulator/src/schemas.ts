import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { buildASTSchema, parse, type GraphQLSchema } from "graphql";

export type SchemaApi = "admin" | "customer-account" | "storefront";

export const SCHEMA_APIS: readonly SchemaApi[] = ["admin", "customer-account", "storefront"];

/**
 * The one version the emulator serves: the app pins the Admin and Storefront APIs to it, and the
 * emulator's own discovery document hands it out for the Customer Account API.
 */
export const SCHEMA_VERSION = "2026-10";

const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The app's repository (the one definition of it: tests, tools and the sandbox import it): the emulator reads its shopify.app.toml and extensions/, as the platform does at deploy. */
export const repoRoot = path.resolve(packageRoot, "../..");

export const vendoredSchemasDir = path.join(packageRoot, "schemas");

export function vendoredSchemaFile(api: SchemaApi): string {
  return path.join(vendoredSchemasDir, `${api}-${SCHEMA_VERSION}.graphql.gz`);
}

// Module-level on purpose: building the admin schema costs a few hundred ms, and schemas are
// immutable, so every emulator instance in the process shares them.
const cache = new Map<SchemaApi, GraphQLSchema>();

/** The published schema for an API version, or undefined when the emulator does not serve that version. */
export function getSchema(api: SchemaApi, version: string | undefined): GraphQLSchema | undefined {
  if (version !== SCHEMA_VERSION) return undefined;
  let schema = cache.get(api);
  if (!schema) {
    const sdl = gunzipSync(readFileSync(vendoredSchemaFile(api))).toString("utf8");
    // vendor-schemas.ts refuses to write a schema that fails validateSchema, so
    // checking it again on every load would only cost time.
    schema = buildASTSchema(parse(sdl, { noLocation: true }), { assumeValid: true, assumeValidSDL: true });
    cache.set(api, schema);
  }
  return schema;
}
