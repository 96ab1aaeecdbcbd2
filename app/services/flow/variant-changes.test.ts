// The decision behind the stock and price triggers: one observation of a variant against the last seen.
import { describe, expect, test } from "vitest";
import { variantChanges } from "~/services/flow/variant-changes";

const V = "gid://shopify/ProductVariant/1";
const triggersOf = (before: { inventory?: number; price?: number } | undefined, seen: object, threshold?: number) =>
  variantChanges(V, before, seen, threshold).map((change) => change.trigger);

describe("variantChanges", () => {
  test("low in stock is the crossing from above the threshold to at or below it", () => {
    expect(variantChanges(V, { inventory: 6 }, { inventory: 5 }, 5)).toEqual([
      { trigger: "saved-item-low-in-stock", variantGid: V, inventory: 5, threshold: 5 },
    ]);
    expect(triggersOf({ inventory: 5 }, { inventory: 4 }, 5)).toEqual([]); // already low
    expect(triggersOf({ inventory: 9 }, { inventory: 6 }, 5)).toEqual([]); // still above
    expect(triggersOf({ inventory: 1 }, { inventory: 0 }, 0)).toEqual(["saved-item-low-in-stock"]); // to the threshold
    expect(triggersOf({ inventory: 1 }, { inventory: 0 }, undefined)).toEqual([]); // no threshold set
    expect(triggersOf(undefined, { inventory: 0 }, 5)).toEqual([]); // no baseline
    expect(triggersOf({ price: 10 }, { inventory: 0 }, 5)).toEqual([]); // no inventory baseline
  });

  test("a fall from some to none below the threshold is low in stock; back to some is back in stock", () => {
    expect(triggersOf({ inventory: 8 }, { inventory: 0 }, 2)).toEqual(["saved-item-low-in-stock"]);
    expect(triggersOf({ inventory: 0 }, { inventory: 8 }, 2)).toEqual(["saved-item-back-in-stock"]);
  });

  test("price drops are unchanged", () => {
    expect(variantChanges(V, { price: 10 }, { price: 8 }, 5)).toEqual([
      { trigger: "saved-item-price-dropped", variantGid: V, oldPrice: 10, newPrice: 8 },
    ]);
  });
});
