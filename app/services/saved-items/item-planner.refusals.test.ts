// The list index a writer writes again when the platform refused some of its writes (at the entry
// cap, or for any other reason): refused writes changed nothing, so the index must not show them.
import { describe, expect, test } from "vitest";
import { indexAfterRefusals } from "~/services/saved-items/item-planner";

describe("indexAfterRefusals", () => {
  const before = ["si-b", "si-c", "si-d"];
  // Two saves (si-x, si-a) and the removal of si-c, as the planner indexed them.
  const planned = ["si-x", "si-a", "si-b", "si-d"];

  test("a refused save leaves the index; the others keep their places", () => {
    expect(indexAfterRefusals(before, planned, new Set(["si-a"]))).toEqual(["si-x", "si-b", "si-d"]);
  });

  test("a refused removal stays in the index where it was", () => {
    expect(indexAfterRefusals(before, planned, new Set(["si-c"]))).toEqual(["si-x", "si-a", "si-b", "si-c", "si-d"]);
  });

  test("everything refused is the index as it was", () => {
    expect(indexAfterRefusals(before, planned, new Set(["si-x", "si-a", "si-c"]))).toEqual(before);
  });
});
