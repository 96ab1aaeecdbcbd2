import type { ActionFunctionArgs } from "@remix-run/node";
import { recordShopUninstalled } from "~/services/installs/shop-records.server";
import { authenticate } from "~/shopify.server";

// Verified by the library (HMAC of the raw body with the app secret; 401 otherwise).
export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop } = await authenticate.webhook(request);
  await recordShopUninstalled(shop);
  return new Response();
};
