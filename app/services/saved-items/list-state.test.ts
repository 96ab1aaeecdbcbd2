// The cached list state's rules on their own.
import { describe, expect, test } from "vitest";
import {
  currentState,
  fencedChange,
  lookUpItem,
  withItems,
  withPendingItems,
  type KnownItem,
} from "~/services/saved-items/list-state";

const NOW = 1_000_000;
const active: KnownItem = {
  id: "gid://shopify/Metaobject/1",
  status: "active",
  entityType: "product",
  entityGid: "gid://shopify/Product/1",
  savedAt: null,
  snapshot: null,
  stampMs: 5,
};

describe("list state", () => {
  test("an item a complete state does not hold is not active, which is not 'never saved'; an incomplete state cannot say", () => {
    const empty = currentState(undefined, 0, NOW);
    expect(lookUpItem(empty, "si-a")).toBeUndefined();
    expect(lookUpItem({ ...empty, complete: true }, "si-a")).toBe("inactive");
  });

  test("a reader's observation never replaces a pending mark; its writer's settling does", () => {
    const pending = withPendingItems(currentState(undefined, 0, NOW), ["si-a"], NOW);
    expect(lookUpItem(withItems(pending, { "si-a": active }, { nowMs: NOW }), "si-a")).toBeUndefined();
    expect(lookUpItem(withItems(pending, { "si-a": active }, { nowMs: NOW, settlesPending: true }), "si-a")).toEqual(
      active,
    );
  });

  test("a writer's change is refused once a writer with a newer fence changed the state", () => {
    const newer = fencedChange(7, (current) =>
      withItems(currentState(current, 0, NOW), { "si-a": active }, { nowMs: NOW }),
    );
    const written = newer(undefined)!;
    expect(written.fence).toBe(7);
    const late = fencedChange(6, (current) => withPendingItems(currentState(current, 0, NOW), ["si-a"], NOW));
    expect(late(written)).toBe(written);
    expect(lookUpItem(fencedChange(8, (current) => currentState(current, 0, NOW))(written)!, "si-a")).toEqual(active);
  });
});
