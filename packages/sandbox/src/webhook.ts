// Sends the running sandbox a products/update webhook, signed as the platform signs, to try the
// Flow triggers by hand (docs/reach.md). The first update of a variant sets the app's baseline;
// send a lower price or a restock next; GET <emulator>/__emulator/flow-triggers?shop=… lists what fired.
// Triggers fire only for a shop with a workflow using them: first tell the app so, as Flow's
// lifecycle callback does, with --flow on.
// Usage: npx tsx packages/sandbox/src/webhook.ts --flow on|off [--shop demo.myshopify.com]
//        npx tsx packages/sandbox/src/webhook.ts --product 1 --variant 11 --price 80 [--inventory 3]
//        [--shop demo.myshopify.com] [--id <webhook id, to redeliver>]
//        npx tsx packages/sandbox/src/webhook.ts --inventory-item 111 --available 3
//        (an inventory_levels/update; the app reads the item's variant and total from the emulator)
import { createHmac, randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import { applySandboxDefaults } from "./config";
import { flowTriggerHandles } from "./flow-triggers";

applySandboxDefaults();
const { values } = parseArgs({
  options: {
    shop: { type: "string", default: "demo.myshopify.com" },
    product: { type: "string", default: "1" },
    variant: { type: "string", default: "11" },
    price: { type: "string" },
    inventory: { type: "string" },
    id: { type: "string" },
    flow: { type: "string" },
    "inventory-item": { type: "string" },
    available: { type: "string" },
  },
});
const sign = (body: string) => createHmac("sha256", process.env.SHOPIFY_API_SECRET!).update(body).digest("base64");
if (values.flow === "on" || values.flow === "off") {
  for (const handle of flowTriggerHandles()) {
    const body = JSON.stringify({
      flow_trigger_definition_id: handle,
      has_enabled_flow: values.flow === "on",
      shopify_domain: values.shop,
      timestamp: new Date().toISOString(),
    });
    const response = await fetch(new URL("/flow/lifecycle", process.env.SHOPIFY_APP_URL), {
      method: "POST",
      body,
      headers: { "Content-Type": "application/json", "X-Shopify-Hmac-Sha256": sign(body) },
    });
    console.log(`Flow lifecycle ${handle} ${values.flow} → HTTP ${response.status}`);
  }
  process.exit(0);
}
/** POSTs a signed delivery of the topic, as the platform does. */
async function deliver(topic: string, body: string) {
  const response = await fetch(new URL(`/webhooks/${topic}`, process.env.SHOPIFY_APP_URL), {
    method: "POST",
    body,
    headers: {
      "Content-Type": "application/json",
      "X-Shopify-Hmac-Sha256": sign(body),
      "X-Shopify-Topic": topic,
      "X-Shopify-Shop-Domain": values.shop,
      "X-Shopify-Webhook-Id": values.id ?? randomUUID(),
      "X-Shopify-API-Version": "2026-10",
      "X-Shopify-Triggered-At": new Date().toISOString(),
    },
  });
  console.log(`${topic} → HTTP ${response.status}`);
}
if (values["inventory-item"] !== undefined) {
  const item = values["inventory-item"];
  await deliver(
    "inventory_levels/update",
    JSON.stringify({
      inventory_item_id: Number(item),
      location_id: 1,
      available: Number(values.available ?? 0),
      updated_at: new Date().toISOString(),
      admin_graphql_api_id: `gid://shopify/InventoryLevel/1?inventory_item_id=${item}`,
    }),
  );
  process.exit(0);
}
if (!values.price) {
  console.error("usage: npx tsx packages/sandbox/src/webhook.ts --product 1 --variant 11 --price 80 [--inventory 3]");
  process.exit(2);
}
const body = JSON.stringify({
  id: Number(values.product),
  admin_graphql_api_id: `gid://shopify/Product/${values.product}`,
  variants: [
    {
      id: Number(values.variant),
      admin_graphql_api_id: `gid://shopify/ProductVariant/${values.variant}`,
      price: values.price,
      ...(values.inventory === undefined ? {} : { inventory_quantity: Number(values.inventory) }),
    },
  ],
});
await deliver("products/update", body);
