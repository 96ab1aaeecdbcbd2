import { z } from "zod";
import { SHOP_DOMAIN_PATTERN } from "~/services/channels";
import { BODY_SIGNATURE_HEADER, bodySignatureCheck } from "./body-signature.server";

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
 * A Flow callback as Flow signs it: the raw body signed as webhooks are (body-signature.server.ts;
 * the library's own check needs the shop's offline session, and may renew its token outside our
 * single-flight renewal).
 */
export async function requireFlowLifecycleCallback(request: Request): Promise<FlowLifecycleCallback> {
  const rawBody = await request.text();
  const check = bodySignatureCheck(request.headers.get(BODY_SIGNATURE_HEADER) ?? undefined);
  check?.update(Buffer.from(rawBody, "utf8"));
  if (!check?.matches()) throw new FlowCallbackRefused();
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
