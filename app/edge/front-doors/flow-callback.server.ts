import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { getEnv } from "~/config/env.server";
import { SHOP_DOMAIN_PATTERN } from "~/services/channels";

/** What Flow's trigger lifecycle callback carries (its documented properties; others are ignored). */
const LifecycleSchema = z.object({
  flow_trigger_definition_id: z.string().min(1).max(255),
  has_enabled_flow: z.boolean(),
  shopify_domain: z.string().regex(SHOP_DOMAIN_PATTERN),
  timestamp: z.iso.datetime({ offset: true }),
});

export type FlowLifecycleCallback = z.infer<typeof LifecycleSchema>;

/** Anything before the body is trusted: refused without saying which check failed. */
export class FlowCallbackRefused extends Error {}

/**
 * A Flow callback as Flow signs it: the raw body's HMAC-SHA256 under the app's client secret, in
 * base64 in X-Shopify-Hmac-Sha256, as for webhooks (the library's own check needs the shop's
 * offline session, and may renew its token outside our single-flight renewal).
 */
export async function requireFlowLifecycleCallback(request: Request): Promise<FlowLifecycleCallback> {
  const rawBody = await request.text();
  const received = Buffer.from(request.headers.get("x-shopify-hmac-sha256") ?? "", "base64");
  const expected = createHmac("sha256", getEnv().SHOPIFY_API_SECRET).update(rawBody, "utf8").digest();
  if (received.length !== expected.length || !timingSafeEqual(received, expected)) throw new FlowCallbackRefused();
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    throw new FlowCallbackRefused();
  }
  const parsed = LifecycleSchema.safeParse(json);
  if (!parsed.success) throw new FlowCallbackRefused();
  return parsed.data;
}
