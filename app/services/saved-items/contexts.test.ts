import { describe, expect, test } from "vitest";
import { PLAN_CHANNELS } from "~/services/channels";
import { DEFAULT_LIST_CONTEXT, SAVE_FOR_LATER_CONTEXT, storefrontCompanion } from "~/services/saved-items/contexts";

describe("the list read along with a storefront list (decisions 0015, 0025)", () => {
  test("the default list and saved-for-later go together, each way, when the page shows the other", () => {
    expect(storefrontCompanion("online-store", DEFAULT_LIST_CONTEXT, SAVE_FOR_LATER_CONTEXT)).toBe(
      SAVE_FOR_LATER_CONTEXT,
    );
    expect(storefrontCompanion("online-store", SAVE_FOR_LATER_CONTEXT, DEFAULT_LIST_CONTEXT)).toBe(
      DEFAULT_LIST_CONTEXT,
    );
  });

  test("a page that shows only the list it reads reads no other", () => {
    expect(storefrontCompanion("online-store", DEFAULT_LIST_CONTEXT, undefined)).toBeUndefined();
    expect(storefrontCompanion("online-store", SAVE_FOR_LATER_CONTEXT, undefined)).toBeUndefined();
  });

  test("a page showing a list that is not the companion reads no other", () => {
    expect(storefrontCompanion("online-store", DEFAULT_LIST_CONTEXT, "gifts")).toBeUndefined();
    expect(storefrontCompanion("online-store", DEFAULT_LIST_CONTEXT, DEFAULT_LIST_CONTEXT)).toBeUndefined();
  });

  test("any other list, even one named like an object's property, has none", () => {
    for (const context of ["gifts", "constructor", "__proto__", "toString"]) {
      expect(storefrontCompanion("online-store", context, SAVE_FOR_LATER_CONTEXT)).toBeUndefined();
    }
  });

  test("only the online store reads one", () => {
    for (const channel of PLAN_CHANNELS.filter((name) => name !== "online-store")) {
      expect(storefrontCompanion(channel, DEFAULT_LIST_CONTEXT, SAVE_FOR_LATER_CONTEXT)).toBeUndefined();
    }
  });
});
