// The list manager's decisions (extensions/saved-items-theme-src/named-lists.ts): which list it opens
// on, and the lists and the list shown after a change's answer.
import { describe, expect, test } from "vitest";
import type { BlockConfig } from "../../extensions/saved-items-theme-src/block-config";
import { afterChange, openingList, type NamedList } from "../../extensions/saved-items-theme-src/named-lists";

const config = { context: "wishlist" } as BlockConfig;
const list = (context: string, itemCount = 0, name: string | null = context): NamedList => ({
  context,
  name,
  itemCount,
});

describe("openingList", () => {
  test("the block's own list when the shopper has it, even empty and behind others", () => {
    expect(openingList(config, [list("gifts", 2), list("wishlist", 0, null)])).toBe("wishlist");
  });

  test("without it, the newest list holding items, else the newest", () => {
    expect(openingList(config, [list("empty"), list("kitchen", 1), list("gift-ideas", 3)])).toBe("kitchen");
    expect(openingList(config, [list("new"), list("older")])).toBe("new");
  });

  test("the block's own only for a shopper with no list", () => {
    expect(openingList(config, [])).toBe("wishlist");
  });
});

describe("afterChange", () => {
  const lists = [list("beta", 1), list("alpha", 1)];

  test("a new list goes first and is shown", () => {
    expect(afterChange(config, lists, "alpha", "gamma", list("gamma"))).toEqual({
      lists: [list("gamma"), ...lists],
      shown: "gamma",
    });
  });

  test("a rename keeps the list's place, and the list shown stays shown", () => {
    const renamed = list("alpha", 1, "Alpha 2");
    expect(afterChange(config, lists, "alpha", "alpha", renamed)).toEqual({
      lists: [list("beta", 1), renamed],
      shown: "alpha",
    });
    // Answered after the shopper switched to Beta: Beta stays.
    expect(afterChange(config, lists, "beta", "alpha", renamed).shown).toBe("beta");
  });

  test("deleting the list shown shows the list the manager would open on; deleting another keeps the one shown", () => {
    expect(afterChange(config, lists, "beta", "beta")).toEqual({ lists: [list("alpha", 1)], shown: "alpha" });
    expect(afterChange(config, lists, "beta", "alpha")).toEqual({ lists: [list("beta", 1)], shown: "beta" });
    expect(afterChange(config, [list("only", 1)], "only", "only")).toEqual({ lists: [], shown: "wishlist" });
  });
});
