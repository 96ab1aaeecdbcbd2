import { getOperationAST } from "graphql";
import { http, HttpResponse, type JsonBodyType, type RequestHandler } from "msw";
import { parseDocument, type ParsedDocument } from "./documents";
import { faultReply, THROTTLED_ERROR, type FaultQueue } from "./faults";
import { jsonReply, type Reply } from "./reply";
import type { RequestLog } from "./request-log";
import type { ApiName, FaultSpec, RecordedRequest } from "./types";

export interface GraphqlRequest {
  query: string;
  variables: Record<string, unknown>;
  operationName: string | undefined;
  parsed: ParsedDocument;
}

export interface RouteEnv {
  latencyMs(): number;
  sleep(ms: number): Promise<void>;
  log: RequestLog;
  faults: FaultQueue;
}

/** A URL pattern's capture groups. */
type Groups = readonly (string | undefined)[];

/**
 * One endpoint of the platform as a plain Request → Reply function. The msw handlers (tests, in
 * process) and the HTTP server (a separate process) both answer through these, so the two can
 * never behave differently.
 */
export interface Route {
  method: "GET" | "POST";
  /** Matched against the URL without query string and hash, as msw does. */
  url: RegExp;
  answer(request: Request, groups: Groups): Promise<Reply>;
}

export interface GraphqlExchange {
  request: Request;
  groups: Groups;
  graphql: GraphqlRequest;
}

export interface GraphqlRouteSpec {
  api: ApiName;
  url: RegExp;
  /** The shop a request is recorded under. */
  shopOf(groups: Groups): string;
  handle(exchange: GraphqlExchange): Reply | Promise<Reply>;
  /** An injected THROTTLED answer; the default has no cost figures. */
  throttled?(exchange: GraphqlExchange): Reply | Promise<Reply>;
}

export interface PlainRouteSpec {
  api: ApiName;
  method: Route["method"];
  url: RegExp;
  shopOf(groups: Groups): string;
  handle(request: Request, groups: Groups): Reply | Promise<Reply>;
}

function matchUrl(pattern: RegExp, request: Request): Groups | undefined {
  const url = new URL(request.url);
  return pattern.exec(`${url.origin}${url.pathname}`)?.slice(1);
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
  const parsed = parseDocument(query);
  const documentOperationName = "document" in parsed ? getOperationAST(parsed.document)?.name?.value : undefined;
  return {
    query,
    variables: typeof variables === "object" && variables !== null ? (variables as Record<string, unknown>) : {},
    operationName: typeof operationName === "string" ? operationName : documentOperationName,
    parsed,
  };
}

function toResponse(reply: Reply): Response {
  if (reply === "network-error") return HttpResponse.error();
  if (reply.text) return new HttpResponse(reply.body, { status: reply.status, headers: reply.headers });
  return HttpResponse.json(reply.body as JsonBodyType, { status: reply.status, headers: reply.headers });
}

async function replyWithFault(
  env: RouteEnv,
  request: Request,
  fault: FaultSpec | undefined,
  produce: () => Reply | Promise<Reply>,
  throttled: (() => Reply | Promise<Reply>) | undefined,
): Promise<Reply> {
  if (!fault) return produce();
  switch (fault.kind) {
    case "delay":
      await env.sleep(fault.delayMs ?? 0);
      return produce();
    case "hang":
      await env.faults.hang(request.signal);
      return "network-error";
    case "hangAfterWork": {
      await produce();
      await env.faults.hang(request.signal);
      return "network-error";
    }
    case "throttled":
      return throttled ? throttled() : jsonReply(200, { errors: [THROTTLED_ERROR] });
    default:
      return faultReply(fault.kind);
  }
}

/** Records the request, then answers with a pending fault or with `produce`. */
async function serve(
  env: RouteEnv,
  request: Request,
  entry: Omit<RecordedRequest, "status">,
  produce: () => Reply | Promise<Reply>,
  throttled?: () => Reply | Promise<Reply>,
): Promise<Reply> {
  const recorded: RecordedRequest = { ...entry, status: 0 };
  env.log.record(recorded);
  const fault = env.faults.take(entry.api, entry.operationName, entry.shop);
  const reply = await replyWithFault(env, request, fault, produce, throttled);
  recorded.status = reply === "network-error" ? 0 : reply.status;
  const points = reply === "network-error" ? undefined : pointsOf(reply.body);
  if (points) recorded.points = points;
  return reply;
}

/** The points of an Admin answer that ran (a throttled one has no actual cost). */
function pointsOf(body: unknown): RecordedRequest["points"] {
  const cost = (body as { extensions?: { cost?: { requestedQueryCost?: unknown; actualQueryCost?: unknown } } } | null)
    ?.extensions?.cost;
  if (typeof cost?.requestedQueryCost !== "number" || typeof cost.actualQueryCost !== "number") return undefined;
  return { requested: cost.requestedQueryCost, actual: cost.actualQueryCost };
}

async function withLatency(env: RouteEnv, answer: () => Promise<Reply>): Promise<Reply> {
  const ms = env.latencyMs();
  if (ms > 0) await env.sleep(ms);
  return answer();
}

export function graphqlRoute(env: RouteEnv, spec: GraphqlRouteSpec): Route {
  return {
    method: "POST",
    url: spec.url,
    answer: (request, groups) =>
      withLatency(env, async () => {
        const graphql = await readGraphqlRequest(request);
        const entry = {
          api: spec.api,
          shop: spec.shopOf(groups),
          operationName: graphql?.operationName,
          query: graphql?.query,
          variables: graphql?.variables,
        };
        if (!graphql) {
          return serve(env, request, entry, () =>
            jsonReply(400, { errors: { query: "Required parameter missing or invalid" } }),
          );
        }
        const exchange = { request, groups, graphql };
        const { throttled } = spec;
        return serve(env, request, entry, () => spec.handle(exchange), throttled && (() => throttled(exchange)));
      }),
  };
}

export function plainRoute(env: RouteEnv, spec: PlainRouteSpec): Route {
  return {
    method: spec.method,
    url: spec.url,
    answer: (request, groups) =>
      withLatency(env, () =>
        serve(env, request, { api: spec.api, shop: spec.shopOf(groups) }, () => spec.handle(request, groups)),
      ),
  };
}

/** The emulator's answer to a request for a platform URL, or undefined when no route serves it. */
export async function answerRequest(routes: readonly Route[], request: Request): Promise<Response | undefined> {
  for (const route of routes) {
    if (route.method !== request.method) continue;
    const groups = matchUrl(route.url, request);
    if (groups) return toResponse(await route.answer(request, groups));
  }
  return undefined;
}

/**
 * msw handlers that answer each Request once. With more than one msw server listening in a
 * process (a test file's own server next to a shared one from a setup file), msw runs the
 * handlers once per server for the same Request; repeating the first answer keeps the emulator's
 * state and request log to one visit per request.
 */
export function mswHandlers(routes: readonly Route[]): RequestHandler[] {
  return routes.map((route) => {
    const answers = new WeakMap<Request, Promise<Reply>>();
    const method = route.method === "GET" ? http.get : http.post;
    return method(route.url, async ({ request }) => {
      let reply = answers.get(request);
      if (!reply) {
        reply = route.answer(request, matchUrl(route.url, request) ?? []);
        answers.set(request, reply);
      }
      return toResponse(await reply);
    });
  });
}
