// What the compliance tests share: two customers of a shop, who owns the records left, and a
// customers/redact webhook as the platform delivers it.
import { deliverWebhook } from "./admin";
import { emulator } from "./platform";

export const ALICE = "1001";
export const BOB = "1002";
export const gid = (id: string) => `gid://shopify/Customer/${id}`;
export const customers = [{ id: gid(ALICE) }, { id: gid(BOB) }];

/** The customer GIDs of the shop's metaobjects of `type`, sorted. */
export const owners = (shop: string, type: string) =>
  emulator
    .metaobjects(shop, type)
    .map((entry) => entry.fields.customer_id)
    .sort();

export const redact = (shop: string, customerId: string) =>
  deliverWebhook("customers/redact", {
    shop,
    payload: {
      shop_id: 1,
      shop_domain: shop,
      customer: { id: Number(customerId), email: "x@example.com" },
      orders_to_redact: [],
    },
  });
