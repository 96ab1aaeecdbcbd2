// The three ways callers reach the operations, as the soak drives them: signed proxy URLs (the
// theme), a headless backend's exchanged bearer token, a customer-account extension's exchanged
// session token. Tokens are exchanged once and again shortly before they expire (300 s).
import type http from "node:http";
import { SANDBOX_DEFAULTS } from "@saved-items/sandbox/config";
import { aSaveRequest, anIdentity } from "../../tests/support/fixtures";
import { customerAccountSessionToken } from "../../tests/support/session-token";
import { sendReading, type LoadRequest, type Outcome } from "./load";
import { batchOfSaves, isSaved, list, listOperation, write } from "./requests";

export const OPERATION_NAMES = ["is-saved", "list", "save", "remove", "toggle", "batch"] as const;
export type OperationName = (typeof OPERATION_NAMES)[number];

/** The operations on a list itself and its share link (the history checker's), each with its input. */
export const LIST_OPERATION_NAMES = [
  "create-list",
  "delete-list",
  "share-create",
  "share-revoke",
  "shared-list",
] as const;
export type ListOperationName = (typeof LIST_OPERATION_NAMES)[number];

export type Call =
  { operation: OperationName; entityGids: string[] } | { operation: ListOperationName; input: Record<string, string> };

export interface Caller {
  channel: "proxy" | "headless" | "customer-account";
  /**
   * The request for a call against one instance. A direct caller may exchange a token first
   * (its outcome is given); no request when that exchange failed.
   */
  request(base: string, call: Call): Promise<{ request?: LoadRequest; exchange?: Outcome }>;
}

export function proxyCaller(shop: string, customer: string): Caller {
  const shopper = { shop, customer };
  return {
    channel: "proxy",
    async request(base, call) {
      if ("input" in call) return { request: listOperation(base, shopper, call.operation, call.input) };
      const { operation, entityGids } = call;
      const [gid] = entityGids as [string];
      if (operation === "is-saved") return { request: isSaved(base, shopper, gid) };
      if (operation === "list") return { request: list(base, shopper) };
      if (operation === "batch") return { request: batchOfSaves(base, shopper, entityGids) };
      return { request: write(base, shopper, operation, gid) };
    },
  };
}

/** Re-exchanged this long before the service token's 300 s run out. */
const TOKEN_MARGIN_MS = 60_000;

function directCaller(
  channel: "headless" | "customer-account",
  agent: http.Agent,
  exchange: (base: string) => Promise<LoadRequest>,
): Caller {
  let token: { authorization: string; renewAtMs: number } | undefined;
  return {
    channel,
    async request(base, call) {
      let exchanged: Outcome | undefined;
      if (!token || Date.now() > token.renewAtMs) {
        const { outcome, text } = await sendReading(agent, await exchange(base));
        exchanged = outcome;
        if (outcome.status !== 200) return { exchange: outcome };
        const { data } = JSON.parse(text) as { data: { authorization: string; expiresAt: string } };
        token = { authorization: data.authorization, renewAtMs: Date.parse(data.expiresAt) - TOKEN_MARGIN_MS };
      }
      return { request: directOperation(base, channel, token.authorization, call), exchange: exchanged };
    },
  };
}

export function headlessCaller(agent: http.Agent, shop: string, customerAccountAccessToken: string): Caller {
  return directCaller("headless", agent, async (base) => ({
    method: "POST",
    url: new URL("/api/headless/auth/exchange", base),
    body: JSON.stringify({ shop, customerAccountAccessToken }),
  }));
}

export function customerAccountCaller(agent: http.Agent, shop: string, customerGid: string): Caller {
  return directCaller("customer-account", agent, async (base) => {
    const sessionToken = await customerAccountSessionToken({
      shop,
      apiKey: SANDBOX_DEFAULTS.SHOPIFY_API_KEY,
      apiSecret: SANDBOX_DEFAULTS.SHOPIFY_API_SECRET,
      customerGid,
    });
    return {
      method: "POST",
      url: new URL("/api/customer-account/auth/exchange", base),
      headers: { Authorization: `Bearer ${sessionToken}`, Origin: "https://extensions.shopifycdn.com" },
    };
  });
}

function directOperation(base: string, channel: string, authorization: string, call: Call): LoadRequest {
  const url = new URL(`/api/${channel}/${call.operation}`, base);
  const headers = { Authorization: authorization };
  if ("input" in call) {
    if (call.operation !== "shared-list") return { method: "POST", url, headers, body: JSON.stringify(call.input) };
    for (const [key, value] of Object.entries(call.input)) url.searchParams.set(key, value);
    return { method: "GET", url, headers };
  }
  const [gid] = call.entityGids as [string];
  if (call.operation === "list") {
    url.searchParams.set("context", "wishlist");
    return { method: "GET", url, headers };
  }
  if (call.operation === "is-saved") {
    for (const [key, value] of Object.entries(anIdentity({ entityGid: gid }))) url.searchParams.set(key, String(value));
    return { method: "GET", url, headers };
  }
  const body =
    call.operation === "batch"
      ? { operations: call.entityGids.map((entityGid) => ({ action: "save", ...anIdentity({ entityGid }) })) }
      : call.operation === "remove"
        ? anIdentity({ entityGid: gid })
        : aSaveRequest({ entityGid: gid });
  return { method: "POST", url, headers, body: JSON.stringify(body) };
}
