// The write path's decisions on their own: states in, reads, writes and answers out.
import { describe, expect, test } from "vitest";
import {
  MAX_ACTIVE_ITEMS_PER_LIST,
  planChanges,
  readsNeeded,
  type Knowledge,
  type PlannedChange,
} from "~/services/saved-items/item-planner";
import type { KnownItem } from "~/services/saved-items/list-state";
import type { ItemAction } from "~/services/saved-items/transitions";

const SAVED_AT = "2026-11-25T10:00:00Z";

function change(action: ItemAction, handle = "si-a"): PlannedChange {
  return {
    action,
    handle,
    item: { context: "wishlist", entityType: "product", entityGid: `gid://shopify/Product/${handle}` },
    source: "test",
  };
}

function item(status: "active" | "removed" | "none"): Knowledge {
  const known: KnownItem = {
    id: status === "none" ? null : "gid://shopify/Metaobject/1",
    status: status === "active" ? "active" : "removed",
    entityType: "product",
    entityGid: "gid://shopify/Product/si-a",
    savedAt: null,
    snapshot: null,
    stampMs: 1,
  };
  return { kind: "known", item: known };
}

const knowing = (entries: [string, Knowledge][]) => new Map(entries);

describe("readsNeeded", () => {
  test("an unknown item is read; a known one is not", () => {
    expect(readsNeeded([change("save")], knowing([["si-a", { kind: "unknown" }]]), true)).toEqual({
      items: ["si-a"],
      index: false,
    });
    expect(readsNeeded([change("save")], knowing([["si-a", item("removed")]]), true)).toEqual({
      items: [],
      index: false,
    });
  });

  test("a remove of an item a complete state does not hold must learn whether it exists (200 or 404)", () => {
    expect(readsNeeded([change("remove")], knowing([["si-a", { kind: "inactive" }]]), true).items).toEqual(["si-a"]);
    // A save or toggle of it activates it by handle either way.
    expect(readsNeeded([change("save")], knowing([["si-a", { kind: "inactive" }]]), true).items).toEqual([]);
    expect(readsNeeded([change("toggle")], knowing([["si-a", { kind: "inactive" }]]), true).items).toEqual([]);
  });

  test("the list's index is read only when it is unknown and a change may alter it", () => {
    expect(readsNeeded([change("save")], knowing([["si-a", item("active")]]), false).index).toBe(false);
    expect(readsNeeded([change("remove")], knowing([["si-a", item("none")]]), false).index).toBe(false);
    expect(readsNeeded([change("save")], knowing([["si-a", item("removed")]]), false).index).toBe(true);
    expect(readsNeeded([change("remove")], knowing([["si-a", { kind: "unknown" }]]), false).index).toBe(true);
  });
});

describe("planChanges: the state table", () => {
  const plan = (action: ItemAction, knowledge: Knowledge, index: string[] = []) =>
    planChanges([change(action)], knowing([["si-a", knowledge]]), index, SAVED_AT);

  test.each([
    ["save", "none"],
    ["save", "removed"],
    ["toggle", "none"],
    ["toggle", "removed"],
  ] as const)("%s of an item that is %s activates it by handle and puts it first in the index", (action, status) => {
    const { plans, index } = plan(action, item(status), ["si-b"]);
    expect(plans).toEqual([
      {
        kind: "activate",
        handle: "si-a",
        fields: {
          context: "wishlist",
          entity_type: "product",
          entity_gid: "gid://shopify/Product/si-a",
          status: "active",
          saved_at: SAVED_AT,
          source: "test",
        },
      },
    ]);
    expect(index).toEqual(["si-a", "si-b"]);
  });

  test("save or toggle of an item not active with its existence unknown activates it", () => {
    expect(plan("save", { kind: "inactive" }).plans[0]).toMatchObject({ kind: "activate" });
    expect(plan("toggle", { kind: "inactive" }).plans[0]).toMatchObject({ kind: "activate" });
  });

  test("save of an active item is DUPLICATE_SAVE and writes nothing", () => {
    const { plans, index } = plan("save", item("active"), ["si-a"]);
    expect(plans).toMatchObject([{ kind: "answer", outcome: { ok: false, error: { code: "DUPLICATE_SAVE" } } }]);
    expect(index).toBeUndefined();
  });

  test("remove and toggle of an active item deactivate it by id and drop it from the index", () => {
    for (const action of ["remove", "toggle"] as const) {
      const { plans, index } = plan(action, item("active"), ["si-b", "si-a"]);
      expect(plans).toEqual([{ kind: "deactivate", handle: "si-a", id: "gid://shopify/Metaobject/1" }]);
      expect(index).toEqual(["si-b"]);
    }
  });

  test("remove of a removed item is 200 removed with its id, and writes nothing", () => {
    expect(plan("remove", item("removed"))).toEqual({
      plans: [
        { kind: "answer", outcome: { ok: true, result: { id: "gid://shopify/Metaobject/1", state: "removed" } } },
      ],
    });
  });

  test("remove of an item that does not exist is ITEM_NOT_FOUND", () => {
    expect(plan("remove", item("none")).plans).toMatchObject([
      { kind: "answer", outcome: { ok: false, error: { code: "ITEM_NOT_FOUND", status: 404 } } },
    ]);
  });

  test("deciding without the knowledge it needs is a bug, not a guess", () => {
    expect(() => plan("remove", { kind: "inactive" })).toThrow(/must be read first/);
    expect(() => plan("save", { kind: "unknown" })).toThrow(/must be read first/);
  });

  test("a list at its limit refuses one more active item, and still takes a reactivation that removes first", () => {
    const full = Array.from({ length: MAX_ACTIVE_ITEMS_PER_LIST }, (_, index) => `si-${index}`);
    expect(plan("save", item("none"), full).plans).toMatchObject([
      { kind: "answer", outcome: { ok: false, error: { code: "PLAN_LIMIT_REACHED" } } },
    ]);
    const batch = planChanges(
      [change("remove", "si-0"), change("save", "si-new")],
      knowing([
        ["si-0", item("active")],
        ["si-new", item("none")],
      ]),
      full,
      SAVED_AT,
    );
    expect(batch.plans.map((entry) => entry.kind)).toEqual(["deactivate", "activate"]);
    expect(batch.index).toHaveLength(MAX_ACTIVE_ITEMS_PER_LIST);
    expect(batch.index?.[0]).toBe("si-new");
  });
});
