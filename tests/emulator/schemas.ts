import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildClientSchema, type GraphQLSchema, type IntrospectionQuery } from "graphql";

export type SchemaApi = "admin" | "customer-account" | "storefront";

const SUPPORTED_VERSIONS: readonly string[] = ["2026-07", "2026-10"];

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

function schemasDir(): string {
  return process.env.SHOPIFY_SCHEMAS_DIR ?? path.resolve(repoRoot, "../shared/shopify-schemas");
}

// Module-level on purpose: building a schema costs ~250 ms, and schemas are immutable, so every
// emulator instance in the process shares them.
const cache = new Map<string, GraphQLSchema>();

/** The published schema for an API version, or undefined when the emulator does not serve that version. */
export function getSchema(api: SchemaApi, version: string | undefined): GraphQLSchema | undefined {
  if (version === undefined || !SUPPORTED_VERSIONS.includes(version)) return undefined;
  const file = path.join(schemasDir(), `${api}-${version}.schema.json`);
  let schema = cache.get(file);
  if (!schema) {
    const introspection = JSON.parse(readFileSync(file, "utf8")) as { data: IntrospectionQuery };
    schema = buildClientSchema(introspection.data);
    cache.set(file, schema);
  }
  return schema;
}
