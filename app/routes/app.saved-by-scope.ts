import type { ActionFunctionArgs } from "@remix-run/node";
import { requireAdminShop } from "~/edge/front-doors/admin-shop.server";
import { savedByScopeAction } from "~/services/saved-by/saved-by-grant.server";

// A resource route: the Setup page posts to it once the merchant answered App Bridge's permission
// modal, so the app reads the grant at once instead of waiting for app/scopes_update.
export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, admin } = await requireAdminShop(request);
  return savedByScopeAction(shop, admin);
};
