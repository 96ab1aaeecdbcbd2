import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireAdminShop } from "~/edge/front-doors/admin-shop.server";
import { cappedAmountDecided } from "~/services/billing/overage-choice.server";

/**
 * The managed-pricing welcome link: the platform opens it in the admin after the merchant picks a
 * plan. requireAdminShop re-reads the subscription; the merchant then lands on Home with the new
 * plan. It is also where the platform sends the merchant back after deciding on an overage capped
 * amount, which may let blocks be charged again in a month the old cap had stopped. The library's redirect keeps the embedded parameters the next page authenticates with.
 */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { redirect, shop } = await requireAdminShop(request);
  await cappedAmountDecided(shop);
  return redirect("/app");
};
