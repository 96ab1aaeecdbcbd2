import type { LoaderFunctionArgs } from "@remix-run/node";
import db from "~/db.server";
import { OPERATION_NAMESPACES } from "~/edge/route-table";
import { clock } from "~/lib/clock";
import { releaseUsageLeases, usagePeriod } from "~/services/usage/monthly-budget.server";
import { sessionStorage } from "~/shopify.server";
import type { PlanKey } from "~/services/plans";
import { TEST_ENV } from "../setup/test-env";
import { emulator, offlineSessionFor } from "./platform";
import { signedProxyUrl, type ProxyUrlOptions } from "./proxy-signature";

type RouteModule = {
  loader?: (args: LoaderFunctionArgs) => Promise<Response>;
  action?: (args: LoaderFunctionArgs) => Promise<Response>;
};
const routeModules = import.meta.glob<RouteModule>("../../app/routes/*.{ts,tsx}");

/** The flat-route module name of a path, as Remix names files ("/a/b.json" → "a.b[.]json"). */
const flatRouteName = (pathname: string) => pathname.replace(/^\//, "").replaceAll("/", ".");

/** The namespace whose $operation param route serves a path (one segment below it), if any. */
function operationRouteOf(pathname: string): { namespace: string; operation: string } | undefined {
  for (const namespace of Object.values(OPERATION_NAMESPACES)) {
    const rest = pathname.startsWith(`${namespace}/`) ? pathname.slice(namespace.length + 1) : undefined;
    if (rest && !rest.includes("/")) return { namespace, operation: rest };
  }
  return undefined;
}

/**
 * Sends a Request through the app's own route module for its path, as Remix would: the operation
 * routes through their channel's param route (<namespace>.$operation, from the route table),
 * every other path through its flat-route file; GET/HEAD/OPTIONS to the loader, other methods to
 * the action.
 */
export async function sendToApp(request: Request): Promise<Response> {
  const { pathname } = new URL(request.url);
  const operationRoute = operationRouteOf(pathname);
  const file = operationRoute ? `${flatRouteName(operationRoute.namespace)}.$operation` : flatRouteName(pathname);
  // Flat-route file names escape a literal dot as "[.]" (api.openapi[.]json → /api/openapi.json).
  const entry = Object.entries(routeModules).find(
    ([name]) => name.match(/([^/]+)\.tsx?$/)?.[1]?.replaceAll("[.]", ".") === file,
  );
  if (!entry) throw new Error(`no route module for ${request.url}`);
  const module = await entry[1]();
  const handler = ["GET", "HEAD", "OPTIONS"].includes(request.method) ? module.loader : module.action;
  if (!handler) throw new Error(`route ${file} has no handler for ${request.method}`);
  const params = operationRoute ? { operation: operationRoute.operation } : {};
  return handler({ request, params, context: {} });
}

export const APP_URL = TEST_ENV.SHOPIFY_APP_URL;
export const DEMO_SHOP = "demo.myshopify.com";

export interface ShopSetup {
  domain?: string;
  plan?: PlanKey;
  installed?: boolean;
  customers?: { id: string; customerAccountAccessToken?: string; storefrontCustomerAccessToken?: string }[];
  storefrontAccessToken?: string;
}

/** An installed shop: an offline session in the app's database, the shop in the emulated platform. */
export async function givenShop(setup: ShopSetup = {}): Promise<string> {
  const domain = setup.domain ?? DEMO_SHOP;
  const { adminCredentials } = emulator.addShop({
    domain,
    plan: setup.plan ?? "free",
    customers: setup.customers,
    storefrontAccessToken: setup.storefrontAccessToken,
  });
  await db.shop.create({
    data: { domain, plan: setup.plan ?? "free", ...(setup.installed === false ? { uninstalledAt: new Date() } : {}) },
  });
  if (setup.installed !== false) await sessionStorage.storeSession(offlineSessionFor(domain, adminCredentials!));
  return domain;
}

/**
 * Sets this month's count of requests as if they had been made, after this process gave back the
 * units it holds (a process spends what it holds before it asks the counter again).
 */
export async function setMonthlyUsage(shop: string, count: number, period = usagePeriod(clock.now())): Promise<void> {
  await releaseUsageLeases();
  await db.usageCounter.upsert({
    where: { shopDomain_period: { shopDomain: shop, period } },
    create: { shopDomain: shop, period, count },
    update: { count },
  });
}

export interface ProxyCall extends Partial<ProxyUrlOptions> {
  method?: string;
  body?: unknown;
  rawBody?: string;
  contentType?: string | null;
  secret?: string;
}

/** A request as the platform forwards it to /proxy/api/*, signed with the app secret. */
export function proxyRequest(path: string, call: ProxyCall = {}): Request {
  const url = signedProxyUrl(APP_URL, path, call.secret ?? TEST_ENV.SHOPIFY_API_SECRET, {
    shop: call.shop ?? DEMO_SHOP,
    customerId: call.customerId ?? "1001",
    pathPrefix: call.pathPrefix,
    timestamp: call.timestamp,
    query: call.query,
  });
  const method = call.method ?? (call.body === undefined && call.rawBody === undefined ? "GET" : "POST");
  const body = call.rawBody ?? (call.body === undefined ? undefined : JSON.stringify(call.body));
  const headers = new Headers();
  const contentType = call.contentType === undefined ? "application/json" : call.contentType;
  if (body !== undefined && contentType) headers.set("Content-Type", contentType);
  return new Request(url, { method, body, headers });
}

/** Sends a signed proxy request and returns status and parsed envelope. */
export async function callProxy(path: string, call: ProxyCall = {}): Promise<{ status: number; body: any }> {
  const response = await sendToApp(proxyRequest(path, call));
  return { status: response.status, body: await response.json() };
}
