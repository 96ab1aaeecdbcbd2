import { ServiceError } from "~/lib/errors";
import type { AppLoadContext } from "@remix-run/node";
import { annotateRequest } from "~/lib/request-context.server";
import { dispatchSavedItems } from "~/operations/dispatcher.server";
import { MAX_SHARED_LIST_LIMIT, SHARE_TOKEN_PATTERN } from "~/services/saved-items/sharing-schemas";
import { assertSharedPageViewerWithinRate } from "~/services/usage/rate-limits.server";
import { errorResponse } from "../envelope.server";
import { requireProxyViewer } from "../front-doors/proxy-caller.server";
import { proxiedClientAddressInContext } from "../request-input.server";
import { sharedListLiquid, sharedListNotFoundLiquid, sharedListUnavailableLiquid } from "./render-liquid";

function liquid(status: number, body: string, headers: Record<string, string> = {}): Response {
  // no-store: a revoked link must stop showing at once, also in caches between.
  return new Response(body, {
    status,
    headers: { "Content-Type": "application/liquid; charset=utf-8", "Cache-Control": "no-store", ...headers },
  });
}

/**
 * GET /proxy/shared/<token> (the storefront's /apps/saved-items/shared/<token>): the list a share
 * token opens, by the logged-in shopper or the shop's anonymous viewer. The viewer's address has
 * a rate of its own (SHARED_PAGE_VIEWER_RATE), then the dispatcher reads the list (a logged-out
 * viewer's read is never counted against the budget; see sharing.server for what bounds it). A
 * token that opens nothing here is the 404 page, whatever the reason; a request the platform did
 * not sign gets the JSON error envelope.
 */
export async function sharedPageResponse(
  request: Request,
  token: string | undefined,
  context: AppLoadContext,
): Promise<Response> {
  annotateRequest({ channel: "online-store", operation: "shared-page" });
  let caller;
  try {
    caller = await requireProxyViewer(request, context);
  } catch (error) {
    if (error instanceof ServiceError && error.code === "SHOP_NOT_INSTALLED")
      return liquid(404, sharedListNotFoundLiquid());
    return errorResponse(error);
  }
  if (token === undefined || !SHARE_TOKEN_PATTERN.test(token)) return liquid(404, sharedListNotFoundLiquid());
  try {
    await assertSharedPageViewerWithinRate(caller.shop, proxiedClientAddressInContext(context));
    const list = await dispatchSavedItems(caller, "shared-list", { token, limit: MAX_SHARED_LIST_LIMIT });
    return liquid(200, sharedListLiquid(list));
  } catch (error) {
    if (error instanceof ServiceError && error.code === "NOT_FOUND") return liquid(404, sharedListNotFoundLiquid());
    // Logged and counted as the envelope does; the shopper sees a page of the theme, not JSON.
    const { status, headers } = errorResponse(error);
    const retryAfter = headers.get("Retry-After");
    return liquid(status, sharedListUnavailableLiquid(), retryAfter ? { "Retry-After": retryAfter } : {});
  }
}
