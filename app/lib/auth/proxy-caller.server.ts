import { InvalidShopError } from "@shopify/shopify-api";
import { authenticate } from "~/shopify.server";
import { ServiceError } from "~/lib/errors";
import type { Caller } from "~/services/saved-items/caller";

/**
 * The Online Store front door. The library verifies the proxy signature (and its 90 s freshness)
 * but answers failures with a bare 400 and reports a missing install as an empty context; both
 * become the spec's codes here. The customer is read only after the signature holds.
 */
export async function requireProxyCaller(request: Request): Promise<Caller> {
  let context: Awaited<ReturnType<typeof authenticate.public.appProxy>>;
  try {
    context = await authenticate.public.appProxy(request);
  } catch (error) {
    if (error instanceof Response) {
      throw new ServiceError("INVALID_PROXY_SIGNATURE", "The app proxy signature is missing, invalid or stale");
    }
    // Only reachable with a valid signature: a shop value that is no shop domain has no install.
    if (error instanceof InvalidShopError) {
      throw new ServiceError("SHOP_NOT_INSTALLED", "The app is not installed on this shop");
    }
    throw error;
  }
  const customerId = new URL(request.url).searchParams.get("logged_in_customer_id");
  if (!customerId) throw new ServiceError("AUTH_REQUIRED", "Log in to save items");
  if (!/^\d+$/.test(customerId)) throw new ServiceError("AUTH_REQUIRED", "The logged-in customer id is not valid");
  if (!context.session || !context.admin) {
    throw new ServiceError("SHOP_NOT_INSTALLED", "The app is not installed on this shop");
  }
  return {
    shop: context.session.shop,
    customerGid: `gid://shopify/Customer/${customerId}`,
    channel: "online-store",
    admin: context.admin,
  };
}
