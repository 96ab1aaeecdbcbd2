import { describe, expect, test } from "vitest";
import { PLANS } from "~/services/plans";
import {
  assertListExists,
  decideCreateList,
  directoryWithout,
  storedStrings,
} from "~/services/saved-items/named-lists";

describe("create-list's decision", () => {
  test("a new context under the limit goes first in the directory", () => {
    expect(decideCreateList(null, ["b"], { context: "a", name: "A" }, PLANS.free)).toEqual({
      kind: "create",
      namedLists: ["a", "b"],
    });
  });

  test("a list that exists and is not deleted is LIST_EXISTS, whoever made it", () => {
    const decision = decideCreateList(
      { deleted: false, name: null },
      [],
      { context: "wishlist", name: "W" },
      PLANS.scale,
    );
    expect(decision).toMatchObject({ kind: "refuse", error: { code: "LIST_EXISTS", status: 409 } });
    const renamed = decideCreateList(
      { deleted: false, name: "Gifts" },
      ["a"],
      { context: "a", name: "Other" },
      PLANS.scale,
    );
    expect(renamed).toMatchObject({ kind: "refuse", error: { code: "LIST_EXISTS" } });
  });

  test("the same create repeated (same context and name) answers the existing list, even at the plan's limit", () => {
    const full = Array.from({ length: PLANS.free.maxNamedLists }, (_, index) => `l${index}`);
    expect(
      decideCreateList({ deleted: false, name: "Gifts" }, full, { context: "l0", name: "Gifts" }, PLANS.free),
    ).toEqual({
      kind: "exists",
    });
  });

  test("a deleted list may be made again; its stale directory entry is not counted twice", () => {
    expect(
      decideCreateList({ deleted: true, name: null }, ["a", "b"], { context: "a", name: "A" }, PLANS.free),
    ).toEqual({
      kind: "create",
      namedLists: ["a", "b"],
    });
  });

  test("the plan's number of named lists is the limit", () => {
    const full = Array.from({ length: PLANS.starter.maxNamedLists }, (_, index) => `l${index}`);
    const decision = decideCreateList(null, full, { context: "new", name: "New" }, PLANS.starter);
    expect(decision).toMatchObject({ kind: "refuse", error: { code: "PLAN_LIMIT_REACHED", status: 402 } });
    expect(decideCreateList(null, full.slice(1), { context: "new", name: "New" }, PLANS.starter).kind).toBe("create");
  });
});

describe("rename and delete", () => {
  test("act only on a list that exists and is not deleted", () => {
    expect(() => assertListExists(null, "x")).toThrow(expect.objectContaining({ code: "NOT_FOUND" }));
    expect(() => assertListExists({ deleted: true, name: null }, "x")).toThrow(
      expect.objectContaining({ code: "NOT_FOUND" }),
    );
    const list = { deleted: false, name: null, index: [] };
    expect(assertListExists(list, "x")).toBe(list);
  });

  test("the directory loses a deleted list, and is not written for a list it never held", () => {
    expect(directoryWithout(["a", "b"], "a")).toEqual(["b"]);
    expect(directoryWithout(["a", "b"], "c")).toBeNull();
  });

  test("a stored directory that is not a list of strings reads as empty or filtered", () => {
    expect(storedStrings(undefined)).toEqual([]);
    expect(storedStrings({ a: 1 })).toEqual([]);
    expect(storedStrings(["a", 1, null, "b"])).toEqual(["a", "b"]);
  });
});
