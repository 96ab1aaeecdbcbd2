import type { ActionFunctionArgs } from "@remix-run/node";
import { recordGrantedScopes } from "~/platform/offline-sessions.server";
import { authenticate } from "~/shopify.server";

// Verified by the library (HMAC of the raw body with the app secret; 401 otherwise).
export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, payload } = await authenticate.webhook(request);
  const current = (payload as { current?: string[] }).current;
  if (current) await recordGrantedScopes(shop, current);
  return new Response();
};
