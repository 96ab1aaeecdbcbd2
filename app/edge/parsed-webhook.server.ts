import type { ActionFunctionArgs } from "@remix-run/node";
import type { z } from "zod";
import { isServiceError } from "~/lib/errors";
import { errorFields, writeLog } from "~/lib/json-log";
import { authenticate } from "~/shopify.server";

/** A topic as the library reports it (topicForStorage): "products/update" is PRODUCTS_UPDATE. */
export type ReportedTopic<Topic extends string> = Topic extends `${infer Head}/${infer Tail}`
  ? `${Uppercase<Head>}_${ReportedTopic<Tail>}`
  : Uppercase<Topic>;

const reportedTopic = (topic: string) => topic.toUpperCase().replaceAll("/", "_");

/**
 * Every webhook route: the delivery verified by the library (HMAC of the raw body with the app
 * secret; 401 otherwise), its payload parsed with zod and handed to a service. It answers
 * - 200, with what the handler returns as JSON (nothing when it returns nothing);
 * - 200 for a payload the schema cannot read: taken and dropped, as a redelivery would not help;
 * - 422 for a topic the route was not made for (a subscription pointing at the wrong route);
 * - 400 for a payload the handler refuses (VALIDATION_ERROR), which no redelivery would change;
 * - 500 when the handler fails otherwise, so the platform delivers the webhook again later.
 *
 * `topics` are spelled as in shopify.app.toml; the handler gets the one delivered as the library
 * reports it.
 */
export function parsedWebhookAction<Topic extends string, Schema extends z.ZodType>(
  topics: Topic | readonly Topic[],
  schema: Schema,
  handle: (shop: string, webhookId: string, payload: z.infer<Schema>, topic: ReportedTopic<Topic>) => Promise<unknown>,
) {
  const taken = new Set<string>((typeof topics === "string" ? [topics] : topics).map(reportedTopic));
  const isTaken = (topic: string): topic is ReportedTopic<Topic> => taken.has(topic);
  return async ({ request }: ActionFunctionArgs) => {
    const { shop, payload, webhookId, topic } = await authenticate.webhook(request);
    if (!isTaken(topic)) {
      writeLog("warn", "webhook topic not taken by this route; check the webhook subscriptions", {
        topic,
        webhookId,
        shop,
      });
      return new Response(null, { status: 422 });
    }
    const parsed = schema.safeParse(payload);
    if (!parsed.success) {
      writeLog("warn", "webhook payload not understood; dropped", {
        topic,
        webhookId,
        shop,
        issue: parsed.error.issues[0]?.message,
      });
      return new Response(null, { status: 200 });
    }
    try {
      const answer = await handle(shop, webhookId, parsed.data, topic);
      return answer === undefined ? new Response(null, { status: 200 }) : Response.json(answer);
    } catch (error) {
      if (isServiceError(error) && error.code === "VALIDATION_ERROR") {
        writeLog("warn", "webhook payload refused", { topic, webhookId, shop, message: error.message });
        return new Response(null, { status: 400 });
      }
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
