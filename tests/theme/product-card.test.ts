// @vitest-environment happy-dom
// The one card renderer both list blocks use (extensions/saved-items-theme-src/product-card.ts).
import { describe, expect, test } from "vitest";
import type { BlockConfig } from "../../extensions/saved-items-theme-src/block-config";
import { fillCard } from "../../extensions/saved-items-theme-src/product-card";
import type { ShopperItem } from "../../extensions/saved-items-theme-src/shopper-item";
import type { ProductCard } from "../../extensions/shared/wire";

const TEXT: Record<string, string> = {
  untitled: "Saved item",
  dropped: "Price dropped since you saved it",
  "sold-out": "Sold out",
  gone: "No longer available",
};
// A text the block lacks is "", as data() reads an absent attribute.
const config = { text: (key: string) => TEXT[key] ?? "" } as BlockConfig;
/** The Saved items block's config: it has the "variant" text, the cart block's has none (every row there is one). */
const listConfig = { text: (key: string) => (key === "variant" ? "Variant" : config.text(key)) } as BlockConfig;

function rowFor(item: ShopperItem, blockConfig = config) {
  const row = document.createElement("li");
  row.innerHTML = `<img alt=""><a class="si-title"></a><span class="si-price"></span><button class="si-remove"></button>`;
  const title = fillCard(row, item, blockConfig);
  return {
    row,
    title,
    img: row.querySelector("img"),
    link: row.querySelector("a")!,
    price: row.querySelector(".si-price")!,
  };
}

const CARD: ProductCard = {
  availability: "available",
  title: "Ceramic Mug",
  url: "/products/ceramic-mug",
  image: "https://cdn.shopify.com/s/files/1/mug.png",
  price: { amount: "16.00", currencyCode: "USD" },
  variantGid: "gid://shopify/ProductVariant/91041",
  priceDropped: false,
};
const item = (product?: ProductCard, snapshot?: ShopperItem["snapshot"]): ShopperItem => ({
  context: "wishlist",
  entityType: "product",
  entityGid: "gid://shopify/Product/8104",
  ...(product ? { product } : {}),
  ...(snapshot ? { snapshot } : {}),
});

describe("fillCard", () => {
  test("an item saved without a snapshot shows its card's title, image, link and price", () => {
    const { title, img, link, price } = rowFor(item(CARD));
    expect(title).toBe("Ceramic Mug");
    expect(link.textContent).toBe("Ceramic Mug");
    expect(link.getAttribute("href")).toBe("/products/ceramic-mug");
    expect(img?.getAttribute("src")).toBe(CARD.image);
    expect(price.textContent).toBe("$16.00");
  });

  test("the card wins over the snapshot; a dropped price and a sold-out item say so", () => {
    const { link, price } = rowFor(
      item({ ...CARD, availability: "sold-out", priceDropped: true }, { title: "Old name", price: "$20.00" }),
    );
    expect(link.textContent).toBe("Ceramic Mug");
    expect(price.textContent).toBe("$16.00 · Price dropped since you saved it · Sold out");
  });

  test("a deleted product: no link, no image, says it is no longer available", () => {
    const gone: ProductCard = {
      ...CARD,
      availability: "unavailable",
      title: null,
      url: null,
      image: null,
      price: null,
    };
    const { row, link, price } = rowFor(
      item(gone, { title: "Ceramic Mug", url: "/products/ceramic-mug", image: "/cdn/x.png" }),
    );
    expect(link.textContent).toBe("Ceramic Mug");
    expect(link.hasAttribute("href")).toBe(false);
    expect(row.querySelector("img")).toBeNull();
    expect(price.textContent).toBe("No longer available");
  });

  test("without a card (a guest save) the snapshot is shown, unsafe links left out", () => {
    const { link, price, img } = rowFor(item(undefined, { title: "Boots", url: "//evil.example", price: "€49,00" }));
    expect(link.textContent).toBe("Boots");
    expect(link.hasAttribute("href")).toBe(false);
    expect(img).toBeNull();
    expect(price.textContent).toBe("€49,00");
  });

  test("where the block has the text, a variant's link is tagged as one, and the title its buttons name says so", () => {
    const variant: ShopperItem = {
      ...item({ ...CARD, url: "/products/ceramic-mug?variant=91041" }),
      entityType: "variant",
      entityGid: "gid://shopify/ProductVariant/91041",
    };
    const listed = rowFor(variant, listConfig);
    expect([listed.title, listed.link.firstChild?.textContent, listed.price.textContent]).toEqual([
      "Ceramic Mug (Variant)",
      "Ceramic Mug",
      "$16.00",
    ]);
    expect(listed.link.querySelector(".si-kind")?.textContent).toBe("Variant");
    expect(rowFor(item(CARD), listConfig).link.textContent).toBe("Ceramic Mug");
    // The cart block's rows are all variants: nothing to tell apart there.
    const inCart = rowFor(variant);
    expect([inCart.title, inCart.link.textContent]).toEqual(["Ceramic Mug", "Ceramic Mug"]);
  });
});
