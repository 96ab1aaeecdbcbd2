import { describe, expect, test } from "vitest";
import { PLANS } from "~/services/plans";
import { MAX_LISTS_PER_CUSTOMER } from "~/services/saved-items/storage-bounds";
import {
  assertListExists,
  decideCreateList,
  directoryWithout,
  listsSearchMissed,
  searchResultsShown,
} from "~/services/saved-items/named-lists";
import { storedStrings } from "~/services/records/stored-values";

const RETENTION_MS = 30 * 86_400_000;
/** A directory whose named lists are `named` and whose stored lists are those and `others`. */
const directory = (named: string[], others: string[] = []) => ({ named, lists: [...named, ...others] });

describe("create-list's decision", () => {
  test("a new context under the limit goes first in the directory", () => {
    expect(decideCreateList(null, directory(["b"]), { context: "a", name: "A" }, PLANS.free, RETENTION_MS)).toEqual({
      kind: "create",
      directory: { named: ["a", "b"], lists: ["a", "b"] },
    });
  });

  test("a list that exists and is not deleted is LIST_EXISTS, whoever made it", () => {
    const decision = decideCreateList(
      { deleted: false, name: null },
      directory([]),
      { context: "wishlist", name: "W" },
      PLANS.scale,
      RETENTION_MS,
    );
    expect(decision).toMatchObject({ kind: "refuse", error: { code: "LIST_EXISTS", status: 409 } });
    const renamed = decideCreateList(
      { deleted: false, name: "Gifts" },
      directory(["a"]),
      { context: "a", name: "Other" },
      PLANS.scale,
      RETENTION_MS,
    );
    expect(renamed).toMatchObject({ kind: "refuse", error: { code: "LIST_EXISTS" } });
  });

  test("the same create repeated (same context and name) answers the existing list, even at the plan's limit", () => {
    const full = Array.from({ length: PLANS.free.maxNamedLists }, (_, index) => `l${index}`);
    expect(
      decideCreateList(
        { deleted: false, name: "Gifts" },
        directory(full),
        { context: "l0", name: "Gifts" },
        PLANS.free,
        RETENTION_MS,
      ),
    ).toEqual({
      kind: "exists",
    });
  });

  test("a deleted list may be made again; its stale directory entry is not counted twice", () => {
    expect(
      decideCreateList(
        { deleted: true, name: null },
        directory(["a", "b"]),
        { context: "a", name: "A" },
        PLANS.free,
        RETENTION_MS,
      ),
    ).toEqual({
      kind: "create",
      directory: { named: ["a", "b"], lists: ["a", "b"] },
    });
  });

  test("the plan's number of named lists is the limit", () => {
    const full = Array.from({ length: PLANS.starter.maxNamedLists }, (_, index) => `l${index}`);
    const decision = decideCreateList(
      null,
      directory(full),
      { context: "new", name: "New" },
      PLANS.starter,
      RETENTION_MS,
    );
    expect(decision).toMatchObject({ kind: "refuse", error: { code: "PLAN_LIMIT_REACHED", status: 402 } });
    expect(
      decideCreateList(null, directory(full.slice(1)), { context: "new", name: "New" }, PLANS.starter, RETENTION_MS)
        .kind,
    ).toBe("create");
  });

  test("a list not yet stored is refused once the customer has the bound's number of lists; one stored already is not", () => {
    const stored = Array.from({ length: MAX_LISTS_PER_CUSTOMER }, (_, index) => `s${index}`);
    const refused = decideCreateList(
      null,
      directory([], stored),
      { context: "new", name: "New" },
      PLANS.scale,
      RETENTION_MS,
    );
    expect(refused).toMatchObject({
      kind: "refuse",
      error: {
        code: "PLAN_LIMIT_REACHED",
        status: 402,
        retryable: false,
        message: expect.stringMatching(/delete a list/),
      },
    });
    const deleted = decideCreateList(
      { deleted: true, name: null },
      directory([], stored),
      { context: "s0", name: "Again" },
      PLANS.scale,
      RETENTION_MS,
    );
    expect(deleted.kind).toBe("create");
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
    expect(directoryWithout(directory(["a", "b"], ["c"]), "a")).toEqual({ named: ["b"] });
    expect(directoryWithout(directory(["a", "b"], ["c"]), "c")).toBeNull();
  });

  test("a stored directory that is not a list of strings reads as empty or filtered", () => {
    expect(storedStrings(undefined)).toEqual([]);
    expect(storedStrings({ a: 1 })).toEqual([]);
    expect(storedStrings(["a", 1, null, "b"])).toEqual(["a", "b"]);
  });
});

describe("lists beside a lagging search", () => {
  test("a last page misses every list the directory names that it does not hold", () => {
    expect(listsSearchMissed(["new", "b", "old", "a"], new Set(["a", "b"]), false)).toEqual(["new", "old"]);
  });

  test("a page with more after it can miss only lists stored after the newest it holds", () => {
    expect(listsSearchMissed(["new", "newer", "b", "older"], new Set(["b"]), true)).toEqual(["new", "newer"]);
    expect(listsSearchMissed(["new", "b"], new Set(), true)).toEqual(["new", "b"]);
  });

  test("the first page keeps what fits of the search page, and always one of it", () => {
    expect(searchResultsShown(0, 20, 20)).toBe(20);
    expect(searchResultsShown(2, 20, 20)).toBe(18);
    expect(searchResultsShown(5, 3, 2)).toBe(1);
    expect(searchResultsShown(1, 0, 20)).toBe(0);
  });
});
