import {
  NoDeprecatedCustomRule,
  parse,
  validate,
  type DocumentNode,
  type GraphQLError,
  type GraphQLSchema,
} from "graphql";

export type ParsedDocument = { document: DocumentNode } | { syntaxError: GraphQLError };

// Apps send a handful of distinct documents over and over; parsing and validating against the
// admin schema is most of the emulator's cost per request, so both are remembered by query text.
// The bound keeps a long-running sandbox from growing on documents built with inline values.
const PARSE_CACHE_LIMIT = 500;
const parsed = new Map<string, ParsedDocument>();

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

type DocumentCheck = (schema: GraphQLSchema, document: DocumentNode) => readonly GraphQLError[];

/** The check, run once per schema and parsed document (an entry goes when its document leaves the parse cache). */
function oncePerDocument(check: DocumentCheck): DocumentCheck {
  const results = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, readonly GraphQLError[]>>();
  return (schema, document) => {
    let bySchema = results.get(schema);
    if (!bySchema) {
      bySchema = new WeakMap();
      results.set(schema, bySchema);
    }
    let errors = bySchema.get(document);
    if (!errors) {
      errors = check(schema, document);
      bySchema.set(document, errors);
    }
    return errors;
  };
}

export const validateDocument = oncePerDocument((schema, document) => validate(schema, document));

/**
 * Deprecated fields, arguments, input fields and enum values the document uses. The platform answers
 * them as usual, so they are no reason to refuse a request; they are reported, because a deprecated
 * field is one the platform has announced it will remove.
 */
export const deprecatedUsages = oncePerDocument((schema, document) =>
  validate(schema, document, [NoDeprecatedCustomRule]),
);
