import { describe, expect, test } from "vitest";
import { linkToRevoke, opensSharedList, type ShareableList } from "~/services/saved-items/share-links";

const list = (overrides: Partial<ShareableList> = {}): ShareableList => ({
  deleted: false,
  name: null,
  shareTokenHash: null,
  ...overrides,
});

describe("share-revoke's decision", () => {
  test("a shared list has its link cleared; one not shared has nothing to clear", () => {
    const shared = list({ shareTokenHash: "h" });
    expect(linkToRevoke(shared, "wishlist")).toBe(shared);
    expect(linkToRevoke(list(), "wishlist")).toBeNull();
  });

  test("a list deleted or never made is NOT_FOUND, as for rename-list and delete-list", () => {
    for (const missing of [null, list({ deleted: true }), list({ deleted: true, shareTokenHash: "h" })]) {
      expect(() => linkToRevoke(missing, "wishlist")).toThrow(expect.objectContaining({ code: "NOT_FOUND" }));
    }
  });
});

describe("what a token opens", () => {
  test("the list whose current hash it is, while the list is not deleted", () => {
    expect(opensSharedList(list({ shareTokenHash: "h" }), "h")).toBe(true);
    expect(opensSharedList(list({ shareTokenHash: "other" }), "h")).toBe(false);
    expect(opensSharedList(list(), "h")).toBe(false);
    // A hash left on a deleted list (written by a share that raced an older delete) opens nothing.
    expect(opensSharedList(list({ shareTokenHash: "h", deleted: true }), "h")).toBe(false);
  });
});
