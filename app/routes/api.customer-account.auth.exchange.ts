import type { ActionFunctionArgs } from "@remix-run/node";
import { preflightResponse, withCors } from "~/edge/cors.server";
import { errorResponse, methodNotAllowed, okResponse } from "~/edge/envelope.server";
import { exchangeCustomerAccountSessionToken } from "~/services/direct-access/customer-account-session.server";

// Called from a customer-account UI extension on another origin: every answer carries CORS headers.
export async function action({ request }: ActionFunctionArgs) {
  if (request.method === "OPTIONS") return preflightResponse();
  try {
    if (request.method !== "POST") throw methodNotAllowed("POST");
    return withCors(okResponse(await exchangeCustomerAccountSessionToken(request)));
  } catch (error) {
    return withCors(errorResponse(error));
  }
}

export const loader = action;
