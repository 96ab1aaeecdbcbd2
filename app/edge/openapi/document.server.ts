import { createHash } from "node:crypto";
import { z } from "zod";
import { ERROR_CODES, type ErrorCode } from "~/lib/errors";
import { DIRECT_ACCESS_TOKEN_TTL_SECONDS } from "~/services/direct-access/direct-token.server";
import {
  DirectAccessGrantSchema,
  HeadlessExchangeRequestSchema,
  HeadlessLegacyExchangeRequestSchema,
  HeadlessModernExchangeRequestSchema,
} from "~/services/direct-access/schemas";
import {
  BatchOperationResultSchema,
  BatchRequestSchema,
  BatchResultSchema,
  EntityTypeSchema,
  IsSavedResultSchema,
  ListItemSchema,
  ListResultSchema,
  MAX_SNAPSHOT_BYTES,
  RemoveRequestSchema,
  SaveOperationResultSchema,
  SaveRequestSchema,
} from "~/services/saved-items/schemas";
import {
  ShareCreateRequestSchema,
  SharedItemSchema,
  SharedListResultSchema,
  ShareLinkSchema,
  ShareRevokeRequestSchema,
  ShareRevokeResultSchema,
} from "~/services/saved-items/sharing-schemas";
import {
  CreateListRequestSchema,
  DeleteListRequestSchema,
  DeleteListResultSchema,
  ListsResultSchema,
  RenameListRequestSchema,
  SavedListSchema,
} from "~/services/saved-items/list-schemas";
import {
  DIRECT_ROUTES,
  directChannelErrorCodes,
  errorsByStatus,
  resolveError,
  type DocumentedRoute,
  type ResolvedError,
} from "./direct-routes";

/**
 * The OpenAPI 3.1 document of the direct channels, generated from the zod schemas the routes parse
 * with (request bodies and query parameters), the response schemas the handlers' types derive from,
 * and the error table in lib/errors. Nothing here restates a field by hand, so it cannot drift.
 * OpenAPI 3.1 schemas are JSON Schema 2020-12, zod's default target.
 */

export const OPENAPI_VERSION = "3.1.0";
/** The version of the described API; the spec defines no versioning (§9), so it changes with breaking changes only. */
export const API_DOCUMENT_VERSION = "1.0.0";

const SCHEMA_REF_PREFIX = "#/components/schemas/";

type JsonSchema = Record<string, unknown>;
type ComponentRegistry = z.core.$ZodRegistry<{ id: string; description?: string }>;

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description: string };
  servers: { url: string; description?: string }[];
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, OperationObject>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, JsonSchema> };
}

export interface OperationObject {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  security: Record<string, string[]>[];
  parameters?: ParameterObject[];
  requestBody?: { required: true; content: { "application/json": { schema: JsonSchema } } };
  responses: Record<string, ResponseObject>;
}

export interface ParameterObject {
  name: string;
  in: "query";
  required: boolean;
  schema: JsonSchema;
  description?: string;
}

export interface ResponseObject {
  description: string;
  content: { "application/json": { schema: JsonSchema } };
}

let cached: { document: OpenApiDocument; json: string; etag: string } | undefined;

/** Built on first use, then served from memory for the life of the process. */
export function getOpenApiDocument(): OpenApiDocument {
  return built().document;
}

/** The serialised document and a strong ETag of it, for the route. */
export function getOpenApiJson(): { json: string; etag: string } {
  const { json, etag } = built();
  return { json, etag };
}

function built() {
  if (!cached) {
    const document = buildOpenApiDocument();
    const json = JSON.stringify(document);
    cached = { document, json, etag: `"${createHash("sha256").update(json).digest("base64url")}"` };
  }
  return cached;
}

const TAGS: Record<DocumentedRoute["namespace"], { name: string; description: string }> = {
  headless: {
    name: "Headless",
    description:
      "For headless storefront backends (Scale plan). Exchange the customer's Customer Account API access token " +
      "(or a legacy Storefront customer access token) at /api/headless/auth/exchange, then call the operations " +
      "with the service token. Server to server only: these routes send no CORS headers.",
  },
  "customer-account": {
    name: "Customer account",
    description:
      "For customer-account UI extensions (Pro plan or above). Exchange the extension's session token at " +
      "/api/customer-account/auth/exchange, then call the operations with the service token. Every response, " +
      "errors included, carries CORS headers, and OPTIONS preflights are answered with 204 before any authentication.",
  },
};

export function buildOpenApiDocument(): OpenApiDocument {
  const requests = requestComponents();
  const responses = responseComponents();
  const schemas = { ...convertRegistry(requests, "input"), ...convertRegistry(responses.registry, "output") };

  const paths: OpenApiDocument["paths"] = {};
  for (const route of DIRECT_ROUTES) {
    paths[route.path] = { ...paths[route.path], [route.method]: operationObject(route, requests, responses.envelopes) };
  }

  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: "Saved Items direct API",
      version: API_DOCUMENT_VERSION,
      description: infoDescription(),
    },
    servers: [{ url: "/", description: "The app host that serves this document" }],
    tags: [TAGS.headless, TAGS["customer-account"]],
    paths,
    components: {
      schemas,
      securitySchemes: {
        serviceToken: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "JWT",
          description:
            `The service token from the namespace's exchange route (the value of data.authorization is the whole ` +
            `header). It lives ${DIRECT_ACCESS_TOKEN_TTL_SECONDS} seconds and is bound to one shop, customer and ` +
            `channel; a token of the other namespace is CHANNEL_MISMATCH (403), an expired one TOKEN_EXPIRED (401).`,
        },
        customerAccountSessionToken: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "JWT",
          description:
            "The customer-account UI extension's session token from shopify.sessionToken.get() " +
            "(HS256, signed by the platform with the app's client secret).",
        },
      },
    },
  };
}

/** Request bodies: what a client may send (io "input": defaults optional, strict objects closed). */
function requestComponents(): ComponentRegistry {
  const registry: ComponentRegistry = z.registry();
  registry.add(EntityTypeSchema, { id: "EntityType" });
  registry.add(SaveRequestSchema, { id: "SaveRequest", description: "Body of save and toggle" });
  registry.add(RemoveRequestSchema, { id: "RemoveRequest" });
  registry.add(BatchRequestSchema, { id: "BatchRequest" });
  registry.add(ShareCreateRequestSchema, { id: "ShareCreateRequest" });
  registry.add(ShareRevokeRequestSchema, { id: "ShareRevokeRequest" });
  registry.add(CreateListRequestSchema, { id: "CreateListRequest" });
  registry.add(RenameListRequestSchema, { id: "RenameListRequest" });
  registry.add(DeleteListRequestSchema, { id: "DeleteListRequest" });
  registry.add(HeadlessModernExchangeRequestSchema, { id: "HeadlessModernExchangeRequest" });
  registry.add(HeadlessLegacyExchangeRequestSchema, { id: "HeadlessLegacyExchangeRequest" });
  registry.add(HeadlessExchangeRequestSchema, {
    id: "HeadlessExchangeRequest",
    description: "Exactly one of the two field sets; a mix, both or extra fields is VALIDATION_ERROR",
  });
  return registry;
}

/** Response bodies: what the service sends (io "output"), each `data` wrapped in the success envelope. */
function responseComponents(): { registry: ComponentRegistry; envelopes: Map<z.ZodType, string> } {
  const registry: ComponentRegistry = z.registry();
  registry.add(SaveOperationResultSchema, { id: "SaveOperationResult" });
  registry.add(ListItemSchema, { id: "ListItem" });
  registry.add(ListResultSchema, { id: "ListResult" });
  registry.add(IsSavedResultSchema, { id: "IsSavedResult" });
  registry.add(BatchOperationResultSchema, { id: "BatchOperationResult" });
  registry.add(BatchResultSchema, { id: "BatchResult" });
  registry.add(ShareLinkSchema, { id: "ShareLink" });
  registry.add(ShareRevokeResultSchema, { id: "ShareRevokeResult" });
  registry.add(SharedItemSchema, { id: "SharedItem" });
  registry.add(SharedListResultSchema, { id: "SharedListResult" });
  registry.add(SavedListSchema, { id: "SavedList" });
  registry.add(ListsResultSchema, { id: "ListsResult" });
  registry.add(DeleteListResultSchema, { id: "DeleteListResult" });
  registry.add(DirectAccessGrantSchema, { id: "DirectAccessGrant" });
  registry.add(errorEnvelopeSchema(directChannelErrorCodes()), {
    id: "ErrorEnvelope",
    description: "Every error answer; the statuses and codes each route can return are listed on the route",
  });

  const envelopes = new Map<z.ZodType, string>();
  for (const route of DIRECT_ROUTES) {
    if (envelopes.has(route.data)) continue;
    const dataId = registry.get(route.data)?.id;
    if (!dataId) throw new Error(`${route.path}: its success data schema is not registered as a component`);
    const id = `${dataId}Envelope`;
    registry.add(z.object({ ok: z.literal(true), data: route.data }), {
      id,
      description: `{ok: true, data: ${dataId}}`,
    });
    envelopes.set(route.data, id);
  }
  return { registry, envelopes };
}

function errorEnvelopeSchema(codes: readonly ErrorCode[]) {
  return z.object({
    ok: z.literal(false),
    error: z.object({
      code: z.enum(codes as [ErrorCode, ...ErrorCode[]]),
      message: z.string().meta({ description: "Human-readable; names the failing fields for VALIDATION_ERROR" }),
      retryable: z.boolean().meta({
        description: "Whether repeating the same request later can succeed",
      }),
    }),
  });
}

function operationObject(
  route: DocumentedRoute,
  requests: ComponentRegistry,
  envelopes: Map<z.ZodType, string>,
): OperationObject {
  const responses: Record<string, ResponseObject> = {
    "200": {
      description: "Success",
      content: { "application/json": { schema: { $ref: SCHEMA_REF_PREFIX + envelopes.get(route.data)! } } },
    },
  };
  for (const [status, errors] of errorsByStatus(route)) {
    responses[String(status)] = {
      description: errors.map((error) => error.code).join(", "),
      content: { "application/json": { schema: errorResponseSchema(errors) } },
    };
  }
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: route.description,
    tags: [TAGS[route.namespace].name],
    security: route.security ? [{ [route.security]: [] }] : [],
    ...(route.query ? { parameters: queryParameters(route.query) } : {}),
    ...(route.body ? { requestBody: requestBody(route, requests) } : {}),
    responses,
  };
}

function requestBody(route: DocumentedRoute, requests: ComponentRegistry): NonNullable<OperationObject["requestBody"]> {
  const id = requests.get(route.body!)?.id;
  if (!id) throw new Error(`${route.path}: its request body schema is not registered as a component`);
  return { required: true, content: { "application/json": { schema: { $ref: SCHEMA_REF_PREFIX + id } } } };
}

/**
 * One query parameter per field of the route's query schema, converted as input: `limit` is
 * `z.coerce.number().int().min(1).max(100).default(20)`, which JSON Schema states as an integer
 * with minimum, maximum and default (query values are strings on the wire, typed by the schema).
 */
function queryParameters(query: z.ZodObject): ParameterObject[] {
  const schema = toJsonSchema(query, "input");
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: "query",
    required: required.has(name),
    schema: property,
    ...(typeof property.description === "string" ? { description: property.description } : {}),
  }));
}

/**
 * The ErrorEnvelope component narrowed to the codes of one status (and to their retryable flag when
 * they agree), so a client sees exactly which codes a route answers with at that status.
 */
function errorResponseSchema(errors: ResolvedError[]): JsonSchema {
  const flags = new Set(errors.map((error) => error.retryable));
  const error: JsonSchema = { properties: { code: { enum: errors.map((entry) => entry.code) } } };
  if (flags.size === 1) (error.properties as JsonSchema).retryable = { const: [...flags][0] };
  return { allOf: [{ $ref: `${SCHEMA_REF_PREFIX}ErrorEnvelope` }, { properties: { error } }] };
}

function toJsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _schema, ...converted } = z.toJSONSchema(schema, { io, override: tidy(io) }) as JsonSchema;
  return io === "output" ? openResponseObjects(converted) : converted;
}

function convertRegistry(registry: ComponentRegistry, io: "input" | "output"): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(registry, { io, override: tidy(io), uri: (id) => SCHEMA_REF_PREFIX + id });
  const components: Record<string, JsonSchema> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    const { $schema: _schema, $id: _id, ...rest } = schema as JsonSchema;
    components[id] = io === "output" ? openResponseObjects(rest) : rest;
  }
  return components;
}

// zod writes its string checks (startsWith, includes, endsWith) as a pattern plus a format of its
// own; the pattern says it all, and an unknown format only confuses validators and generators.
const ZOD_ONLY_FORMATS = new Set(["starts_with", "ends_with", "includes"]);

function tidy(io: "input" | "output") {
  return ({ jsonSchema, path }: { jsonSchema: JsonSchema; path: (string | number)[] }) => {
    if (typeof jsonSchema.format === "string" && ZOD_ONLY_FORMATS.has(jsonSchema.format)) delete jsonSchema.format;
    // z.number().int() bounds itself to the safe integers; that says nothing to a client.
    if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
    if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
    // The snapshot's size limit is a refinement JSON Schema cannot state; say it in words.
    if (io === "input" && path.at(-1) === "snapshot") {
      jsonSchema.description =
        `Optional JSON object stored with the item and returned by list (e.g. title, image, price), ` +
        `at most ${MAX_SNAPSHOT_BYTES} bytes of JSON`;
    }
  };
}

/**
 * Response objects are documented open (no additionalProperties: false): the service may add
 * fields, and a client must not break on one. Request objects keep what the zod schema says.
 */
function openResponseObjects(schema: JsonSchema): JsonSchema {
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (value === null || typeof value !== "object") return value;
    const entries = Object.entries(value as JsonSchema)
      .filter(([key, child]) => !(key === "additionalProperties" && child === false))
      .map(([key, child]) => [key, walk(child)]);
    return Object.fromEntries(entries);
  };
  return walk(schema) as JsonSchema;
}

/** The overview: authentication in two steps, the envelopes, and every code with its statuses. */
function infoDescription(): string {
  const statuses = new Map<ErrorCode, Set<number>>();
  for (const route of DIRECT_ROUTES) {
    for (const error of route.errors.map(resolveError)) {
      statuses.set(error.code, (statuses.get(error.code) ?? new Set()).add(error.status));
    }
  }
  const rows = directChannelErrorCodes().map(
    (code) =>
      `| ${code} | ${[...(statuses.get(code) ?? [ERROR_CODES[code].status])].sort().join(", ")} | ${ERROR_CODES[code].retryable} |`,
  );
  return [
    "Saved items for headless storefronts and customer-account UI extensions.",
    "",
    "1. Exchange a platform credential for a service token at the namespace's `auth/exchange` route.",
    `2. Call the operations with \`Authorization: Bearer <service token>\` (valid ${DIRECT_ACCESS_TOKEN_TTL_SECONDS} s; exchange again when it expires, there is no refresh).`,
    "",
    "Shop, channel and customer come only from the token. POST bodies are JSON (`Content-Type: application/json`, at most 256 KiB); GET routes take query parameters, each at most once.",
    "",
    'Success: `{"ok": true, "data": ...}`. Error: `{"ok": false, "error": {"code", "message", "retryable"}}`.',
    "",
    "| Code | HTTP status | retryable |",
    "| --- | --- | --- |",
    ...rows,
  ].join("\n");
}
