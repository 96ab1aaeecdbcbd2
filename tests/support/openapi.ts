import { createRequire } from "node:module";
import { expect } from "vitest";
import { getOpenApiDocument, type OperationObject } from "~/edge/openapi/document.server";

/**
 * JSON Schema checks against the served document, with the JSON Schema engine the OpenAPI
 * validator itself runs on (ajv's 2020-12 dialect plus ajv-formats, both dependencies of
 * @seriousme/openapi-schema-validator), resolved from that package so the two never diverge.
 */
const requireFromValidator = createRequire(
  createRequire(import.meta.url).resolve("@seriousme/openapi-schema-validator"),
);

interface ValidateFunction {
  (data: unknown): boolean;
  errors?: unknown[] | null;
}
interface Ajv {
  addSchema(schema: object, key?: string): Ajv;
  compile(schema: object): ValidateFunction;
}
type AjvConstructor = new (options: Record<string, unknown>) => Ajv;

const Ajv2020 = (requireFromValidator("ajv/dist/2020") as { default: AjvConstructor }).default;
const addFormats = (requireFromValidator("ajv-formats") as { default: (ajv: Ajv) => Ajv }).default;

const BASE = "https://saved-items.invalid/openapi";

/** The URI a document-internal "#/components/schemas/X" ref is given in ajv. */
export function componentUri(name: string): string {
  return `${BASE}/components/schemas/${name}`;
}

/** A fresh ajv holding every component schema, so the document's refs resolve as in the document. */
export function documentAjv(options: { strict?: boolean } = {}): Ajv {
  const ajv = new Ajv2020({ strict: options.strict ?? false, allErrors: true });
  addFormats(ajv);
  for (const [name, schema] of Object.entries(getOpenApiDocument().components.schemas)) {
    ajv.addSchema({ ...(refsIntoDocument(schema) as object), $id: componentUri(name) });
  }
  return ajv;
}

const shared = documentAjv();
const compiled = new Map<object, ValidateFunction>();

/** Validates against a schema taken from the document (its "#/..." refs point into the document). */
export function validatorFor(schema: object): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = shared.compile(refsIntoDocument(schema) as object);
    compiled.set(schema, validate);
  }
  return validate;
}

export function refsIntoDocument(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(refsIntoDocument);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, child]) => [
      key,
      key === "$ref" && typeof child === "string" && child.startsWith("#/components/schemas/")
        ? componentUri(child.slice("#/components/schemas/".length))
        : refsIntoDocument(child),
    ]),
  );
}

export function componentSchema(name: string): object {
  if (!getOpenApiDocument().components.schemas[name]) throw new Error(`no component schema ${name}`);
  return { $ref: componentUri(name) };
}

export function operationOf(path: string, method: string): OperationObject {
  const operation = getOpenApiDocument().paths[path]?.[method.toLowerCase()];
  if (!operation) throw new Error(`the document has no ${method} ${path}`);
  return operation;
}

/** True when the body satisfies the documented request body of the operation. */
export function acceptsBody(path: string, method: string, body: unknown): boolean {
  const schema = operationOf(path, method).requestBody?.content["application/json"].schema;
  if (!schema) throw new Error(`${method} ${path} documents no request body`);
  return validatorFor(schema)(body);
}

/**
 * True when the query (as strings, as on the wire) satisfies the documented parameters: required
 * ones present, each value valid for its schema once deserialised as OpenAPI's form style does
 * (integers from their decimal string).
 */
export function acceptsQuery(path: string, method: string, query: Record<string, string>): boolean {
  const parameters = operationOf(path, method).parameters ?? [];
  return parameters.every((parameter) => {
    const raw = query[parameter.name];
    if (raw === undefined) return !parameter.required;
    const value = parameter.schema.type === "integer" && /^-?\d+$/.test(raw) ? Number(raw) : raw;
    return validatorFor(parameter.schema)(value);
  });
}

/**
 * Asserts that a response is one the document describes for the operation: its status is listed
 * and its body satisfies the schema given for that status. Returns the error code, if any.
 */
export function expectDocumentedResponse(
  path: string,
  method: string,
  status: number,
  body: unknown,
): string | undefined {
  const responses = operationOf(path, method).responses;
  expect(Object.keys(responses), `${method} ${path} answered ${status} ${JSON.stringify(body)}`).toContain(
    String(status),
  );
  const validate = validatorFor(responses[String(status)]!.content["application/json"].schema);
  const valid = validate(body);
  expect(
    valid,
    `${method} ${path} ${status}: ${JSON.stringify(body)} does not match: ${JSON.stringify(validate.errors)}`,
  ).toBe(true);
  const error = (body as { error?: { code?: string } } | null)?.error;
  return error?.code;
}
