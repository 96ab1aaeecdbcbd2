import { randomUUID } from "node:crypto";
import type { JWTPayload } from "jose";
import { expect } from "vitest";
import type { DirectChannel } from "~/services/channels";
import { mintDirectAccessToken } from "~/services/direct-access/direct-token.server";
import { TEST_ENV } from "./test-env";
import { customerAccountSessionToken, signHs256 as signWithSecret } from "./session-token";
import { APP_URL, DEMO_SHOP, givenShop, sendToApp, type ShopSetup } from "./app";

export interface TestCustomer {
  id: string;
  customerAccountAccessToken: string;
  storefrontCustomerAccessToken: string;
}

/** The seeded customer most direct-channel tests act as, with the platform tokens that prove it. */
export const CUSTOMER: TestCustomer = {
  id: "gid://shopify/Customer/1001",
  customerAccountAccessToken: "cat-1001",
  storefrontCustomerAccessToken: "sfcat-1001",
};
export const OTHER_CUSTOMER: TestCustomer = {
  id: "gid://shopify/Customer/1002",
  customerAccountAccessToken: "cat-1002",
  storefrontCustomerAccessToken: "sfcat-1002",
};
export const STOREFRONT_TOKEN = "storefront-public-token";

/** An installed shop on the platform with two customers who hold both kinds of customer token. */
export function givenDirectShop(setup: ShopSetup = {}): Promise<string> {
  const domain = setup.domain ?? DEMO_SHOP;
  const prefix = domain === DEMO_SHOP ? "" : `${domain.split(".")[0]}-`;
  return givenShop({
    plan: "scale",
    storefrontAccessToken: `${prefix}${STOREFRONT_TOKEN}`,
    customers: [CUSTOMER, OTHER_CUSTOMER].map((customer) => ({
      id: customer.id,
      customerAccountAccessToken: `${prefix}${customer.customerAccountAccessToken}`,
      storefrontCustomerAccessToken: `${prefix}${customer.storefrontCustomerAccessToken}`,
    })),
    ...setup,
  });
}

/** A real service token, minted by the app's own code with the test secret. */
export async function aServiceToken(
  overrides: { shop?: string; customerGid?: string; channel?: DirectChannel } = {},
): Promise<string> {
  const { token } = await mintDirectAccessToken({
    shop: overrides.shop ?? DEMO_SHOP,
    customerGid: overrides.customerGid ?? CUSTOMER.id,
    channel: overrides.channel ?? "headless",
  });
  return token;
}

/** The claims a minted token carries, for crafting forged variants of it. */
export function serviceClaims(overrides: Partial<Record<string, unknown>> = {}): JWTPayload {
  const iat = Math.floor(Date.now() / 1000);
  return {
    sub: CUSTOMER.id,
    shop: DEMO_SHOP,
    channel: "headless",
    iat,
    exp: iat + 300,
    jti: randomUUID(),
    ...overrides,
  };
}

/** Signs arbitrary claims HS256 with the tests' direct-token secret unless told otherwise. */
export function signHs256(
  claims: JWTPayload,
  secret = TEST_ENV.DIRECT_API_JWT_SECRET,
  header: Record<string, unknown> = {},
): Promise<string> {
  return signWithSecret(claims, secret, header);
}

/** An unsigned token (alg "none"), the classic signature bypass. */
export function unsignedToken(claims: JWTPayload): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${encode({ alg: "none", typ: "JWT" })}.${encode(claims)}.`;
}

/** A customer-account UI extension session token for the demo shop's first customer. */
export function aSessionToken(
  overrides: Partial<Record<string, unknown>> = {},
  secret = TEST_ENV.SHOPIFY_API_SECRET,
): Promise<string> {
  return customerAccountSessionToken({
    shop: DEMO_SHOP,
    apiKey: TEST_ENV.SHOPIFY_API_KEY,
    apiSecret: secret,
    customerGid: CUSTOMER.id,
    overrides,
  });
}

export interface DirectCall {
  method?: string;
  /** The raw Authorization header; `token` is the shortcut for "Bearer <token>". */
  authorization?: string | null;
  token?: string;
  body?: unknown;
  query?: Record<string, string>;
  headers?: Record<string, string>;
}

export interface DirectResult {
  status: number;
  body: any;
  headers: Headers;
}

/** A request to a direct-API route as a backend or an extension sends it. */
export function directRequest(path: string, call: DirectCall = {}): Request {
  const url = new URL(path, APP_URL);
  for (const [key, value] of Object.entries(call.query ?? {})) url.searchParams.set(key, value);
  const headers = new Headers(call.headers);
  const authorization = call.authorization !== undefined ? call.authorization : call.token && `Bearer ${call.token}`;
  if (authorization) headers.set("Authorization", authorization);
  const method = call.method ?? (call.body === undefined ? "GET" : "POST");
  if (call.body !== undefined && !headers.has("Content-Type")) headers.set("Content-Type", "application/json");
  const body = call.body === undefined ? undefined : JSON.stringify(call.body);
  return new Request(url, { method, headers, body });
}

/** Sends a direct-API request through the route module; the body is parsed when there is one. */
export async function callDirect(path: string, call: DirectCall = {}): Promise<DirectResult> {
  const response = await sendToApp(directRequest(path, call));
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
}

/** POST /api/headless/auth/exchange with the given body. */
export function exchangeHeadless(body: unknown): Promise<DirectResult> {
  return callDirect("/api/headless/auth/exchange", { method: "POST", body });
}

/** POST /api/customer-account/auth/exchange as an extension does, with its session token. */
export function exchangeCustomerAccount(
  sessionToken: string | null,
  headers: Record<string, string> = {},
): Promise<DirectResult> {
  return callDirect("/api/customer-account/auth/exchange", {
    method: "POST",
    authorization: sessionToken === null ? null : `Bearer ${sessionToken}`,
    headers: { Origin: "https://extensions.shopifycdn.com", ...headers },
  });
}

/** The service token from a successful exchange's `authorization` value. */
export function bearerTokenOf(result: DirectResult): string {
  const authorization: unknown = result.body?.data?.authorization;
  if (typeof authorization !== "string" || !authorization.startsWith("Bearer ")) {
    throw new Error(`exchange did not succeed: ${result.status} ${JSON.stringify(result.body)}`);
  }
  return authorization.slice("Bearer ".length);
}

export const CORS_EXPECTATION = {
  "access-control-allow-origin": "*",
  "access-control-allow-headers": "Authorization, Content-Type",
  "access-control-allow-methods": "GET, POST, OPTIONS",
  "access-control-max-age": "7200",
};

export function corsHeadersOf(headers: Headers): Record<string, string | null> {
  return Object.fromEntries(Object.keys(CORS_EXPECTATION).map((name) => [name, headers.get(name)]));
}

export const errorEnvelope = (code: string, retryable = false) => ({
  ok: false,
  error: { code, message: expect.any(String), retryable },
});
