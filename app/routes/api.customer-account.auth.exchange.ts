import type { ActionFunctionArgs } from "@remix-run/node";
import { preflightResponse, withCors } from "~/edge/cors.server";
import { errorResponse, methodNotAllowed, okResponse } from "~/edge/envelope.server";
import { clientAddressInContext } from "~/edge/request-input.server";
import {
  claimedShopOf,
  exchangeCustomerAccountSessionToken,
} from "~/services/direct-access/customer-account-session.server";
import { meteredExchange } from "~/services/direct-access/exchange-limits.server";

// Called from a customer-account UI extension on another origin: every answer carries CORS headers.
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method === "OPTIONS") return preflightResponse();
  try {
    if (request.method !== "POST") throw methodNotAllowed("POST");
    const attempt = {
      clientAddress: clientAddressInContext(context),
      shop: claimedShopOf(request),
      path: "customer-account",
    } as const;
    return withCors(okResponse(await meteredExchange(attempt, () => exchangeCustomerAccountSessionToken(request))));
  } catch (error) {
    return withCors(errorResponse(error));
  }
}

export const loader = action;
