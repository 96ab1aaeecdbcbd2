import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireAdminShop } from "~/edge/front-doors/admin-shop.server";

/**
 * The managed-pricing welcome link: the platform opens it in the admin after the merchant picks a
 * plan. requireAdminShop re-reads the subscription, never a read of the page the merchant left
 * seconds before; the merchant then lands on Home with the new plan. The library's redirect keeps
 * the embedded parameters the next page authenticates with.
 */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { redirect } = await requireAdminShop(request, { fresh: true });
  return redirect("/app");
};
