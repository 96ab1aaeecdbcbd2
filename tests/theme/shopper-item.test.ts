// The handles a card without a product id is matched by (extensions/saved-items-theme-src/shopper-item.ts).
import { describe, expect, test } from "vitest";
import { productHandle, savedHandle } from "../../extensions/saved-items-theme-src/shopper-item";
import type { ProductCard } from "../../extensions/shared/wire";

const card = (url: string | null) => ({ url }) as ProductCard;

describe("productHandle", () => {
  test("reads the handle of a product path, under a locale or a collection, with or without a query", () => {
    expect(
      ["/products/linen-shirt", "/fr/products/linen-shirt", "/collections/all/products/linen-shirt/"].map(
        productHandle,
      ),
    ).toEqual(["linen-shirt", "linen-shirt", "linen-shirt"]);
    expect(productHandle("/products/linen-shirt?variant=91011")).toBe("linen-shirt");
    expect([productHandle("/collections/all"), productHandle(null), productHandle("/products/")]).toEqual(["", "", ""]);
  });
});

describe("savedHandle", () => {
  test("an item saved without a snapshot (headless, POS, the API) is matched by its card's link", () => {
    expect(savedHandle({ product: { ...card("/products/ceramic-mug") } })).toBe("ceramic-mug");
  });

  test("the card's link, current, wins over the handle the snapshot stored; an item without a link keeps the snapshot's", () => {
    expect(savedHandle({ snapshot: { handle: "old-mug" }, product: card("/products/ceramic-mug") })).toBe(
      "ceramic-mug",
    );
    expect(savedHandle({ snapshot: { handle: "old-mug" }, product: card(null) })).toBe("old-mug");
    expect(savedHandle({ snapshot: { title: "A collection" } })).toBe("");
  });
});
