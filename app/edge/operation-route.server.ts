import type { AppLoadContext, LoaderFunctionArgs } from "@remix-run/node";
import { ServiceError } from "~/lib/errors";
import { annotateRequest } from "~/lib/request-context.server";
import type { PlanChannel } from "~/services/channels";
import type { Caller } from "~/services/saved-items/caller";
import { dispatchSavedItems } from "~/services/saved-items/dispatcher.server";
import { isOperationName, OPERATIONS } from "~/services/saved-items/operations";
import { preflightResponse, withCors } from "./cors.server";
import { errorResponse, methodNotAllowed, okResponse } from "./envelope.server";
import { requireCustomerAccountCaller, requireHeadlessCaller } from "./front-doors/direct-caller.server";
import { requirePosCaller } from "./front-doors/pos-caller.server";
import { requireProxyCaller } from "./front-doors/proxy-caller.server";
import { parseJsonBody, parseQuery } from "./request-input.server";
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

/**
 * The loader and action of a channel's operation route (<namespace>/$operation): operation
 * lookup, method check, the channel's front door, edge validation, the dispatcher, the envelope.
 * Both exports share the handler because Remix sends GET (and OPTIONS) to the loader and POST to
 * the action, and the wrong one must still answer 405. The customer-account and point-of-sale
 * channels are called by extensions on another origin: OPTIONS is answered as a preflight before
 * anything else, and every response, errors included, carries CORS headers.
 */
export function createChannelRoute(channel: PlanChannel): { loader: Handler; action: Handler } {
  const handleOperation: Handler = async ({ request, params, context }) => {
    try {
      const operation = params.operation;
      if (!isOperationName(operation) || !servesOperation(channel, operation))
        throw new ServiceError("NOT_FOUND", `No operation named ${operation ?? "(none)"}`);
      annotateRequest({ channel, operation });
      const { method, input } = OPERATIONS[operation];
      if (request.method !== method) throw methodNotAllowed(method);
      const caller = await FRONT_DOORS[channel](request, context);
      annotateRequest({ shop: caller.shop });
      const parsed = method === "GET" ? parseQuery(request, context, input) : await parseJsonBody(request, input);
      return okResponse(await dispatchSavedItems(caller, operation, parsed));
    } catch (error) {
      return errorResponse(error);
    }
  };
  if (!CROSS_ORIGIN_CHANNELS.includes(channel)) return { loader: handleOperation, action: handleOperation };
  const handleWithCors: Handler = async (args) =>
    args.request.method === "OPTIONS" ? preflightResponse() : withCors(await handleOperation(args));
  return { loader: handleWithCors, action: handleWithCors };
}
