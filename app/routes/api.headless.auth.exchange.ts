import type { ActionFunctionArgs } from "@remix-run/node";
import { errorResponse, methodNotAllowed, okResponse } from "~/edge/envelope.server";
import { clientAddressInContext, parseJsonBody } from "~/edge/request-input.server";
import { meteredExchange } from "~/services/direct-access/exchange-limits.server";
import { exchangeStorefrontCustomerAccessToken } from "~/services/direct-access/headless-legacy.server";
import { exchangeCustomerAccountAccessToken } from "~/services/direct-access/headless-modern.server";
import { HeadlessExchangeRequestSchema, isModernExchangeRequest } from "~/services/direct-access/schemas";

// For backend servers only: no CORS headers, so a browser on another origin cannot read the answer.
export async function action({ request, context }: ActionFunctionArgs) {
  try {
    if (request.method !== "POST") throw methodNotAllowed("POST");
    const body = await parseJsonBody(request, HeadlessExchangeRequestSchema);
    const attempt = { clientAddress: clientAddressInContext(context), shop: body.shop };
    const grant = isModernExchangeRequest(body)
      ? await meteredExchange({ ...attempt, path: "modern" }, () => exchangeCustomerAccountAccessToken(body))
      : await meteredExchange({ ...attempt, path: "legacy" }, () => exchangeStorefrontCustomerAccessToken(body));
    return okResponse(grant);
  } catch (error) {
    return errorResponse(error);
  }
}

export const loader = action;
