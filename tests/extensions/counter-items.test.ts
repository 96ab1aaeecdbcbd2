// What a row at the counter says of a saved item, from POS's catalogue: the pure part of the POS extension.
import { describe, expect, test } from "vitest";
import {
  catalogueIds,
  counterRows,
  type CatalogueProduct,
  type CatalogueVariant,
} from "../../extensions/saved-items-pos/src/lib/counter-items";
import { aVariant } from "../support/extensions/pos-platform";

const saved = (entityType: string, entityGid: string, snapshot?: unknown) => ({
  id: `gid://shopify/Metaobject/${entityGid.split("/").at(-1)}`,
  entityType,
  entityGid,
  status: "active",
  ...(snapshot === undefined ? {} : { snapshot }),
});

function rowFor(variant: CatalogueVariant) {
  const [row] = counterRows([saved("variant", `gid://shopify/ProductVariant/${variant.id}`)], {
    variants: new Map([[variant.id, variant]]),
    products: new Map(),
  });
  return row!;
}

describe("counterRows", () => {
  test("stock is this location's when POS knows it, else all locations'; untracked inventory is in stock", () => {
    expect(rowFor(aVariant({ inventoryAtLocation: 0, inventoryAtAllLocations: 9 })).stock).toBe("out-of-stock");
    expect(rowFor(aVariant({ inventoryAtLocation: undefined, inventoryAtAllLocations: 9 })).stock).toBe("in-stock");
    expect(rowFor(aVariant({ inventoryAtLocation: undefined, inventoryAtAllLocations: undefined })).stock).toBe(
      "unknown",
    );
    expect(rowFor(aVariant({ inventoryIsTracked: false, inventoryAtLocation: 0 })).stock).toBe("in-stock");
  });

  test("a variant out of stock can be added only when it may be oversold", () => {
    expect(rowFor(aVariant({ inventoryAtLocation: 0 })).addVariantId).toBeNull();
    expect(rowFor(aVariant({ inventoryAtLocation: 0, inventoryPolicy: "CONTINUE" })).addVariantId).toBe(11);
  });

  test("a default variant has no variant title; an image that is not https is not shown", () => {
    expect(rowFor(aVariant({ title: "Default Title" })).variantTitle).toBeNull();
    const row = rowFor(aVariant({ image: "http://cdn.example/x.png", product: { title: "Jacket" } }));
    expect(row.imageUrl).toBeNull();
  });

  test("a product of one variant is that variant; of several, staff choose", () => {
    const product = (variants: CatalogueVariant[]): CatalogueProduct => ({
      id: 5,
      title: "Hat",
      totalAvailableInventory: 0,
      variants,
    });
    const rowsOf = (p: CatalogueProduct) =>
      counterRows([saved("product", "gid://shopify/Product/5")], { variants: new Map(), products: new Map([[5, p]]) });
    expect(rowsOf(product([aVariant({ id: 51 })]))[0]).toMatchObject({ title: "Hat", addVariantId: 51 });
    expect(rowsOf(product([aVariant({ id: 51 }), aVariant({ id: 52 })]))[0]).toMatchObject({
      addVariantId: null,
      variantCount: 2,
      stock: "out-of-stock",
    });
  });

  test("only products and variants are looked up and shown", () => {
    const items = [
      saved("variant", "gid://shopify/ProductVariant/7"),
      saved("product", "gid://shopify/Product/8", { title: "Boots" }),
      saved("collection", "gid://shopify/Collection/9"),
    ];
    expect(catalogueIds(items)).toEqual({ variantIds: [7], productIds: [8] });
    expect(counterRows(items, { variants: new Map(), products: new Map() })).toEqual([
      expect.objectContaining({ title: "ProductVariant 7", missing: true, addVariantId: null }),
      expect.objectContaining({ title: "Boots", missing: true }),
    ]);
  });
});
