import type { HeadersFunction, LoaderFunctionArgs } from "@remix-run/node";
import { Link, Outlet, useLoaderData, useRouteError } from "@remix-run/react";
import { boundary } from "@shopify/shopify-app-remix/server";
import { AppProvider } from "@shopify/shopify-app-remix/react";
import { NavMenu } from "@shopify/app-bridge-react";
import polarisStyles from "@shopify/polaris/build/esm/styles.css?url";
import { getEnv } from "~/config/env.server";
import { requireAdminShop } from "~/edge/front-doors/admin-shop.server";
import { settleDueShopRedactions } from "~/services/compliance/pending-redactions.server";
import { BudgetBanner } from "~/components/budget-banner";
import { getBudgetView } from "~/services/merchant-pages/overage-overview.server";

export const links = () => [{ rel: "stylesheet", href: polarisStyles }];

// Every admin load re-reads the shop's subscription (requireAdminShop), so the plan on record
// follows what the merchant pays for without the hot path ever asking the billing API.
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { shop, plan, admin } = await requireAdminShop(request);
  const [budget] = await Promise.all([getBudgetView(shop, plan), settleDueShopRedactions(shop, admin)]);
  return { apiKey: getEnv().SHOPIFY_API_KEY, shop, plan: plan.key, budget };
};

export default function App() {
  const { apiKey, budget } = useLoaderData<typeof loader>();
  return (
    <AppProvider isEmbeddedApp apiKey={apiKey}>
      <NavMenu>
        <Link to="/app" rel="home">
          Home
        </Link>
        <Link to="/app/setup">Setup</Link>
        <Link to="/app/insights">Insights</Link>
        <Link to="/app/plans">Plans</Link>
      </NavMenu>
      <BudgetBanner banner={budget.banner} />
      <Outlet />
    </AppProvider>
  );
}

// The platform's embedded-app boundary handles the auth redirects that authenticate.admin throws.
export function ErrorBoundary() {
  return boundary.error(useRouteError());
}

export const headers: HeadersFunction = (headersArgs) => boundary.headers(headersArgs);
