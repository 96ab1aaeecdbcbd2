import type { LoaderFunctionArgs } from "@remix-run/node";
import { dispatchSavedItems } from "~/services/saved-items/dispatcher.server";
import type { Caller } from "~/services/saved-items/caller";
import { OPERATIONS, type OperationName } from "~/services/saved-items/schemas";
import { errorResponse, methodNotAllowed, okResponse } from "./envelope.server";
import { parseJsonBody, parseQuery } from "./request-input.server";

/**
 * Builds the loader and action of one operation route: method check, the channel's front door,
 * edge validation, the dispatcher, the envelope. Both exports share the handler because Remix
 * sends GET to the loader and POST to the action, and the wrong one must still answer 405.
 */
export function createOperationRoute(
  operation: OperationName,
  requireCaller: (request: Request) => Promise<Caller>,
): { loader: (args: LoaderFunctionArgs) => Promise<Response>; action: (args: LoaderFunctionArgs) => Promise<Response> } {
  const { method, schema } = OPERATIONS[operation];
  const handle = async ({ request }: LoaderFunctionArgs) => {
    try {
      if (request.method !== method) throw methodNotAllowed(method);
      const caller = await requireCaller(request);
      const input = method === "GET" ? parseQuery(request, schema) : await parseJsonBody(request, schema);
      return okResponse(await dispatchSavedItems(caller, operation, input));
    } catch (error) {
      return errorResponse(error);
    }
  };
  return { loader: handle, action: handle };
}
