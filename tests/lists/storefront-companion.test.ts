import { describe, expect, test } from "vitest";
import { PLAN_CHANNELS } from "~/services/channels";
import { DEFAULT_LIST_CONTEXT, SAVE_FOR_LATER_CONTEXT, storefrontCompanion } from "~/services/saved-items/contexts";

describe("the list read along with a storefront list (decision 0015)", () => {
  test("the default list and saved-for-later go together, each way", () => {
    expect(storefrontCompanion("online-store", DEFAULT_LIST_CONTEXT)).toBe(SAVE_FOR_LATER_CONTEXT);
    expect(storefrontCompanion("online-store", SAVE_FOR_LATER_CONTEXT)).toBe(DEFAULT_LIST_CONTEXT);
  });

  test("any other list, even one named like an object's property, has none", () => {
    for (const context of ["gifts", "constructor", "__proto__", "toString"]) {
      expect(storefrontCompanion("online-store", context)).toBeUndefined();
    }
  });

  test("only the online store reads one", () => {
    for (const channel of PLAN_CHANNELS.filter((name) => name !== "online-store")) {
      expect(storefrontCompanion(channel, DEFAULT_LIST_CONTEXT)).toBeUndefined();
    }
  });
});
