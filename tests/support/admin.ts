import { createHmac, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { Session } from "@shopify/shopify-api";
import { parse } from "smol-toml";
import { offlineAdminClient } from "~/platform/admin-graphql.server";
import { sessionStorage } from "~/shopify.server";
import { TEST_ENV } from "./test-env";
import { APP_URL, sendToApp } from "./app";
import { emulator, offlineSessionFor } from "./platform";
import { withAdminSession } from "./session-token";

const appToml = parse(readFileSync(path.resolve(import.meta.dirname, "../../shopify.app.toml"), "utf8")) as {
  webhooks: { api_version: string; subscriptions: { topics?: string[]; compliance_topics?: string[]; uri: string }[] };
};

export const WEBHOOK_API_VERSION = appToml.webhooks.api_version;

/** The path shopify.app.toml subscribes a topic to, so tests deliver exactly where the platform would. */
export function webhookUri(topic: string): string {
  const subscription = appToml.webhooks.subscriptions.find(
    (candidate) => candidate.topics?.includes(topic) || candidate.compliance_topics?.includes(topic),
  );
  if (!subscription) throw new Error(`shopify.app.toml has no webhook subscription for ${topic}`);
  return subscription.uri;
}

export interface WebhookDelivery {
  shop: string;
  payload?: unknown;
  /** Signs with another secret, as a forger would; a sandbox is signed with its own secret. */
  secret?: string;
  /** Replaces the signature header outright. */
  hmac?: string;
  /** Where the app is served; the in-process test app by default. */
  baseUrl?: string;
}

/**
 * A webhook as the platform delivers it: JSON body, base64 HMAC-SHA256 of the raw body with the
 * app secret in X-Shopify-Hmac-Sha256, and the platform's topic, shop, id and version headers.
 */
export function signedWebhook(topic: string, delivery: WebhookDelivery): Request {
  const body = JSON.stringify(delivery.payload ?? {});
  const hmac =
    delivery.hmac ??
    createHmac("sha256", delivery.secret ?? TEST_ENV.SHOPIFY_API_SECRET)
      .update(body)
      .digest("base64");
  return new Request(new URL(webhookUri(topic), delivery.baseUrl ?? APP_URL), {
    method: "POST",
    body,
    headers: {
      "Content-Type": "application/json",
      "X-Shopify-Hmac-Sha256": hmac,
      "X-Shopify-Topic": topic,
      "X-Shopify-Shop-Domain": delivery.shop,
      "X-Shopify-Webhook-Id": randomUUID(),
      "X-Shopify-Event-Id": randomUUID(),
      "X-Shopify-API-Version": WEBHOOK_API_VERSION,
      "X-Shopify-Triggered-At": new Date().toISOString(),
    },
  });
}

/** A Flow trigger lifecycle callback as Flow sends one: JSON signed like a webhook, no topic headers. */
export function signedFlowLifecycle(callback: {
  shop: string;
  handle: string;
  enabled: boolean;
  timestamp?: string;
  secret?: string;
  baseUrl?: string;
}): Request {
  const body = JSON.stringify({
    flow_trigger_definition_id: callback.handle,
    has_enabled_flow: callback.enabled,
    shop_id: 690933842,
    shopify_domain: callback.shop,
    timestamp: callback.timestamp ?? new Date().toISOString(),
  });
  const hmac = createHmac("sha256", callback.secret ?? TEST_ENV.SHOPIFY_API_SECRET)
    .update(body)
    .digest("base64");
  return new Request(new URL("/flow/lifecycle", callback.baseUrl ?? APP_URL), {
    method: "POST",
    body,
    headers: { "Content-Type": "application/json", "X-Shopify-Hmac-Sha256": hmac },
  });
}

/** Delivers a signed webhook through the app's route module; a Response the library throws is returned. */
export async function deliverWebhook(topic: string, delivery: WebhookDelivery): Promise<Response> {
  try {
    return await sendToApp(signedWebhook(topic, delivery));
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

export interface AppTarget {
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
}

const TEST_APP: AppTarget = {
  baseUrl: APP_URL,
  apiKey: TEST_ENV.SHOPIFY_API_KEY,
  apiSecret: TEST_ENV.SHOPIFY_API_SECRET,
};

/** An embedded admin document request with a valid session token (id_token), as the admin loads the app. */
export async function adminRequest(pathAndQuery: string, shop: string, target: AppTarget = TEST_APP): Promise<Request> {
  return withAdminSession(
    new Request(new URL(pathAndQuery, target.baseUrl)),
    { shop, apiKey: target.apiKey, apiSecret: target.apiSecret },
    "document",
  );
}

type Loader<T> = (args: LoaderFunctionArgs) => Promise<T>;

/** Runs an admin route's loader with a valid admin session; a Response it throws is returned. */
export async function loadAdmin<T>(loader: Loader<T>, pathAndQuery: string, shop: string): Promise<T> {
  const request = await adminRequest(pathAndQuery, shop);
  try {
    return await loader({ request, params: {}, context: {} });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown as T;
    throw thrown;
  }
}

/**
 * What the library does on a (re)install: store the offline session the platform issued, then
 * hand it and an admin client to the afterAuth hook.
 */
export async function reinstall(shop: string, afterAuth: (options: { session: Session; admin: any }) => Promise<void>) {
  const session = offlineSessionFor(shop, emulator.adminCredentials(shop)!);
  await sessionStorage.storeSession(session);
  await afterAuth({ session, admin: offlineAdminClient(shop) });
}
