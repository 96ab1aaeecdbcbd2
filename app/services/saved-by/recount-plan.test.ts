import { describe, expect, test } from "vitest";
import {
  afterPoll,
  createShopperCounter,
  planRecount,
  recountStep,
  type RecordedCount,
} from "~/services/saved-by/recount-plan";

const product = (id: number) => `gid://shopify/Product/${id}`;
const counted = (entries: [number, number][]) => new Map(entries.map(([id, shoppers]) => [product(id), shoppers]));
const recorded = (entries: [number, RecordedCount][]) => new Map(entries.map(([id, row]) => [product(id), row]));

describe("planRecount: which products the bulk count shows to be wrong", () => {
  test("a product whose row agrees with the count is left alone", () => {
    const rows = recorded([
      [1, { published: 5, bound: 7 }],
      [2, { published: null, bound: 3 }],
      [3, { published: 5, bound: 9 }],
    ]);
    expect(
      planRecount(
        counted([
          [1, 7],
          [2, 3],
          [3, 6],
        ]),
        rows,
      ),
    ).toEqual([]);
  });

  test("a lost mark: the bound is below the count, so it is raised by the whole count and the product made due", () => {
    // 4 saves lost, 1 marked after the snapshot began: max(1, 4) would settle without a count at 4.
    const marks = planRecount(counted([[1, 4]]), recorded([[1, { published: null, bound: 1 }]]));
    expect(marks).toEqual([{ productGid: product(1), create: false, raiseBy: 4, due: true }]);
  });

  test("a published count that differs from the snapshot's is made due; a bound at or above it stays", () => {
    const marks = planRecount(counted([[1, 12]]), recorded([[1, { published: 5, bound: 12 }]]));
    expect(marks).toEqual([{ productGid: product(1), create: false, raiseBy: 0, due: true }]);
  });

  test("an exact count published before the steps is made due, to be rewritten as its step", () => {
    const marks = planRecount(counted([[1, 7]]), recorded([[1, { published: 7, bound: 7 }]]));
    expect(marks).toEqual([{ productGid: product(1), create: false, raiseBy: 0, due: true }]);
  });

  test("a count the snapshot puts below the floor, with one published, is made due for the flush to delete", () => {
    const marks = planRecount(counted([[1, 3]]), recorded([[1, { published: 5, bound: 5 }]]));
    expect(marks).toEqual([{ productGid: product(1), create: false, raiseBy: 0, due: true }]);
  });

  test("a published product nobody has active in the snapshot is made due, never lowered", () => {
    const marks = planRecount(new Map(), recorded([[1, { published: 5, bound: 5 }]]));
    expect(marks).toEqual([{ productGid: product(1), create: false, raiseBy: 0, due: true }]);
  });

  test("an unpublished product nobody has active in the snapshot costs nothing", () => {
    expect(planRecount(new Map(), recorded([[1, { published: null, bound: 2 }]]))).toEqual([]);
  });

  test("a product without a row gets one with the count as its bound, due only if it can show a count", () => {
    const marks = planRecount(
      counted([
        [1, 5],
        [2, 4],
      ]),
      new Map(),
    );
    expect(marks).toEqual([
      { productGid: product(1), create: true, raiseBy: 5, due: true },
      { productGid: product(2), create: true, raiseBy: 4, due: false },
    ]);
  });
});

describe("createShopperCounter: distinct shoppers per product among active product saves", () => {
  test("a shopper with the product in two lists counts once; removed items and variants not at all", () => {
    const counter = createShopperCounter();
    const line = {
      entityType: "product",
      entityGid: product(1),
      customerGid: "gid://shopify/Customer/1",
      active: true,
    };
    counter.add(line);
    counter.add(line);
    counter.add({ ...line, customerGid: "gid://shopify/Customer/2" });
    counter.add({ ...line, customerGid: "gid://shopify/Customer/3", active: false });
    counter.add({ ...line, entityType: "variant", entityGid: "gid://shopify/ProductVariant/9" });
    expect(counter.counts()).toEqual(counted([[1, 2]]));
  });
});

describe("recountStep: what a shop's next step is", () => {
  const lag = 60_000;
  const countedAt = new Date("2026-11-26T08:00:00.000Z");
  const at = (ms: number) => new Date(countedAt.getTime() + ms);

  test("a running operation is polled", () => {
    expect(recountStep({ countedAt, operation: "gid://shopify/BulkOperation/1" }, null, lag)).toBe("poll");
  });

  test("a shop never recounted is recounted, marks or not (saves from before the count existed)", () => {
    expect(recountStep({ countedAt: null, operation: null }, null, lag)).toBe("start");
  });

  test("a shop recounted before is recounted only if a mark may be newer than what its snapshot saw", () => {
    const state = { countedAt, operation: null };
    expect(recountStep(state, null, lag)).toBe("idle");
    expect(recountStep(state, at(-lag), lag)).toBe("idle");
    expect(recountStep(state, at(-lag + 1), lag)).toBe("start");
    expect(recountStep(state, at(1_000), lag)).toBe("start");
  });
});

describe("afterPoll", () => {
  test("a finished operation is read, a running one waited for, a failed one given up", () => {
    expect(afterPoll("COMPLETED")).toBe("read");
    expect(afterPoll("RUNNING")).toBe("wait");
    expect(afterPoll("CREATED")).toBe("wait");
    expect(afterPoll("FAILED")).toBe("abandon");
    expect(afterPoll("EXPIRED")).toBe("abandon");
    expect(afterPoll("CANCELED")).toBe("abandon");
  });
});
