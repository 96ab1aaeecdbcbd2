import { setTimeout as sleep } from "node:timers/promises";
import { getOperationAST, parse, type DocumentNode, type GraphQLError } from "graphql";
import { http, HttpResponse, type JsonBodyType, type RequestHandler } from "msw";
import { faultReply, THROTTLED_ERROR, type FaultQueue } from "./faults";
import { jsonReply, type Reply } from "./reply";
import type { ApiName, RecordedRequest } from "./types";

export interface GraphqlRequest {
  query: string;
  variables: Record<string, unknown>;
  operationName: string | undefined;
  parsed: { document: DocumentNode } | { syntaxError: GraphQLError };
}

export interface RouteEnv {
  latencyMs(): number;
  requests: RecordedRequest[];
  faults: FaultQueue;
}

/** A URL pattern's capture groups; empty when the pattern does not match. */
type Groups = readonly (string | undefined)[];

export interface GraphqlExchange {
  request: Request;
  groups: Groups;
  graphql: GraphqlRequest;
}

export interface GraphqlRoute {
  api: ApiName;
  url: RegExp;
  /** The shop a request is recorded under. */
  shopOf(groups: Groups): string;
  handle(exchange: GraphqlExchange): Reply | Promise<Reply>;
  /** An injected THROTTLED answer; the default has no cost figures. */
  throttled?(exchange: GraphqlExchange): Reply | Promise<Reply>;
}

export interface GetRoute {
  api: ApiName;
  url: RegExp;
  shopOf(groups: Groups): string;
  handle(groups: Groups): Reply;
}

function matchUrl(pattern: RegExp, request: Request): Groups {
  // msw matches patterns against the URL without query string and hash.
  const url = new URL(request.url);
  return pattern.exec(`${url.origin}${url.pathname}`)?.slice(1) ?? [];
}

async function readGraphqlRequest(request: Request): Promise<GraphqlRequest | undefined> {
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return undefined;
  }
  if (typeof body !== "object" || body === null) return undefined;
  const { query, variables, operationName } = body as Record<string, unknown>;
  if (typeof query !== "string") return undefined;
  let parsed: GraphqlRequest["parsed"];
  let documentOperationName: string | undefined;
  try {
    const document = parse(query);
    parsed = { document };
    documentOperationName = getOperationAST(document)?.name?.value;
  } catch (error) {
    parsed = { syntaxError: error as GraphQLError };
  }
  return {
    query,
    variables: typeof variables === "object" && variables !== null ? (variables as Record<string, unknown>) : {},
    operationName: typeof operationName === "string" ? operationName : documentOperationName,
    parsed,
  };
}

function toResponse(reply: Reply): Response {
  if (reply === "network-error") return HttpResponse.error();
  return HttpResponse.json(reply.body as JsonBodyType, { status: reply.status, headers: reply.headers });
}

/** Records the request, then answers with a pending fault or with `produce`. */
async function serve(
  env: RouteEnv,
  entry: Omit<RecordedRequest, "status">,
  produce: () => Reply | Promise<Reply>,
  throttled: (() => Reply | Promise<Reply>) | undefined,
): Promise<Reply> {
  const recorded: RecordedRequest = { ...entry, status: 0 };
  env.requests.push(recorded);
  const fault = env.faults.take(entry.api, entry.operationName);
  let reply: Reply;
  if (fault === undefined) reply = await produce();
  else if (fault === "throttled") reply = throttled ? await throttled() : jsonReply(200, { errors: [THROTTLED_ERROR] });
  else reply = faultReply(fault);
  recorded.status = reply === "network-error" ? 0 : reply.status;
  return reply;
}

/**
 * An msw handler that answers each Request once. With more than one msw server listening in a
 * process (a test file's own server next to a shared one from a setup file), msw runs the
 * handlers once per server for the same Request; repeating the first answer keeps the emulator's
 * state and request log to one visit per request.
 */
function onceHandler(
  env: RouteEnv,
  method: "get" | "post",
  url: RegExp,
  answer: (request: Request, groups: Groups) => Promise<Reply>,
): RequestHandler {
  const answers = new WeakMap<Request, Promise<Reply>>();
  return http[method](url, async ({ request }) => {
    let reply = answers.get(request);
    if (!reply) {
      reply = (async () => {
        const ms = env.latencyMs();
        if (ms > 0) await sleep(ms);
        return answer(request, matchUrl(url, request));
      })();
      answers.set(request, reply);
    }
    return toResponse(await reply);
  });
}

export function graphqlRoute(env: RouteEnv, route: GraphqlRoute): RequestHandler {
  return onceHandler(env, "post", route.url, async (request, groups) => {
    const graphql = await readGraphqlRequest(request);
    const entry = {
      api: route.api,
      shop: route.shopOf(groups),
      operationName: graphql?.operationName,
      query: graphql?.query,
      variables: graphql?.variables,
    };
    if (!graphql) {
      return serve(
        env,
        entry,
        () => jsonReply(400, { errors: { query: "Required parameter missing or invalid" } }),
        undefined,
      );
    }
    const exchange = { request, groups, graphql };
    const { throttled } = route;
    return serve(env, entry, () => route.handle(exchange), throttled && (() => throttled(exchange)));
  });
}

export function getRoute(env: RouteEnv, route: GetRoute): RequestHandler {
  return onceHandler(env, "get", route.url, async (_request, groups) =>
    serve(env, { api: route.api, shop: route.shopOf(groups) }, () => route.handle(groups), undefined),
  );
}
