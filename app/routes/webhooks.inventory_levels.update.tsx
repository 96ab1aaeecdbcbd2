import type { ActionFunctionArgs } from "@remix-run/node";
import { handleInventoryLevelUpdate, InventoryLevelUpdatePayloadSchema } from "~/services/reach/product-changes.server";
import { authenticate } from "~/shopify.server";

/** inventory_levels/update: restocks of saved items, for Flow (docs/reach.md). */
export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, payload, webhookId } = await authenticate.webhook(request);
  const parsed = InventoryLevelUpdatePayloadSchema.safeParse(payload);
  if (!parsed.success) {
    // Redelivering a payload of a shape this cannot read would not help: taken, logged, dropped.
    console.warn(
      `[reach] inventory_levels/update ${webhookId} for ${shop} not understood: ${parsed.error.issues[0]?.message}`,
    );
    return new Response(null, { status: 200 });
  }
  try {
    await handleInventoryLevelUpdate(shop, webhookId, parsed.data);
    return new Response(null, { status: 200 });
  } catch (error) {
    // A non-2xx answer makes the platform deliver the webhook again later.
    console.error(`[reach] inventory_levels/update ${webhookId} for ${shop} failed; the platform will retry`, error);
    return new Response(null, { status: 500 });
  }
};
