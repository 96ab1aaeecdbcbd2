import {
  execute,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLFieldResolver,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from "graphql";
import { deprecatedUsages, validateDocument } from "./documents";
import type { GraphqlRequest } from "./exchange";
import { jsonReply, type Reply } from "./reply";

export interface PreparedOperation {
  schema: GraphQLSchema;
  document: DocumentNode;
  operation: OperationDefinitionNode;
  /** Coerced variable values, as resolvers see them. */
  variables: Record<string, unknown>;
  request: GraphqlRequest;
}

export type ReportViolation = (errors: readonly GraphQLError[]) => void;

// Shopify answers with graphql-ruby's static validation codes; graphql-js has the same rules
// under different messages.
const VALIDATION_CODES: [RegExp, string][] = [
  [/^Cannot query field /, "undefinedField"],
  [/^Unknown argument /, "argumentNotAccepted"],
  [/^Field ".*" is not defined by type /, "argumentNotAccepted"],
  [/ argument ".*" of type ".*" is required, but it was not provided/, "missingRequiredArguments"],
  [/^Field ".*" of required type ".*" was not provided/, "missingRequiredInputObjectAttribute"],
  [/^Unknown type /, "undefinedType"],
  [/ cannot represent |^Value ".*" does not exist in /, "argumentLiteralsIncompatible"],
  [/ must have a selection of subfields|must not have a selection since type /, "selectionMismatch"],
  [/^Variable ".*" of type ".*" used in position expecting /, "variableMismatch"],
  [/^Variable ".*" is never used/, "variableNotUsed"],
  [/^Variable ".*" is not defined/, "variableNotDefined"],
];

function shopifyError(error: GraphQLError): Record<string, unknown> {
  const code = VALIDATION_CODES.find(([pattern]) => pattern.test(error.message))?.[1];
  return { message: error.message, locations: error.locations, ...(code ? { extensions: { code } } : {}) };
}

/**
 * Parses, validates and picks the operation, and coerces its variables against the published
 * schema. A request that fails any of these is reported as a violation and answered the way
 * Shopify answers it: HTTP 200 with `errors` and no `data`. A valid request that uses something
 * deprecated is answered, and reported as a violation too.
 */
export function prepareOperation(
  schema: GraphQLSchema,
  request: GraphqlRequest,
  reportViolation: ReportViolation,
): PreparedOperation | { rejection: Reply } {
  const reject = (errors: readonly GraphQLError[]) => {
    reportViolation(errors);
    return { rejection: jsonReply(200, { errors: errors.map(shopifyError) }) };
  };
  if ("syntaxError" in request.parsed) return reject([request.parsed.syntaxError]);
  const { document } = request.parsed;
  const validationErrors = validateDocument(schema, document);
  if (validationErrors.length > 0) return reject(validationErrors);
  const deprecated = deprecatedUsages(schema, document);
  if (deprecated.length > 0) reportViolation(deprecated);
  const operation = getOperationAST(document, request.operationName);
  if (!operation) {
    return reject([
      new GraphQLError(
        request.operationName
          ? `No operation named "${request.operationName}"`
          : "An operation name is required when the document has more than one operation",
      ),
    ]);
  }
  const variables = getVariableValues(schema, operation.variableDefinitions ?? [], request.variables);
  if (variables.errors) return reject(variables.errors);
  return { schema, document, operation, variables: variables.coerced, request };
}

// The schemas come without resolvers, so data is plain objects whose properties are values or
// functions of the field's arguments. A property that is absent means the emulator does not model
// that field; answering null would let the app pass against behaviour the platform does not have.
type FieldFunction = (args: Record<string, unknown>, context: unknown, info: GraphQLResolveInfo) => unknown;

const strictFieldResolver: GraphQLFieldResolver<unknown, unknown> = (source, args, context, info) => {
  if (typeof source === "object" && source !== null && info.fieldName in source) {
    const value: unknown = (source as Record<string, unknown>)[info.fieldName];
    return typeof value === "function" ? (value as FieldFunction)(args, context, info) : value;
  }
  throw new GraphQLError(
    `emulator: ${info.parentType.name}.${info.fieldName} not implemented (the real API has it; add it to packages/platform-emulator)`,
    { extensions: { code: "EMULATOR_NOT_IMPLEMENTED" } },
  );
};

export async function executeOperation(
  prepared: PreparedOperation,
  rootValue: Record<string, unknown>,
  contextValue?: unknown,
): Promise<ExecutionResult> {
  return execute({
    schema: prepared.schema,
    document: prepared.document,
    rootValue,
    contextValue,
    variableValues: prepared.request.variables,
    operationName: prepared.operation.name?.value,
    fieldResolver: strictFieldResolver,
  });
}
