import path from "node:path";
import { UNSAFE_flatRoutes as flatRoutes } from "@remix-run/dev";
import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import db from "~/db.server";
import { clock } from "~/lib/clock";
import { releaseUsageLeases, usagePeriod } from "~/services/usage/monthly-budget.server";
import { sessionStorage } from "~/shopify.server";
import type { PlanKey } from "~/services/plans";
import { remixFuture } from "../../vite.config";
import { TEST_ENV } from "./test-env";
import { emulator, offlineSessionFor } from "./platform";
import { signedProxyUrl, type ProxyUrlOptions } from "@saved-items/sandbox/proxy-signature";

const APP_DIRECTORY = path.resolve(import.meta.dirname, "../../app");
const appModules = import.meta.glob<ServerBuild["routes"][string]["module"]>([
  "../../app/root.tsx",
  "../../app/routes/**/*.{ts,tsx}",
]);

/**
 * The app as a Remix build of its own modules, as vitest loads them: the routes Remix's flat-routes
 * convention reads from app/routes, under app/root.tsx, with app/entry.server.tsx as the entry.
 * Made on the first request, since a test file that sends none need not load the admin pages.
 */
async function appBuild(): Promise<ServerBuild> {
  const manifest = { root: { id: "root", file: "root.tsx", path: "" }, ...flatRoutes(APP_DIRECTORY) };
  const routes: ServerBuild["routes"] = {};
  for (const [id, route] of Object.entries(manifest)) {
    const load = appModules[`../../app/${route.file}`];
    if (!load) throw new Error(`no module for route ${id} (app/${route.file})`);
    routes[id] = { ...route, module: await load() };
  }
  const entry = await import("~/entry.server");
  // As the server serves it (server/http-server.ts).
  return entry.withResourceMethods({
    mode: "production",
    entry: { module: entry },
    routes,
    assets: { entry: { imports: [], module: "" }, routes: {}, url: "", version: "test" },
    publicPath: "/",
    assetsBuildDirectory: "build/client",
    future: remixFuture,
    isSpaMode: false,
  });
}

let handler: ReturnType<typeof createRequestHandler> | undefined;

/**
 * Sends a Request through Remix's own request handler: its route matching, loaders and actions.
 * `context` adds what the server would put in the load context (e.g. `proxiedClientAddress`).
 */
export async function sendToApp(request: Request, context: Record<string, unknown> = {}): Promise<Response> {
  handler ??= createRequestHandler(await appBuild());
  // As the server does (server/remix-adapter.ts): the URL as sent, before Remix rebuilds its query.
  return handler(request, { ...context, requestUrl: request.url });
}

export const APP_URL = TEST_ENV.SHOPIFY_APP_URL;
export const DEMO_SHOP = "demo.myshopify.com";

export interface ShopSetup {
  domain?: string;
  plan?: PlanKey;
  installed?: boolean;
  customers?: { id: string; customerAccountAccessToken?: string; storefrontCustomerAccessToken?: string }[];
  storefrontAccessToken?: string;
  /** The emulated platform's entry cap per metaobject definition for this shop (1,000,000 when absent). */
  metaobjectEntryCap?: number;
  /** Optional scopes of shopify.app.toml the merchant granted already. */
  grantedOptionalScopes?: string[];
}

/** An installed shop: an offline session in the app's database, the shop in the emulated platform. */
export async function givenShop(setup: ShopSetup = {}): Promise<string> {
  const domain = setup.domain ?? DEMO_SHOP;
  const { adminCredentials } = emulator.addShop({
    domain,
    plan: setup.plan ?? "free",
    customers: setup.customers,
    storefrontAccessToken: setup.storefrontAccessToken,
    metaobjectEntryCap: setup.metaobjectEntryCap,
    grantedOptionalScopes: setup.grantedOptionalScopes,
  });
  await db.shop.create({
    data: { domain, plan: setup.plan ?? "free", ...(setup.installed === false ? { uninstalledAt: new Date() } : {}) },
  });
  if (setup.installed !== false) await sessionStorage.storeSession(offlineSessionFor(domain, adminCredentials!));
  return domain;
}

/**
 * A shop whose merchant turned "Saved by N shoppers" on (granted write_products, the optional scope
 * its metafield writes need), with these products in its catalogue: the count writes only for
 * products that exist.
 */
export async function givenCountingShop(setup: ShopSetup & { products: readonly string[] }): Promise<string> {
  const { products, ...shop } = setup;
  const domain = await givenShop({ plan: "pro", grantedOptionalScopes: ["write_products"], ...shop });
  emulator.addProducts(
    domain,
    products.map((id) => ({ id, title: id, totalInventory: 1, variants: [] })),
  );
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
