import type { AppLoadContext, LoaderFunctionArgs } from "@remix-run/node";
import type { z } from "zod";
import { ServiceError } from "~/lib/errors";
import { annotateRequest } from "~/lib/request-context.server";
import type { PlanChannel } from "~/services/channels";
import type { Caller } from "~/services/caller";
import { dispatchSavedItems } from "~/operations/dispatcher.server";
import { isOperationName, OPERATIONS } from "~/operations/operations";
import { preflightResponse, withCors } from "./cors.server";
import { errorAnswer, methodNotAllowed, okAnswer, toResponse, type EnvelopeAnswer } from "./envelope.server";
import { requireCustomerAccountCaller, requireHeadlessCaller } from "./front-doors/direct-caller.server";
import { requirePosCaller } from "./front-doors/pos-caller.server";
import { requireProxyCaller, requireProxyCallerAt } from "./front-doors/proxy-caller.server";
import { parseJsonBody, parseQuery, parseQueryOf } from "./request-input.server";
import { servesOperation } from "./route-table";

/** Each channel's front door: who is calling, established before anything else is read. */
const FRONT_DOORS: Record<PlanChannel, (request: Request, context: AppLoadContext) => Promise<Caller>> = {
  "online-store": requireProxyCaller,
  headless: requireHeadlessCaller,
  "customer-account": requireCustomerAccountCaller,
  "point-of-sale": requirePosCaller,
};

/** The channels called by extensions running on another origin (customer accounts, POS). */
const CROSS_ORIGIN_CHANNELS: readonly PlanChannel[] = ["customer-account", "point-of-sale"];

type Handler = (args: LoaderFunctionArgs) => Promise<Response>;

/** How one request names its caller and its input: from a Fetch Request, or from the URL alone. */
interface OperationRequest {
  method: string;
  caller(): Promise<Caller>;
  input<Schema extends z.ZodType>(method: string, schema: Schema): Promise<z.infer<Schema>>;
}

/**
 * Every operation request's handling, whichever way it arrived: operation lookup, method check,
 * the channel's front door, edge validation, the dispatcher, the envelope.
 */
async function answerOperation(
  channel: PlanChannel,
  operation: string | undefined,
  request: OperationRequest,
): Promise<EnvelopeAnswer> {
  try {
    if (!isOperationName(operation) || !servesOperation(channel, operation))
      throw new ServiceError("NOT_FOUND", `No operation named ${operation ?? "(none)"}`);
    annotateRequest({ channel, operation });
    const { method, input } = OPERATIONS[operation];
    if (request.method !== method) throw methodNotAllowed(method);
    const caller = await request.caller();
    annotateRequest({ shop: caller.shop });
    return okAnswer(await dispatchSavedItems(caller, operation, await request.input(method, input)));
  } catch (error) {
    return errorAnswer(error);
  }
}

/**
 * The loader and action of a channel's operation route (<namespace>/$operation). Both exports
 * share the handler because Remix sends GET (and OPTIONS) to the loader and POST to the action,
 * and the wrong one must still answer 405. The customer-account and point-of-sale channels are
 * called by extensions on another origin: OPTIONS is answered as a preflight before anything else,
 * and every response, errors included, carries CORS headers.
 */
export function createChannelRoute(channel: PlanChannel): { loader: Handler; action: Handler } {
  const handleOperation: Handler = async ({ request, params, context }) =>
    toResponse(
      await answerOperation(channel, params.operation, {
        method: request.method,
        caller: () => FRONT_DOORS[channel](request, context),
        input: async (method, schema) =>
          method === "GET" ? parseQuery(request, context, schema) : parseJsonBody(request, schema),
      }),
    );
  if (!CROSS_ORIGIN_CHANNELS.includes(channel)) return { loader: handleOperation, action: handleOperation };
  const handleWithCors: Handler = async (args) =>
    args.request.method === "OPTIONS" ? preflightResponse() : withCors(await handleOperation(args));
  return { loader: handleWithCors, action: handleWithCors };
}

/**
 * A GET of the storefront's channel answered from its URL as sent, with no Fetch Request, Remix
 * match or Response (the server's fast path, server/remix-dispatch.ts): the same front door, input
 * parsing, dispatcher and envelope as the route, so the same guarantees. The caller runs it in
 * the request scope. Undefined, with nothing done, for a URL naming Remix's own `_data` parameter,
 * which Remix answers itself (decision 0007): the caller hands that request to Remix.
 */
export function answerProxyQuery(operation: string, requestUrl: string): Promise<EnvelopeAnswer> | undefined {
  const url = new URL(requestUrl);
  if (url.searchParams.has("_data")) return undefined;
  return answerOperation("online-store", operation, {
    method: "GET",
    caller: () => requireProxyCallerAt(url),
    input: async (_method, schema) => parseQueryOf(url, schema),
  });
}
