import type { AppLoadContext } from "@remix-run/node";
import { ServiceError } from "~/lib/errors";
import { annotateRequest } from "~/lib/request-context.server";
import { requireOfflineAdmin } from "~/platform/offline-admin.server";
import {
  adminIssuedShopOf,
  STAFF_USER_ID_PATTERN,
  verifyExtensionSessionToken,
} from "~/services/direct-access/customer-account-session.server";
import { CUSTOMER_GID_PATTERN } from "~/services/direct-access/direct-token.server";
import type { Caller } from "~/services/caller";
import { requestUrl } from "../request-input.server";

/** The query parameter naming the customer chosen in POS. */
export const POS_CUSTOMER_PARAMETER = "customerId";

/**
 * The point-of-sale front door: the POS extension's session token (signed by the platform like an
 * admin session token: issued by the shop's admin for the shop, sub the staff user) says who is
 * asking and for which shop;
 * the customer is the one staff chose in POS, named in the query. The staff user goes into the
 * access log, so every read of a customer's list at the counter says who made it.
 */
export async function requirePosCaller(request: Request, context: AppLoadContext): Promise<Caller> {
  const claims = await verifyExtensionSessionToken(request, "api.session.getSessionToken()");
  const shop = adminIssuedShopOf(claims);
  if (!shop) throw new ServiceError("INVALID_TOKEN", "The session token was not issued by the shop's admin");
  const staff = staffUserOf(claims.sub);
  annotateRequest({ staff });
  const customerGid = requestUrl(request, context).searchParams.get(POS_CUSTOMER_PARAMETER)?.trim();
  if (!customerGid) {
    throw new ServiceError("CUSTOMER_REQUIRED", `Name the customer chosen in POS: ${POS_CUSTOMER_PARAMETER}=<GID>`);
  }
  if (!CUSTOMER_GID_PATTERN.test(customerGid)) {
    throw new ServiceError(
      "VALIDATION_ERROR",
      `${POS_CUSTOMER_PARAMETER}: must be a customer GID such as gid://shopify/Customer/123`,
    );
  }
  return { shop, customerGid, channel: "point-of-sale", admin: await requireOfflineAdmin(shop), staff };
}

/**
 * A POS token's subject is the staff user's numeric id. A customer-account extension's token,
 * signed with the same secret, names a customer there instead, and is refused rather than read
 * as staff.
 */
function staffUserOf(sub: unknown): string {
  if (typeof sub !== "string" || !STAFF_USER_ID_PATTERN.test(sub)) {
    throw new ServiceError("INVALID_TOKEN", "The session token's subject is not a staff user");
  }
  return sub;
}
