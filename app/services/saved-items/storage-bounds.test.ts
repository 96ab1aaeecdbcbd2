// The storage bounds' and retention's decisions on their own (docs/decisions/0017-bounded-storage.md).
import { describe, expect, test } from "vitest";
import {
  admitNewLists,
  describeWindow,
  MAX_LISTS_PER_CUSTOMER,
  MAX_STORED_ITEMS_PER_CUSTOMER,
  MAX_STORED_ITEMS_PER_LIST,
  planRetention,
  type RetainedList,
} from "~/services/saved-items/storage-bounds";
import { parseRemovedItems } from "~/services/records/stored-values";

const DAY = 86_400_000;
const CUTOFF = Date.parse("2026-11-01T00:00:00Z");
const before = (days: number) => new Date(CUTOFF - days * DAY).toISOString();
const after = (days: number) => new Date(CUTOFF + days * DAY).toISOString();

function list(overrides: Partial<RetainedList> = {}): RetainedList {
  return { index: [], removed: {}, deletedAtMs: null, named: false, updatedAtMs: CUTOFF - DAY, ...overrides };
}

describe("the bounds", () => {
  test("keep a customer within 200 lists and 5,000 stored items", () => {
    expect(MAX_LISTS_PER_CUSTOMER).toBeLessThanOrEqual(200);
    expect(MAX_LISTS_PER_CUSTOMER * MAX_STORED_ITEMS_PER_LIST).toBeLessThanOrEqual(MAX_STORED_ITEMS_PER_CUSTOMER);
    expect(MAX_STORED_ITEMS_PER_CUSTOMER).toBeLessThanOrEqual(5_000);
  });

  test("new lists are admitted in order up to the bound; lists already counted always are", () => {
    const stored = Array.from({ length: MAX_LISTS_PER_CUSTOMER - 1 }, (_, index) => `s${index}`);
    const { admitted, lists } = admitNewLists(stored, ["a", "s0", "b"]);
    expect([...admitted]).toEqual(["a", "s0"]);
    expect(lists).toHaveLength(MAX_LISTS_PER_CUSTOMER);
    expect(lists[0]).toBe("a");
  });

  test("a stored removed_items value that is not one reads as null; bad entries are dropped", () => {
    expect(parseRemovedItems(undefined)).toBeNull();
    expect(parseRemovedItems(["x"])).toBeNull();
    expect(parseRemovedItems({ a: { id: "1", at: "t" }, b: { id: 2 }, c: null })).toEqual({ a: { id: "1", at: "t" } });
  });

  test("the window reads in the largest whole unit", () => {
    expect(describeWindow(30 * DAY)).toBe("30 days");
    expect(describeWindow(120_000)).toBe("2 minutes");
    expect(describeWindow(3_600_000)).toBe("1 hour");
    expect(describeWindow(90_000)).toBe("90 seconds");
  });
});

describe("planRetention", () => {
  test("deletes the removed items removed at or before the cutoff, and keeps the newer ones", () => {
    const plan = planRetention(
      list({
        index: ["si-active"],
        removed: {
          old: { id: "1", at: before(1) },
          edge: { id: "2", at: before(0) },
          recent: { id: "3", at: after(1) },
        },
      }),
      CUTOFF,
    );
    expect(plan.deleteItems).toEqual([
      { handle: "old", id: "1" },
      { handle: "edge", id: "2" },
    ]);
    expect(plan.removed).toEqual({ recent: { id: "3", at: after(1) } });
    expect(plan.dropList).toBe(false);
  });

  test("drops a list emptied before the cutoff: by its last removal, its deletion, or its last write", () => {
    expect(planRetention(list({ removed: { a: { id: "1", at: before(2) } } }), CUTOFF).dropList).toBe(true);
    expect(planRetention(list(), CUTOFF).dropList).toBe(true);
    expect(planRetention(list({ updatedAtMs: CUTOFF + DAY }), CUTOFF).dropList).toBe(false);
    // Deleted after its items were removed: the deletion is when it was emptied.
    const deletedLate = list({ removed: { a: { id: "1", at: before(5) } }, deletedAtMs: CUTOFF + DAY, named: false });
    expect(planRetention(deletedLate, CUTOFF)).toMatchObject({ deleteItems: [{ handle: "a" }], dropList: false });
  });

  test("keeps a list with an active item, a removed item not yet due, or a name its customer has not deleted", () => {
    expect(planRetention(list({ index: ["si-a"] }), CUTOFF).dropList).toBe(false);
    expect(planRetention(list({ removed: { a: { id: "1", at: after(1) } } }), CUTOFF).dropList).toBe(false);
    expect(planRetention(list({ named: true }), CUTOFF).dropList).toBe(false);
    expect(planRetention(list({ named: true, deletedAtMs: CUTOFF - DAY }), CUTOFF).dropList).toBe(true);
  });
});
