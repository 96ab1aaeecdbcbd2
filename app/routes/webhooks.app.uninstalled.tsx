import type { ActionFunctionArgs } from "@remix-run/node";
import db from "~/db.server";
import { authenticate } from "~/shopify.server";

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, session } = await authenticate.webhook(request);
  // Webhooks can repeat and can arrive after the shop was already cleaned up: every step is idempotent.
  if (session) await db.session.deleteMany({ where: { shop } });
  await db.shop.updateMany({ where: { domain: shop }, data: { uninstalledAt: new Date() } });
  return new Response();
};
