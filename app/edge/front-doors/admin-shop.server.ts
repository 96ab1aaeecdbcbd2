import { errorFields, writeLog } from "~/lib/json-log";
import { authenticate } from "~/shopify.server";
import { readShopPlan } from "~/services/installs/shop-state.server";
import type { Plan } from "~/services/plans";
import { PAGE_LOAD_WINDOW_MS, refreshShopPlan } from "~/services/billing/plan-refresh.server";

/**
 * The front door of every embedded admin page: the library's admin authentication, then a plan
 * refresh from the platform (shared by the loaders of one page load) so the merchant always sees
 * what they pay for. A platform failure does not block the admin: the plan on record is shown and
 * the failure logged. A Response (the library's re-authentication bounce) goes through untouched.
 */
export async function requireAdminShop(request: Request) {
  const context = await authenticate.admin(request);
  const shop = context.session.shop;
  let plan: Plan;
  try {
    plan = await refreshShopPlan(shop, context.admin, { reuseWithinMs: PAGE_LOAD_WINDOW_MS });
  } catch (error) {
    if (error instanceof Response) throw error;
    writeLog("error", "plan refresh failed; showing the plan on record", { shop, error: errorFields(error) });
    plan = await readShopPlan(shop);
  }
  return { ...context, shop, plan };
}
