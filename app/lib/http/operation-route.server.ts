import type { LoaderFunctionArgs } from "@remix-run/node";
import { dispatchSavedItems } from "~/services/saved-items/dispatcher.server";
import type { Caller } from "~/services/saved-items/caller";
import { OPERATIONS, type OperationName } from "~/services/saved-items/schemas";
import { preflightResponse, withCors } from "./cors.server";
import { errorResponse, methodNotAllowed, okResponse } from "./envelope.server";
import { parseJsonBody, parseQuery } from "./request-input.server";

export interface OperationRouteOptions {
  /**
   * For browser callers on another origin (customer-account extensions): OPTIONS is answered as a
   * preflight before the method check, and every response, errors included, carries CORS headers.
   */
  cors?: boolean;
}

/**
 * Builds the loader and action of one operation route: method check, the channel's front door,
 * edge validation, the dispatcher, the envelope. Both exports share the handler because Remix
 * sends GET (and OPTIONS) to the loader and POST to the action, and the wrong one must still answer 405.
 */
export function createOperationRoute(
  operation: OperationName,
  requireCaller: (request: Request) => Promise<Caller>,
  options: OperationRouteOptions = {},
): { loader: (args: LoaderFunctionArgs) => Promise<Response>; action: (args: LoaderFunctionArgs) => Promise<Response> } {
  const { method, schema } = OPERATIONS[operation];
  const handleOperation = async ({ request }: LoaderFunctionArgs) => {
    try {
      if (request.method !== method) throw methodNotAllowed(method);
      const caller = await requireCaller(request);
      const input = method === "GET" ? parseQuery(request, schema) : await parseJsonBody(request, schema);
      return okResponse(await dispatchSavedItems(caller, operation, input));
    } catch (error) {
      return errorResponse(error);
    }
  };
  if (!options.cors) return { loader: handleOperation, action: handleOperation };
  const handleWithCors = async (args: LoaderFunctionArgs) =>
    args.request.method === "OPTIONS" ? preflightResponse() : withCors(await handleOperation(args));
  return { loader: handleWithCors, action: handleWithCors };
}
