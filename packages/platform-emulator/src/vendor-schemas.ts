// Regenerates the emulator's schemas/ from the platform's published introspection files:
//
//   npm run schemas:vendor -- <dir>
//
// <dir> holds `<api>-<version>.schema.json` for each API the emulator serves (the unmodified
// introspection results, `{ "data": { "__schema": … } }`). The emulator only validates documents,
// so descriptions are dropped and the schema is stored as gzipped SDL: a few hundred KB in the
// repository instead of 14 MB of JSON.
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import {
  buildASTSchema,
  buildClientSchema,
  parse,
  printSchema,
  validateSchema,
  type IntrospectionQuery,
} from "graphql";
import { SCHEMA_APIS, SCHEMA_VERSION, vendoredSchemaFile, vendoredSchemasDir } from "./schemas";

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

function withoutDescriptions(node: unknown): void {
  if (Array.isArray(node)) {
    node.forEach(withoutDescriptions);
  } else if (typeof node === "object" && node !== null) {
    const record = node as Record<string, unknown>;
    if ("description" in record) record.description = null;
    Object.values(record).forEach(withoutDescriptions);
  }
}

const sourceDir = process.argv[2];
if (!sourceDir) {
  console.error("usage: npm run schemas:vendor -- <dir with <api>-<version>.schema.json introspection files>");
  process.exit(2);
}

const manifest = [];
for (const api of SCHEMA_APIS) {
  const sourceName = `${api}-${SCHEMA_VERSION}.schema.json`;
  const source = readFileSync(path.resolve(sourceDir, sourceName));
  const introspection = JSON.parse(source.toString("utf8")) as { data?: IntrospectionQuery };
  if (!introspection.data?.__schema)
    throw new Error(`${sourceName} is not an introspection result ({ data: { __schema } })`);
  withoutDescriptions(introspection.data);
  const schema = buildClientSchema(introspection.data);
  const problems = validateSchema(schema);
  if (problems.length > 0) throw new Error(`${sourceName} is not a valid schema: ${problems[0]?.message}`);
  const sdl = printSchema(schema);
  const typeCount = Object.keys(schema.getTypeMap()).length;
  const roundTripped = Object.keys(buildASTSchema(parse(sdl)).getTypeMap()).length;
  if (roundTripped !== typeCount)
    throw new Error(`${sourceName}: SDL has ${roundTripped} types, introspection ${typeCount}`);

  // gzip writes no file name and a zero timestamp, so the same input always gives the same bytes.
  const vendored = gzipSync(sdl, { level: 9 });
  const target = vendoredSchemaFile(api);
  writeFileSync(target, vendored);
  manifest.push({
    api,
    version: SCHEMA_VERSION,
    file: path.basename(target),
    sha256: sha256(vendored),
    types: typeCount,
    source: { file: sourceName, sha256: sha256(source) },
  });
  console.log(`${path.relative(process.cwd(), target)}: ${typeCount} types, ${vendored.length} bytes`);
}

writeFileSync(
  path.join(vendoredSchemasDir, "manifest.json"),
  `${JSON.stringify({ generatedBy: "packages/platform-emulator/src/vendor-schemas.ts", schemas: manifest }, null, 2)}\n`,
);
