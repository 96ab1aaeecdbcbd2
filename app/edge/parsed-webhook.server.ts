import type { ActionFunctionArgs } from "@remix-run/node";
import type { z } from "zod";
import { errorFields, writeLog } from "~/lib/json-log";
import { authenticate } from "~/shopify.server";

/**
 * A webhook route whose payload is parsed with zod and handed to a service. A payload this cannot
 * read is taken and dropped (a redelivery would not help); a failing handler answers 500, so the
 * platform delivers the webhook again later.
 */
export function parsedWebhookAction<Schema extends z.ZodType>(
  topic: string,
  schema: Schema,
  handle: (shop: string, webhookId: string, payload: z.infer<Schema>) => Promise<void>,
) {
  return async ({ request }: ActionFunctionArgs) => {
    const { shop, payload, webhookId } = await authenticate.webhook(request);
    const parsed = schema.safeParse(payload);
    if (!parsed.success) {
      console.warn(`[reach] ${topic} ${webhookId} for ${shop} not understood: ${parsed.error.issues[0]?.message}`);
      return new Response(null, { status: 200 });
    }
    try {
      await handle(shop, webhookId, parsed.data);
      return new Response(null, { status: 200 });
    } catch (error) {
      writeLog("error", "webhook failed; the platform will retry", {
        topic,
        webhookId,
        shop,
        error: errorFields(error),
      });
      return new Response(null, { status: 500 });
    }
  };
}
