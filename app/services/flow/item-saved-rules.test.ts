import { describe, expect, test } from "vitest";
import { listKindOf } from "./item-saved-rules";

describe("listKindOf", () => {
  test("the storefront's two lists keep their keys; every other key is 'other'", () => {
    expect(listKindOf("wishlist")).toBe("wishlist");
    expect(listKindOf("saved-for-later")).toBe("saved-for-later");
    for (const key of ["gifts", "Wishlist", "wishlist ", "call me 555-0100", "<script>", "saved-for-later-2"])
      expect(listKindOf(key)).toBe("other");
  });
});
