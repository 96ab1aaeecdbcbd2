// The write path's decisions on their own: states in, reads, writes and answers out.
import { describe, expect, test } from "vitest";
import { planChanges, readsNeeded, type Knowledge, type PlannedChange } from "~/services/saved-items/item-planner";
import type { KnownItem } from "~/services/saved-items/list-state";
import type { RemovedItems } from "~/services/records/stored-values";
import { MAX_STORED_ITEMS_PER_LIST } from "~/services/saved-items/storage-bounds";
import type { ItemAction } from "~/services/saved-items/transitions";

const SAVED_AT = "2026-11-25T10:00:00Z";
const RETENTION_MS = 30 * 86_400_000;

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
  const plan = (action: ItemAction, knowledge: Knowledge, index: string[] = [], removed: RemovedItems = {}) =>
    planChanges([change(action)], knowing([["si-a", knowledge]]), { index, removed }, SAVED_AT, RETENTION_MS);

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

  test("a list at its bound refuses one more stored item, a removal stores one, and a reactivation stores none", () => {
    const full = Array.from({ length: MAX_STORED_ITEMS_PER_LIST }, (_, index) => `si-${index}`);
    expect(plan("save", item("none"), full).plans).toMatchObject([
      {
        kind: "answer",
        outcome: { ok: false, error: { code: "PLAN_LIMIT_REACHED", message: expect.stringMatching(/remove items/) } },
      },
    ]);
    // A removal keeps the item stored: the list is as full as before.
    const batch = planChanges(
      [change("remove", "si-0"), change("save", "si-new")],
      knowing([
        ["si-0", item("active")],
        ["si-new", item("none")],
      ]),
      { index: full, removed: {} },
      SAVED_AT,
      RETENTION_MS,
    );
    expect(batch.plans.map((entry) => entry.kind)).toEqual(["deactivate", "answer"]);
    expect(batch.removed).toEqual({ "si-0": { id: "gid://shopify/Metaobject/1", at: SAVED_AT } });
    // Saving a removed item again brings it back without storing more.
    const [first, ...rest] = full;
    const again = plan("save", item("removed"), rest, { "si-a": { id: "gid://shopify/Metaobject/1", at: SAVED_AT } });
    expect(again.plans.map((entry) => entry.kind)).toEqual(["activate"]);
    expect(again.removed).toEqual({});
    expect(first).toBe("si-0");
  });
});
