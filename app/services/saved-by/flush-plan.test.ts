import { describe, expect, test } from "vitest";
import {
  boundAfterCount,
  dueAgainAt,
  estimatedRequests,
  refusedOwners,
  planFlush,
  publishedValue,
  publishPlan,
  SAVED_BY_FLOOR,
  SAVED_BY_MAX_DELAY_MS,
  countableNow,
  type DirtyProduct,
} from "~/services/saved-by/flush-plan";

const NOW = new Date("2026-11-27T08:00:00.000Z");
const ago = (ms: number) => new Date(NOW.getTime() - ms);
const costs = { searchLagMs: 60_000, itemsPerPage: 100 };

function dirty(id: number, overrides: Partial<DirtyProduct> = {}): DirtyProduct {
  return {
    productGid: `gid://shopify/Product/${id}`,
    dirtySince: ago(10_000),
    dirtyAt: ago(10_000),
    pendingSaves: 1,
    published: null,
    bound: SAVED_BY_FLOOR,
    countedAt: null,
    ...overrides,
  };
}

describe("refusedOwners: the owners a refused metafieldsSet names", () => {
  const owners = ["gid://shopify/Product/1", "gid://shopify/Product/2", "gid://shopify/Product/3"];

  test("an error on an entry's ownerId names that entry's owner", () => {
    expect(refusedOwners([{ field: ["metafields", "1", "ownerId"] }], owners)).toEqual(["gid://shopify/Product/2"]);
  });

  test("any other error is about the batch: no owner to drop", () => {
    expect(refusedOwners([{ field: ["metafields", "1", "value"] }], owners)).toBeUndefined();
    expect(refusedOwners([{ field: ["metafields", "1", "ownerId"] }, { field: null }], owners)).toBeUndefined();
    expect(refusedOwners([{ field: ["metafields", "7", "ownerId"] }], owners)).toBeUndefined();
  });
});

describe("planFlush: which dirty products to recount now", () => {
  test("nothing dirty, nothing to do", () => {
    expect(planFlush([], NOW, costs)).toEqual([]);
  });

  test("a few saves wait: their recount would cost more than one request per 10 saves", () => {
    // One product: the read of whether it exists, one count request and one write, so 30 saves pay for it.
    expect(planFlush([dirty(1, { pendingSaves: 29 })], NOW, costs)).toEqual([]);
    expect(planFlush([dirty(1, { pendingSaves: 30 })], NOW, costs)).toHaveLength(1);
  });

  test("saves spread over many products must pay for each product's count request", () => {
    const products = Array.from({ length: 30 }, (_, index) => dirty(index + 1, { pendingSaves: 10 }));
    // 1 read of which exist + 30 count requests + 2 writes = 33 requests: 300 saves are not enough, 330 are.
    expect(estimatedRequests(products, 100)).toBe(33);
    expect(planFlush(products, NOW, costs)).toEqual([]);
    products[0]!.pendingSaves = 40;
    expect(planFlush(products, NOW, costs)).toHaveLength(30);
  });

  test("a product whose count spans pages is guessed to cost its pages", () => {
    expect(estimatedRequests([dirty(1, { bound: 250 })], 100)).toBe(1 + 3 + 1);
  });

  test("products that cannot have reached the floor, with nothing published, cost nothing and go at once", () => {
    const rare = Array.from({ length: 40 }, (_, index) => dirty(index + 1, { bound: SAVED_BY_FLOOR - 1 }));
    expect(estimatedRequests(rare, 100)).toBe(0);
    expect(planFlush(rare, NOW, costs)).toHaveLength(40);
    // A published one must be counted: a removal may have taken it below the floor.
    const published = dirty(41, { bound: 3, published: 5 });
    expect(estimatedRequests([...rare, published], 100)).toBe(3);
  });

  test("a single save is flushed once it has waited the maximum delay, whatever it costs", () => {
    expect(planFlush([dirty(1, { dirtySince: ago(SAVED_BY_MAX_DELAY_MS - 1) })], NOW, costs)).toEqual([]);
    expect(planFlush([dirty(1, { dirtySince: ago(SAVED_BY_MAX_DELAY_MS) })], NOW, costs)).toHaveLength(1);
  });

  test("a search lag longer than the delay lengthens it: the count must see the save", () => {
    const lag = { ...costs, searchLagMs: 2 * SAVED_BY_MAX_DELAY_MS };
    expect(planFlush([dirty(1, { dirtySince: ago(SAVED_BY_MAX_DELAY_MS) })], NOW, lag)).toEqual([]);
    expect(planFlush([dirty(1, { dirtySince: ago(2 * SAVED_BY_MAX_DELAY_MS) })], NOW, lag)).toHaveLength(1);
  });

  test("a backlog is taken oldest first, at most 100 products a flush", () => {
    const products = Array.from({ length: 150 }, (_, index) =>
      dirty(index + 1, { dirtySince: ago(SAVED_BY_MAX_DELAY_MS + index * 1000) }),
    );
    const planned = planFlush(products, NOW, costs);
    expect(planned).toHaveLength(100);
    expect(planned[0]!.productGid).toBe("gid://shopify/Product/150");
  });
});

describe("the floor", () => {
  test(`nothing below ${SAVED_BY_FLOOR} shoppers is published`, () => {
    expect(publishedValue(0)).toBeNull();
    expect(publishedValue(SAVED_BY_FLOOR - 1)).toBeNull();
    expect(publishedValue(SAVED_BY_FLOOR)).toBe(SAVED_BY_FLOOR);
  });

  test("what is published is a step, never the count: one shopper more or less inside a step shows nothing", () => {
    const steps = [5, 10, 25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 25_000, 50_000, 100_000];
    for (const [index, step] of steps.entries()) {
      expect(publishedValue(step)).toBe(step);
      expect(publishedValue(step + 1)).toBe(step);
      const next = steps[index + 1];
      if (next !== undefined) expect(publishedValue(next - 1)).toBe(step);
    }
    expect(publishedValue(6)).toBe(5);
    expect(publishedValue(1234)).toBe(1_000);
    expect(publishedValue(Number.NaN)).toBeNull();
  });

  test("publishPlan writes changed counts, removes counts that fell below the floor, and skips the rest", () => {
    const products = [
      dirty(1, { published: null }), // reaches the floor
      dirty(2, { published: 5 }), // unchanged: 7 shoppers are still the step of 5
      dirty(3, { published: 5 }), // falls below: removed
      dirty(4, { published: null }), // stays below: nothing to write
      dirty(5, { published: 5 }), // changes: 12 shoppers are the step of 10
    ];
    const shoppers = new Map([
      ["gid://shopify/Product/1", 5],
      ["gid://shopify/Product/2", 7],
      ["gid://shopify/Product/3", 4],
      ["gid://shopify/Product/4", 3],
      ["gid://shopify/Product/5", 12],
    ]);
    expect(publishPlan(products, shoppers)).toEqual({
      set: [
        { productGid: "gid://shopify/Product/1", value: 5 },
        { productGid: "gid://shopify/Product/5", value: 10 },
      ],
      remove: ["gid://shopify/Product/3"],
    });
  });
});

describe("the bound a count leaves", () => {
  test("a settled count is the new bound; one the search may have been behind never lowers it", () => {
    const product = dirty(1, { bound: 6 });
    expect(boundAfterCount(4, product, true)).toBe(4);
    expect(boundAfterCount(4, product, false)).toBe(6);
    expect(boundAfterCount(8, product, false)).toBe(8);
  });
});

describe("dueAgainAt: a mark the search may not have seen", () => {
  test("a mark older than the search lag at the flush's start is settled", () => {
    expect(dueAgainAt(ago(60_000), NOW, 60_000)).toBeNull();
  });

  test("a younger mark makes the product due as soon as the search can have seen it", () => {
    const mark = ago(10_000);
    const due = dueAgainAt(mark, NOW, 60_000)!;
    // Due means dirtySince + the maximum delay has passed: that is the mark + the lag.
    expect(due.getTime() + SAVED_BY_MAX_DELAY_MS).toBe(mark.getTime() + 60_000);
  });
});

describe("countableNow: one count of a product per window, however often it is toggled", () => {
  test("a product counted within the maximum delay is left out, even when its marks would pay for a flush", () => {
    const toggled = dirty(1, { pendingSaves: 1_000, bound: 500, countedAt: ago(SAVED_BY_MAX_DELAY_MS - 1) });
    expect(countableNow(toggled, NOW, costs.searchLagMs)).toBe(false);
    expect(planFlush([toggled], NOW, costs)).toEqual([]);
  });

  test("once the window since its last count has passed, its coalesced marks are counted together", () => {
    const toggled = dirty(1, { pendingSaves: 1_000, bound: 500, countedAt: ago(SAVED_BY_MAX_DELAY_MS) });
    expect(planFlush([toggled], NOW, costs)).toEqual([toggled]);
  });

  test("a product that needs no count, or was never counted, is not held back", () => {
    const small = dirty(1, { bound: 1, countedAt: ago(1_000) });
    const fresh = dirty(2, { pendingSaves: 100 });
    expect(countableNow(small, NOW, costs.searchLagMs)).toBe(true);
    expect(countableNow(fresh, NOW, costs.searchLagMs)).toBe(true);
  });

  test("the window follows the search lag when it is longer", () => {
    const lag = SAVED_BY_MAX_DELAY_MS * 2;
    const toggled = dirty(1, { pendingSaves: 1_000, bound: 500, countedAt: ago(SAVED_BY_MAX_DELAY_MS + 1) });
    expect(countableNow(toggled, NOW, lag)).toBe(false);
  });
});
