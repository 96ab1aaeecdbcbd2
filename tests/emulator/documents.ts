import { parse, validate, type DocumentNode, type GraphQLError, type GraphQLSchema } from "graphql";

export type ParsedDocument = { document: DocumentNode } | { syntaxError: GraphQLError };

// Apps send a handful of distinct documents over and over; parsing and validating against the
// admin schema is most of the emulator's cost per request, so both are remembered by query text.
// The bound keeps a long-running sandbox from growing on documents built with inline values.
const PARSE_CACHE_LIMIT = 500;
const parsed = new Map<string, ParsedDocument>();

// Keyed by the parsed document, so an entry goes when its document leaves the parse cache.
const validated = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, readonly GraphQLError[]>>();

export function parseDocument(query: string): ParsedDocument {
  let result = parsed.get(query);
  if (result) {
    // Re-inserting moves the entry to the back, so the Map's first key is the least recently used.
    parsed.delete(query);
  } else {
    try {
      result = { document: parse(query) };
    } catch (error) {
      result = { syntaxError: error as GraphQLError };
    }
    if (parsed.size >= PARSE_CACHE_LIMIT) parsed.delete(parsed.keys().next().value as string);
  }
  parsed.set(query, result);
  return result;
}

export function validateDocument(schema: GraphQLSchema, document: DocumentNode): readonly GraphQLError[] {
  let bySchema = validated.get(schema);
  if (!bySchema) {
    bySchema = new WeakMap();
    validated.set(schema, bySchema);
  }
  let errors = bySchema.get(document);
  if (!errors) {
    errors = validate(schema, document);
    bySchema.set(document, errors);
  }
  return errors;
}
