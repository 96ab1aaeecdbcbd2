import { describe, expect, test } from "vitest";
import type { ProductSeed } from "@saved-items/platform-emulator";
import { CARD_TTL_MS } from "~/services/saved-items/product-cards.server";
import { signedWebhook } from "../support/admin";
import { callProxy, proxyRequest, sendToApp } from "../support/app";
import { callDirect, exchangeHeadless, bearerTokenOf, CUSTOMER, givenDirectShop } from "../support/direct";
import { aSaveRequest } from "../support/fixtures";
import { emulator } from "../support/platform";
import { advanceTime } from "../support/time";

const MUG = "gid://shopify/Product/8104";
const MUG_VARIANT = "gid://shopify/ProductVariant/91041";
const IMAGE = "https://cdn.shopify.com/s/files/1/mug.png";

function mug(price = "16.00", overrides: Partial<ProductSeed> = {}): ProductSeed {
  return {
    id: MUG,
    title: "Ceramic Mug",
    handle: "ceramic-mug",
    imageUrl: IMAGE,
    totalInventory: 5,
    variants: [{ id: MUG_VARIANT, title: "Default Title", price, availableForSale: true }],
    ...overrides,
  };
}

const cardRequests = (shop: string) =>
  emulator.requests.filter((request) => request.shop === shop && request.operationName === "SavedItemsProductCards");

async function headless() {
  const token = bearerTokenOf(
    await exchangeHeadless({
      shop: "demo.myshopify.com",
      customerAccountAccessToken: CUSTOMER.customerAccountAccessToken,
    }),
  );
  return {
    save: (body: unknown) => callDirect("/api/headless/save", { token, method: "POST", body }),
    list: () => callDirect("/api/headless/list", { token, method: "GET", query: { context: "wishlist" } }),
  };
}

function productUpdate(shop: string, price: string) {
  return signedWebhook("products/update", {
    shop,
    payload: {
      id: 8104,
      admin_graphql_api_id: MUG,
      variants: [{ admin_graphql_api_id: MUG_VARIANT, price }],
    },
  });
}

describe("product cards on list", () => {
  test("an item saved headless without a snapshot comes back with its card: title, image, price, url, Add to cart variant", async () => {
    const shop = await givenDirectShop();
    emulator.addProducts(shop, [mug()]);
    const api = await headless();
    expect((await api.save(aSaveRequest({ entityGid: MUG }))).status).toBe(200);

    const { body } = await api.list();
    expect(body).toMatchObject({
      ok: true,
      data: {
        items: [
          {
            entityGid: MUG,
            product: {
              availability: "available",
              title: "Ceramic Mug",
              image: IMAGE,
              url: "/products/ceramic-mug",
              price: { amount: "16.00", currencyCode: "USD" },
              variantGid: MUG_VARIANT,
              priceDropped: false,
            },
          },
        ],
      },
    });
  });

  test("a variant item links to its variant; a warm cache costs no request; products/update refreshes the card", async () => {
    const shop = await givenDirectShop();
    emulator.addProducts(shop, [mug("16.00")]);
    const api = await headless();
    await api.save(aSaveRequest({ entityType: "variant", entityGid: MUG_VARIANT }));

    const first = await api.list();
    expect(first.body).toMatchObject({
      data: { items: [{ product: { url: "/products/ceramic-mug?variant=91041", price: { amount: "16.00" } } }] },
    });
    expect(cardRequests(shop)).toHaveLength(1);

    // The catalogue changes without a webhook: the cached card is served until its bound.
    emulator.addProducts(shop, [mug("12.00")]);
    await api.list();
    expect(cardRequests(shop)).toHaveLength(1);

    expect((await sendToApp(productUpdate(shop, "12.00"))).status).toBe(200);
    const after = await api.list();
    expect(after.body).toMatchObject({ data: { items: [{ product: { price: { amount: "12.00" } } }] } });
    expect(cardRequests(shop)).toHaveLength(2);
  });

  test("a card whose webhook never came is read again after CARD_TTL_MS", async () => {
    const shop = await givenDirectShop();
    emulator.addProducts(shop, [mug("16.00")]);
    const api = await headless();
    await api.save(aSaveRequest({ entityGid: MUG }));
    await api.list();
    emulator.addProducts(shop, [mug("14.00")]);
    advanceTime(CARD_TTL_MS);
    expect((await api.list()).body).toMatchObject({ data: { items: [{ product: { price: { amount: "14.00" } } }] } });
  });

  test("a deleted product is an unavailable card without a link", async () => {
    const shop = await givenDirectShop();
    emulator.addProducts(shop, [mug()]);
    const api = await headless();
    await api.save(aSaveRequest({ entityGid: MUG, snapshot: { title: "Ceramic Mug" } }));
    emulator.removeProducts(shop, [MUG]);

    const { body } = await api.list();
    expect(body).toMatchObject({
      data: {
        items: [
          {
            product: {
              availability: "unavailable",
              title: null,
              url: null,
              image: null,
              price: null,
              variantGid: null,
            },
          },
        ],
      },
    });
  });

  test("priceDropped: the current price below the one the snapshot recorded at save", async () => {
    const shop = await givenDirectShop();
    emulator.addProducts(shop, [mug("12.00")]);
    const api = await headless();
    await api.save(aSaveRequest({ entityGid: MUG, snapshot: { price: "$16.00" } }));
    await api.save(aSaveRequest({ entityType: "variant", entityGid: MUG_VARIANT, snapshot: { priceAmount: "10.00" } }));

    const { body } = (await api.list()) as { body: { data: { items: { entityGid: string; product: unknown }[] } } };
    const dropped = Object.fromEntries(
      body.data.items.map((item) => [item.entityGid, (item.product as { priceDropped: boolean }).priceDropped]),
    );
    expect(dropped).toEqual({ [MUG]: true, [MUG_VARIANT]: false });
  });

  test("the storefront's list carries cards too, in one request for the whole page", async () => {
    const shop = await givenDirectShop();
    emulator.addProducts(shop, [
      mug(),
      { ...mug(), id: "gid://shopify/Product/8105", title: "Tea Pot", handle: "tea-pot", variants: [] },
    ]);
    for (const entityGid of [MUG, "gid://shopify/Product/8105"])
      await callProxy("/proxy/api/save", { customerId: "1001", body: aSaveRequest({ entityGid }) });
    const result = await callProxy("/proxy/api/list", { customerId: "1001", query: { context: "wishlist" } });
    expect(result.body).toMatchObject({
      data: {
        items: [
          { product: { title: "Tea Pot", availability: "sold-out", variantGid: null } },
          { product: { title: "Ceramic Mug", availability: "available" } },
        ],
      },
    });
    expect(cardRequests(shop)).toHaveLength(1);
  });

  test("the shared page shows the list's name and cards: title, image, price, Add to cart, and no GID", async () => {
    const shop = await givenDirectShop();
    emulator.addProducts(shop, [mug()]);
    const api = await headless();
    const token = bearerTokenOf(
      await exchangeHeadless({ shop, customerAccountAccessToken: CUSTOMER.customerAccountAccessToken }),
    );
    const send = (name: string, body: unknown) => callDirect(`/api/headless/${name}`, { token, method: "POST", body });
    expect((await send("create-list", { context: "gifts", name: "Birthday gifts" })).status).toBe(200);
    await api.save(aSaveRequest({ context: "gifts", entityGid: MUG }));
    await api.save(aSaveRequest({ context: "gifts", entityGid: "gid://shopify/Product/999" }));
    const link = (await send("share-create", { context: "gifts" })).body as { data: { token: string } };

    const page = await sendToApp(proxyRequest(`/proxy/shared/${link.data.token}`, { customerId: "" }));
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain("<h1>Birthday gifts</h1>");
    expect(html).toContain('<a href="/products/ceramic-mug">Ceramic Mug</a>');
    expect(html).toContain(`<img src="${IMAGE}"`);
    expect(html).toContain('<p class="saved-items-shared__price">{{ 1600 | money }}</p>');
    expect(html).toContain(
      '<form method="post" action="/cart/add" class="saved-items-shared__add"><input type="hidden" name="id" value="91041">',
    );
    // The deleted product: said so, no link, no form.
    expect(html).toContain('<h2 class="saved-items-shared__title" data-card-title>No longer available</h2>');
    expect(html.match(/<form/g)).toHaveLength(1);
    expect(html).not.toContain("gid://");
    expect(html).not.toMatch(/Product \d/);
  });
});
