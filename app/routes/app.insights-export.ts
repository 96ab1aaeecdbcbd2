import type { LoaderFunctionArgs } from "@remix-run/node";
import { insightsExportResponse } from "~/edge/admin-insights.server";
import { requireAdminShop } from "~/edge/front-doors/admin-shop.server";

// A resource route: the Insights page fetches it (with App Bridge's session token) for the CSV.
export const loader = async ({ request, context }: LoaderFunctionArgs) => {
  const { admin } = await requireAdminShop(request);
  return insightsExportResponse(admin, request, context);
};
