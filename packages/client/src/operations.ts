import type { components, paths } from "./generated/openapi.js";
import { ROUTES } from "./generated/routes.js";

/**
 * The client's typed surface, derived from the generated `paths`: an operation is any path of a
 * channel other than its exchange, its input the request body (POST) or query (GET), its output
 * `data` of the 200 envelope. A new operation in the document is callable once the sources are
 * regenerated, with nothing written by hand.
 */

export type Channel = "headless" | "customer-account";

const EXCHANGE = "auth/exchange";

type Path = keyof paths;

export type OperationName<C extends Channel> = Path extends infer P
  ? P extends `/api/${C}/${infer Name}`
    ? Name extends typeof EXCHANGE
      ? never
      : Name
    : never
  : never;

type OperationPath<C extends Channel, Name extends OperationName<C>> = `/api/${C}/${Name}` & Path;

type OperationObject<C extends Channel, Name extends OperationName<C>> = paths[OperationPath<C, Name>] extends {
  post: infer Operation;
}
  ? Operation
  : paths[OperationPath<C, Name>] extends { get: infer Operation }
    ? Operation
    : never;

/** The JSON body of a POST operation, the query parameters of a GET one. */
export type OperationInput<C extends Channel, Name extends OperationName<C>> =
  OperationObject<C, Name> extends { requestBody: { content: { "application/json": infer Body } } }
    ? Body
    : OperationObject<C, Name> extends { parameters: { query?: infer Query } }
      ? NonNullable<Query>
      : never;

/** `data` of the operation's success envelope. */
export type OperationOutput<C extends Channel, Name extends OperationName<C>> =
  OperationObject<C, Name> extends { responses: { 200: { content: { "application/json": { data: infer Data } } } } }
    ? Data
    : never;

type ErrorBody<Operation> = Operation extends { responses: infer Responses }
  ? {
      [Status in Exclude<keyof Responses, 200>]: Responses[Status] extends {
        content: { "application/json": infer Body };
      }
        ? Body
        : never;
    }[Exclude<keyof Responses, 200>]
  : never;

type CodeOf<Body> = Body extends { error?: infer ErrorField }
  ? NonNullable<ErrorField> extends { code?: infer Code }
    ? NonNullable<Code>
    : never
  : never;

/**
 * The codes the document says the operation can answer (at every status but 200), for an
 * exhaustive `switch (error.code)` on a SavedItemsError it rejected with.
 */
export type OperationErrorCode<C extends Channel, Name extends OperationName<C>> = CodeOf<
  ErrorBody<OperationObject<C, Name>>
>;

/** What /api/headless/auth/exchange takes: the modern or the legacy field set. */
export type HeadlessCredentials = components["schemas"]["HeadlessExchangeRequest"];

export type Schemas = components["schemas"];

/** The route of a channel's operation and its method, from the generated route table. */
export function operationRoute(channel: Channel, name: string): { path: string; method: "get" | "post" } | undefined {
  if (name === EXCHANGE) return undefined;
  const path = `/api/${channel}/${name}`;
  const method = (ROUTES as Record<string, "get" | "post">)[path];
  return method && { path, method };
}

/** Every operation of a channel the generated route table knows, in document order. */
export function operationNames<C extends Channel>(channel: C): OperationName<C>[] {
  const prefix = `/api/${channel}/`;
  return Object.keys(ROUTES)
    .filter((path) => path.startsWith(prefix) && path !== prefix + EXCHANGE)
    .map((path) => path.slice(prefix.length) as OperationName<C>);
}

export function exchangePath(channel: Channel): string {
  return `/api/${channel}/${EXCHANGE}`;
}
