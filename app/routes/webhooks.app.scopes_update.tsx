import type { ActionFunctionArgs } from "@remix-run/node";
import db from "~/db.server";
import { authenticate } from "~/shopify.server";

// As in the app template: keep the stored session's scopes in step with what the merchant granted.
export const action = async ({ request }: ActionFunctionArgs) => {
  const { payload, session } = await authenticate.webhook(request);
  const current = (payload as { current?: string[] }).current;
  if (session && current) {
    await db.session.update({ where: { id: session.id }, data: { scope: current.toString() } });
  }
  return new Response();
};
