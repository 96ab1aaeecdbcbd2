import { jwtVerify } from "jose";
import { plainRoute, type Route } from "./exchange";
import { jsonReply, NOT_FOUND, type Reply } from "./reply";
import { shopByDomain, usageOf, type EmulatorState, type ShopState } from "./state";
import type { AdminCredentials } from "./types";

// What @shopify/shopify-api sends (lib/auth/oauth/{refresh-token,token-exchange,
// migrate-to-expiring-token}.ts) and reads back (create-session.ts). Any shop host, not only
// *.myshopify.com: the library also sends it for a shop on SHOP_CUSTOM_DOMAIN.
const TOKEN_URL = /^https:\/\/([a-z0-9][a-z0-9-]*(?:\.[a-z0-9-]+)+)\/admin\/oauth\/access_token$/;
const REFRESH_GRANT = "refresh_token";
const TOKEN_EXCHANGE_GRANT = "urn:ietf:params:oauth:grant-type:token-exchange";
const ID_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id_token";
const OFFLINE_TOKEN_TYPE = "urn:shopify:params:oauth:token-type:offline-access-token";
// The library tolerates this much clock skew on session tokens (decode-session-token.ts).
const SESSION_TOKEN_CLOCK_TOLERANCE_SECONDS = 10;

// OAuth 2.0 error bodies (RFC 6749 §5.2). invalid_subject_token is what the platform answers a bad
// session token with; the app library rethrows exactly that code. For a spent or unknown refresh
// token the platform is reported to answer invalid_grant; its docs give no body.
const oauthError = (status: number, error: string, description: string): Reply =>
  jsonReply(status, { error, error_description: description });

type Params = Record<string, string | undefined>;

async function readParams(request: Request): Promise<Params | undefined> {
  const text = await request.text();
  if (!(request.headers.get("Content-Type") ?? "").includes("json")) {
    return Object.fromEntries(new URLSearchParams(text));
  }
  try {
    const body: unknown = JSON.parse(text);
    if (typeof body !== "object" || body === null) return undefined;
    return Object.fromEntries(
      Object.entries(body).map(([key, value]) => [key, typeof value === "string" ? value : undefined]),
    );
  } catch {
    return undefined;
  }
}

/** The token endpoint's answer, in the shape create-session.ts reads. */
function tokenReply(state: EmulatorState, credentials: AdminCredentials): Reply {
  const secondsUntil = (iso: string | null) =>
    iso === null ? undefined : Math.round((Date.parse(iso) - state.now().getTime()) / 1000);
  return jsonReply(200, {
    access_token: credentials.accessToken,
    scope: credentials.scope,
    expires_in: secondsUntil(credentials.expiresAt),
    refresh_token: credentials.refreshToken ?? undefined,
    refresh_token_expires_in: secondsUntil(credentials.refreshTokenExpiresAt),
  });
}

async function verifySessionToken(state: EmulatorState, shop: ShopState, token: string): Promise<boolean> {
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(state.clientSecret), {
      algorithms: ["HS256"],
      audience: state.clientId,
      clockTolerance: SESSION_TOKEN_CLOCK_TOLERANCE_SECONDS,
      currentDate: state.now(),
    });
    return payload.dest === `https://${shop.domain}`;
  } catch {
    return false;
  }
}

async function exchangeToken(state: EmulatorState, shop: ShopState, params: Params): Promise<Reply> {
  const subject = params.subject_token ?? "";
  if (params.requested_token_type !== OFFLINE_TOKEN_TYPE) {
    return oauthError(400, "invalid_request", "emulator: only offline access tokens are modelled");
  }
  let credentials: AdminCredentials | undefined;
  if (params.subject_token_type === ID_TOKEN_TYPE) {
    if (!(await verifySessionToken(state, shop, subject))) {
      return oauthError(400, "invalid_subject_token", "The session token is invalid, expired or for another shop");
    }
    // A non-expiring offline token is one per installation: exchanging again returns it.
    credentials =
      params.expiring === "1"
        ? shop.adminTokens.issue({ expiring: true })
        : (shop.adminTokens.nonExpiring() ?? shop.adminTokens.issue({ expiring: false }));
  } else if (params.subject_token_type === OFFLINE_TOKEN_TYPE && params.expiring === "1") {
    credentials = shop.adminTokens.migrate(subject);
    if (!credentials) {
      return oauthError(400, "invalid_subject_token", "The subject token is not a valid non-expiring offline token");
    }
  } else {
    return oauthError(400, "invalid_request", "Unsupported subject_token_type or expiring value");
  }
  usageOf(state, shop.domain).tokenExchanges += 1;
  return tokenReply(state, credentials);
}

async function answer(state: EmulatorState, request: Request, domain: string | undefined): Promise<Reply> {
  const shop = shopByDomain(state, domain);
  if (!shop) return NOT_FOUND;
  const params = await readParams(request);
  if (!params) return oauthError(400, "invalid_request", "The request body is not valid JSON");
  if (state.clientId === undefined || state.clientSecret === undefined) {
    return oauthError(401, "invalid_client", "emulator: started without the app's clientId and clientSecret");
  }
  if (params.client_id !== state.clientId || params.client_secret !== state.clientSecret) {
    return oauthError(401, "invalid_client", "Client authentication failed");
  }
  switch (params.grant_type) {
    case REFRESH_GRANT: {
      const credentials = shop.adminTokens.refresh(params.refresh_token ?? "");
      if (!credentials)
        return oauthError(400, "invalid_grant", "The refresh token is invalid, expired or already used");
      usageOf(state, shop.domain).refreshes += 1;
      return tokenReply(state, credentials);
    }
    case TOKEN_EXCHANGE_GRANT:
      return exchangeToken(state, shop, params);
    default:
      return oauthError(400, "unsupported_grant_type", `emulator: grant_type ${params.grant_type} is not modelled`);
  }
}

/** POST https://{shop}/admin/oauth/access_token: refresh, token exchange and migration to expiring tokens. */
export function oauthRoute(state: EmulatorState): Route {
  return plainRoute(state, {
    api: "admin-oauth",
    method: "POST",
    url: TOKEN_URL,
    shopOf: ([domain]) => domain ?? "",
    handle: (request, [domain]) => answer(state, request, domain),
  });
}
