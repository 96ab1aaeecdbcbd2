// The emulator as an HTTP server, for an app running in another process. The app sends each
// platform request to `${url}/<original host><original path and query>` with the original
// method, headers and body; the server rebuilds the https URL and answers it through the same
// routes as the in-process msw handlers. Control endpoints live under /__emulator/ (JSON in and out).
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";
import { API_TIERS } from "./cost";
import { createPlatformEmulator } from "./index";
import type { ProductSeed } from "./products";
import {
  API_NAMES,
  FAULT_KINDS,
  PLANS,
  type AppPricing,
  type FaultSpec,
  type PlatformEmulator,
  type ShopSeed,
} from "./types";

export interface EmulatorServer {
  /** http://host:port, without a trailing slash. */
  url: string;
  emulator: PlatformEmulator;
  close(): Promise<void>;
}

const CONTROL_PREFIX = "/__emulator/";
// Headers that describe the hop to the emulator, not the request the app meant to send.
const HOP_HEADERS = new Set(["host", "connection", "keep-alive", "transfer-encoding", "content-length", "upgrade"]);

/** Where the app sends `platformUrl` (https://host/path?query) when the emulator serves at `emulatorUrl`. */
export function emulatorUrlFor(emulatorUrl: string, platformUrl: string): string {
  const url = new URL(platformUrl);
  return `${emulatorUrl}/${url.host}${url.pathname}${url.search}`;
}

const ShopSeedSchema: z.ZodType<ShopSeed> = z.strictObject({
  domain: z.string().regex(/^[a-z0-9][a-z0-9-]*\.myshopify\.com$/, "must be <name>.myshopify.com"),
  installed: z.boolean().optional(),
  adminAccessToken: z.string().min(1).optional(),
  refreshToken: z.string().min(1).optional(),
  expiringAdminToken: z.boolean().optional(),
  adminTokenLifetimeSeconds: z.number().positive().optional(),
  storefrontAccessToken: z.string().min(1).optional(),
  plan: z.enum(PLANS).optional(),
  tier: z.enum(API_TIERS).optional(),
  metaobjectEntryCap: z.number().int().positive().optional(),
  grantedOptionalScopes: z.array(z.string()).optional(),
  customers: z
    .array(
      z.strictObject({
        id: z.string().regex(/^gid:\/\/shopify\/Customer\/\d+$/),
        customerAccountAccessToken: z.string().min(1).optional(),
        storefrontCustomerAccessToken: z.string().min(1).optional(),
      }),
    )
    .optional(),
});

const FaultSpecSchema: z.ZodType<FaultSpec> = z.strictObject({
  kind: z.enum(FAULT_KINDS),
  api: z.enum(API_NAMES).optional(),
  shop: z.string().optional(),
  operationName: z.string().optional(),
  times: z.number().int().nonnegative().optional(),
  skip: z.number().int().nonnegative().optional(),
  delayMs: z.number().nonnegative().optional(),
});

const Cents = z.number().int().nonnegative();
const AppPricingSchema: z.ZodType<AppPricing> = z.strictObject({
  meters: z.array(
    z.strictObject({
      handle: z.string().min(1),
      unitPriceCents: z.strictObject({ starter: Cents.optional(), pro: Cents.optional(), scale: Cents.optional() }),
    }),
  ),
  welcomeLink: z.string().startsWith("/").optional(),
});

const ProductSeedSchema: z.ZodType<ProductSeed> = z.strictObject({
  id: z.string().regex(/^gid:\/\/shopify\/Product\/\d+$/),
  title: z.string(),
  handle: z.string().optional(),
  imageUrl: z.string().optional(),
  status: z.enum(["ACTIVE", "DRAFT", "ARCHIVED"]).optional(),
  totalInventory: z.number().int(),
  variants: z.array(
    z.strictObject({
      id: z.string().regex(/^gid:\/\/shopify\/ProductVariant\/\d+$/),
      title: z.string(),
      price: z.string(),
      availableForSale: z.boolean(),
      inventoryItemId: z.string().optional(),
      inventoryQuantity: z.number().int().optional(),
    }),
  ),
});

const Milliseconds = z.strictObject({ ms: z.number().nonnegative() });
const ShopParam = z.string().min(1, "the shop query parameter is required");

class ControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new ControlError(400, z.prettifyError(result.error));
  return result.data;
}

type Control = (input: { query: URLSearchParams; body: unknown }) => unknown;

function controls(emulator: PlatformEmulator): Record<string, Control> {
  const shopOf = (query: URLSearchParams) => parse(ShopParam, query.get("shop") ?? "");
  const done = {};
  return {
    "GET health": () => ({ ok: true }),
    "POST shops": ({ body }) => ({
      shops: parse(z.strictObject({ shops: z.array(ShopSeedSchema) }), body).shops.map((seed) =>
        emulator.addShop(seed),
      ),
    }),
    "POST reset": () => {
      emulator.reset();
      return done;
    },
    "GET usage": ({ query }) => ({
      shops: query.has("shop") ? [emulator.usage(shopOf(query))] : emulator.allUsage(),
    }),
    "POST faults": ({ body }) => {
      for (const fault of parse(z.strictObject({ faults: z.array(FaultSpecSchema) }), body).faults) {
        emulator.injectFault(fault);
      }
      return done;
    },
    "POST latency": ({ body }) => {
      emulator.setLatency(parse(Milliseconds, body).ms);
      return done;
    },
    "POST search-lag": ({ body }) => {
      emulator.setSearchLag(parse(Milliseconds, body).ms);
      return done;
    },
    "POST throttling": ({ body }) => {
      emulator.setThrottling(parse(z.strictObject({ enabled: z.boolean() }), body).enabled);
      return done;
    },
    "POST plan": ({ body }) => {
      const { shop, plan } = parse(z.strictObject({ shop: ShopParam, plan: z.enum(PLANS) }), body);
      emulator.setPlan(shop, plan);
      return done;
    },
    "POST app-pricing": ({ body }) => {
      emulator.setAppPricing(parse(AppPricingSchema, body));
      return done;
    },
    "GET app-events": ({ query }) => ({ events: emulator.appEvents(query.get("shop") ?? undefined) }),
    "GET billing-charges": ({ query }) => emulator.billingCharges(shopOf(query)),
    "GET flow-triggers": ({ query }) => ({ fired: emulator.flowTriggersFired(shopOf(query)) }),
    "GET metaobjects": ({ query }) => ({
      metaobjects: emulator.metaobjects(shopOf(query), query.get("type") ?? undefined),
    }),
    "GET metafields": ({ query }) => ({
      metafields: emulator.metafields(shopOf(query), query.get("owner") ?? undefined),
    }),
    "POST products": ({ body }) => {
      const { shop, products } = parse(z.strictObject({ shop: ShopParam, products: z.array(ProductSeedSchema) }), body);
      emulator.addProducts(shop, products);
      return done;
    },
    "GET optional-scopes": ({ query }) => ({ granted: emulator.grantedScopes(shopOf(query)) }),
    "POST optional-scopes": ({ body }) => {
      const { shop, grant, revoke } = parse(
        z.strictObject({
          shop: ShopParam,
          grant: z.array(z.string()).default([]),
          revoke: z.array(z.string()).default([]),
        }),
        body,
      );
      emulator.grantOptionalScopes(shop, grant);
      emulator.revokeOptionalScopes(shop, revoke);
      return { granted: emulator.grantedScopes(shop) };
    },
    "GET admin-token": ({ query }) => ({ adminCredentials: emulator.adminCredentials(shopOf(query)) ?? null }),
    "POST admin-token": ({ body }) => {
      const { shop, action } = parse(z.strictObject({ shop: ShopParam, action: z.enum(["revoke", "expire"]) }), body);
      if (action === "revoke") emulator.revokeAdminToken(shop);
      else emulator.expireAdminToken(shop);
      return { adminCredentials: emulator.adminCredentials(shop) ?? null };
    },
    "GET requests": ({ query }) => {
      const filter = parse(
        z.strictObject({
          api: z.enum(API_NAMES).optional(),
          shop: z.string().optional(),
          limit: z.coerce.number().int().nonnegative().default(100),
        }),
        Object.fromEntries(query),
      );
      const matching = emulator.requests.filter(
        (request) =>
          (filter.api === undefined || request.api === filter.api) &&
          (filter.shop === undefined || request.shop === filter.shop),
      );
      return {
        count: emulator.countRequests({ api: filter.api, shop: filter.shop }),
        requests: filter.limit === 0 ? [] : matching.slice(-filter.limit),
      };
    },
    "DELETE requests": () => {
      emulator.clearRequests();
      return done;
    },
    "GET schema-violations": () => ({ violations: emulator.schemaViolations }),
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function serveControl(
  table: Record<string, Control>,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const control = table[`${req.method} ${url.pathname.slice(CONTROL_PREFIX.length)}`];
  if (!control) return sendJson(res, 404, { error: `no control endpoint ${req.method} ${url.pathname}` });
  const raw = (await readBody(req)).toString("utf8");
  let body: unknown;
  try {
    body = raw === "" ? {} : JSON.parse(raw);
  } catch {
    return sendJson(res, 400, { error: "the body is not JSON" });
  }
  try {
    sendJson(res, 200, control({ query: url.searchParams, body }));
  } catch (error) {
    // The emulator throws plain Errors for requests it cannot honour (an unknown or duplicate shop).
    sendJson(res, error instanceof ControlError ? error.status : 400, { error: (error as Error).message });
  }
}

async function servePlatform(
  emulator: PlatformEmulator,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const [, host, path] = /^\/([^/]+)(\/.*)?$/.exec(url.pathname) ?? [];
  if (!host) return sendJson(res, 404, { errors: "emulator: expected /<platform host>/<path>" });
  const target = `https://${host}${path ?? "/"}${url.search}`;

  // A client that gives up (its timeout, a closed socket) aborts the request, which is what
  // releases a hung one.
  const abort = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) abort.abort();
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || HOP_HEADERS.has(name)) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  const request = new Request(target, {
    method: req.method,
    headers,
    body: hasBody ? new Uint8Array(await readBody(req)) : undefined,
    signal: abort.signal,
  });
  const response = await emulator.handle(request);
  if (!response) return sendJson(res, 404, { errors: `emulator: no platform endpoint for ${req.method} ${target}` });
  // An injected network failure: the connection drops without an answer.
  if (response.type === "error") {
    req.socket.destroy();
    return;
  }
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
}

export async function startEmulatorServer(
  options: { emulator?: PlatformEmulator; port?: number; host?: string } = {},
): Promise<EmulatorServer> {
  const emulator = options.emulator ?? createPlatformEmulator();
  const table = controls(emulator);
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://emulator");
    const serve = url.pathname.startsWith(CONTROL_PREFIX)
      ? serveControl(table, req, res, url)
      : servePlatform(emulator, req, res, url);
    serve.catch((error: unknown) => {
      if (res.headersSent) res.destroy();
      else sendJson(res, 500, { errors: `emulator: ${(error as Error).stack ?? String(error)}` });
    });
  });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    emulator,
    close: () =>
      new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Open keep-alive connections and hung requests would hold close() forever.
        server.closeAllConnections();
      }),
  };
}
