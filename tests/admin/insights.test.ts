import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import type { InsightsActionResult } from "~/edge/admin-insights.server";
import { clock } from "~/lib/clock";
import { loader as exportLoader } from "~/routes/app.insights-export";
import { action, loader } from "~/routes/app.insights";
import { HISTORY_DAYS, LISTS_BUCKETS, TOP_ENTRIES } from "~/services/insights/aggregate";
import { TEST_ENV } from "../support/test-env";
import { seedSavedItems, type GeneratedItem, type GeneratedShop } from "@saved-items/sandbox/saved-items-seed";
import { loadAdmin } from "../support/admin";
import { withAdminSession } from "../support/session-token";
import { APP_URL, callProxy, givenShop } from "../support/app";
import { aSaveRequest, anIdentity } from "../support/fixtures";
import { emulator } from "../support/platform";

const NOW = new Date("2026-11-20T15:30:00Z");
const DAY_MS = 24 * 60 * 60 * 1000;
const ITEMS = 10_500;

let shop: string;
let seeded: GeneratedShop;

beforeEach(async () => {
  vi.spyOn(clock, "now").mockReturnValue(NOW);
  shop = await givenShop({ plan: "pro" });
  seeded = seedSavedItems(emulator, shop, { count: ITEMS, customers: 900, products: 120 }, NOW);
});
afterEach(() => vi.restoreAllMocks());

/** A fetcher submission from the embedded admin: a form post with App Bridge's session token. */
async function post(fields: Record<string, string>, forShop = shop): Promise<InsightsActionResult> {
  const request = await withAdminSession(
    new Request(new URL("/app/insights", APP_URL), { method: "POST", body: new URLSearchParams(fields) }),
    { shop: forShop, apiKey: TEST_ENV.SHOPIFY_API_KEY, apiSecret: TEST_ENV.SHOPIFY_API_SECRET },
    "bearer",
  );
  return action({ request, params: {}, context: {} });
}

async function runToCompletion(
  intent: "refresh" | "export",
  forShop = shop,
): Promise<InsightsActionResult & { ok: true }> {
  let result = await post({ intent }, forShop);
  for (let polls = 0; result.ok && !result.done && polls < 10; polls++) {
    result = await post({ intent: `${intent}-progress`, operation: result.operation }, forShop);
  }
  if (!result.ok) throw new Error(`${intent} failed: ${result.message}`);
  return result;
}

/** The figures recomputed from the seed directly, the way docs/insights.md defines them. */
function expectedFigures(items: GeneratedItem[]) {
  const active = items.filter((item) => item.status === "active");
  const count = (list: GeneratedItem[], type: string) => {
    const counts = new Map<string, number>();
    for (const item of list)
      if (item.entityType === type) counts.set(item.entityGid, (counts.get(item.entityGid) ?? 0) + 1);
    return [...counts]
      .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
      .slice(0, TOP_ENTRIES)
      .map(([gid, saves]) => ({ gid, saves }));
  };
  const ageOf = (item: GeneratedItem) => NOW.getTime() - Date.parse(item.savedAt);
  const day = (offset: number) => new Date(NOW.getTime() - offset * DAY_MS).toISOString().slice(0, 10);
  const lists = new Map<string, Set<string>>();
  for (const item of active) lists.set(item.customerGid, (lists.get(item.customerGid) ?? new Set()).add(item.context));
  const listCounts = [...lists.values()].map((contexts) => contexts.size);
  return {
    totalItems: items.length,
    activeItems: active.length,
    activeShoppers: new Set(active.map((item) => item.customerGid)).size,
    listsPerShopper: {
      average: listCounts.reduce((sum, n) => sum + n, 0) / listCounts.length,
      distribution: Array.from({ length: LISTS_BUCKETS }, (_, index) => ({
        lists: index + 1,
        shoppers: listCounts.filter((n) => Math.min(n, LISTS_BUCKETS) === index + 1).length,
      })),
    },
    savesPerDay: Array.from({ length: HISTORY_DAYS }, (_, index) => {
      const date = day(HISTORY_DAYS - 1 - index);
      return { date, saves: items.filter((item) => item.savedAt.slice(0, 10) === date).length };
    }),
    topProducts: count(active, "product"),
    topVariants: count(active, "variant"),
    thisWeek: items.filter((item) => ageOf(item) < 7 * DAY_MS).length,
    lastWeek: items.filter((item) => ageOf(item) >= 7 * DAY_MS && ageOf(item) < 14 * DAY_MS).length,
  };
}

describe("Insights page", () => {
  test("before any refresh: an empty state, a refresh allowed, and no catalogue request", async () => {
    const page = await loadAdmin(loader, "/app/insights", shop);
    expect(page).toEqual({
      summary: null,
      catalogue: {},
      refresh: { operation: null, startedAt: null, nextAllowedAt: null, allowed: true },
    });
  });

  test(`a refresh over ${ITEMS.toLocaleString("en-US")} seeded items runs as one bulk operation, and the figures match the seed`, async () => {
    expect(seeded.items.length).toBeGreaterThanOrEqual(10_000);
    emulator.clearRequests();
    const pointsBefore = emulator.usage(shop).actualPoints;
    const done = await runToCompletion("refresh");
    // docs/insights.md states the platform cost of a refresh; the emulator prices as the platform does.
    const refreshPoints = emulator.usage(shop).actualPoints - pointsBefore;
    console.log(`refresh of ${seeded.items.length} items: ${refreshPoints} points`);
    expect(refreshPoints).toBeLessThanOrEqual(50);
    expect(done).toMatchObject({ kind: "refresh", status: "COMPLETED", objectCount: seeded.items.length, done: true });
    const operations = emulator.requests.map((request) => request.operationName);
    expect(operations.filter((name) => name === "SavedItemsRunBulkQuery")).toHaveLength(1);

    const pagePointsBefore = emulator.usage(shop).actualPoints;
    const page = await loadAdmin(loader, "/app/insights", shop);
    console.log(`page view: ${emulator.usage(shop).actualPoints - pagePointsBefore} points`);
    const expected = expectedFigures(seeded.items);
    const { summary } = page;
    expect(summary).toMatchObject({
      computedAt: NOW.toISOString(),
      operation: done.operation,
      totalItems: expected.totalItems,
      activeItems: expected.activeItems,
      activeShoppers: expected.activeShoppers,
      savesPerDay: expected.savesPerDay,
      topProducts: expected.topProducts,
      topVariants: expected.topVariants,
      week: { thisWeek: expected.thisWeek, lastWeek: expected.lastWeek },
      listsPerShopper: expected.listsPerShopper,
    });
    // The seed's shoppers keep up to two lists: the distribution is not trivially one bucket.
    expect(expected.listsPerShopper.distribution[1]!.shoppers).toBeGreaterThan(0);
    expect(summary!.topProducts[0]!.saves).toBeGreaterThan(summary!.topProducts.at(-1)!.saves);

    // Current price and availability of what the page names, from the catalogue.
    for (const { gid } of [...summary!.topProducts, ...summary!.topVariants]) {
      const product = seeded.products.find((each) => each.id === gid || each.variants.some((v) => v.id === gid))!;
      const variant = product.variants.find((each) => each.id === gid);
      expect(page.catalogue[gid]).toEqual({
        gid,
        title: variant ? `${product.title} - ${variant.title}` : product.title,
        price: variant ? variant.price : Math.min(...product.variants.map((v) => Number(v.price))).toFixed(2),
        currencyCode: "USD",
        available: variant ? variant.availableForSale : product.totalInventory > 0,
      });
    }
    expect(page.refresh).toEqual({
      operation: done.operation,
      startedAt: NOW.toISOString(),
      nextAllowedAt: new Date(NOW.getTime() + 6 * 60 * 60 * 1000).toISOString(),
      allowed: false,
    });
  });

  test("a shop without saved items: the refresh finishes with zero figures (the platform gives no file)", async () => {
    const empty = await givenShop({ domain: "no-saves.myshopify.com", plan: "free" });
    expect(await runToCompletion("refresh", empty)).toMatchObject({ objectCount: 0, done: true });
    const { summary, catalogue } = await loadAdmin(loader, "/app/insights", empty);
    expect(summary).toMatchObject({
      totalItems: 0,
      activeItems: 0,
      activeShoppers: 0,
      topProducts: [],
      topVariants: [],
    });
    expect(summary!.savesPerDay.every((day) => day.saves === 0)).toBe(true);
    expect(catalogue).toEqual({});
  });

  test("lists per shopper and save-for-later moves: a save into saved-for-later is a move, its removal a move back", async () => {
    const moves = await givenShop({ domain: "moves.myshopify.com", plan: "pro" });
    const write = async (operation: "save" | "remove", customerId: string, context: string, id: number) => {
      const entity = { context, entityGid: `gid://shopify/Product/${id}` };
      const body = operation === "save" ? aSaveRequest(entity) : anIdentity(entity);
      expect((await callProxy(`/proxy/api/${operation}`, { shop: moves, customerId, body })).status).toBe(200);
    };
    await write("save", "3001", "saved-for-later", 1); // a move, still waiting
    await write("save", "3001", "wishlist", 2);
    await write("save", "3002", "saved-for-later", 1); // a move ...
    await write("remove", "3002", "saved-for-later", 1); // ... and its move back
    await write("save", "3002", "wishlist", 3);
    await write("save", "3003", "wishlist", 3);
    await runToCompletion("refresh", moves);
    const { summary } = await loadAdmin(loader, "/app/insights", moves);
    expect(summary!.saveForLater).toEqual({ moves: 2, movedBack: 1, waiting: 1 });
    expect(summary!.listsPerShopper).toEqual({
      average: 4 / 3,
      distribution: [
        { lists: 1, shoppers: 2 },
        { lists: 2, shoppers: 1 },
        { lists: 3, shoppers: 0 },
        { lists: 4, shoppers: 0 },
      ],
    });
  });

  test("at most one refresh per shop in six hours", async () => {
    await runToCompletion("refresh");
    expect(await post({ intent: "refresh" })).toMatchObject({ ok: false, code: "RATE_LIMITED" });
    vi.spyOn(clock, "now").mockReturnValue(new Date(NOW.getTime() + 6 * 60 * 60 * 1000));
    expect(await post({ intent: "refresh" })).toMatchObject({ ok: true, kind: "refresh" });
  });

  test("only the shop's current refresh can be finished into figures, not an export's operation", async () => {
    const exported = await runToCompletion("export");
    expect(await post({ intent: "refresh-progress", operation: exported.operation })).toMatchObject({
      ok: false,
      code: "NOT_FOUND",
    });
  });

  test("two refreshes started at once start one bulk operation", async () => {
    emulator.clearRequests();
    const results = await Promise.all([post({ intent: "refresh" }), post({ intent: "refresh" })]);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results.find((result) => !result.ok)).toMatchObject({ code: "RATE_LIMITED" });
    expect(emulator.requests.filter((request) => request.operationName === "SavedItemsRunBulkQuery")).toHaveLength(1);
  });

  test("an action with an unknown intent or a malformed operation id is refused", async () => {
    expect(await post({ intent: "drop-tables" })).toMatchObject({ ok: false, code: "VALIDATION_ERROR" });
    expect(await post({ intent: "export-progress", operation: "gid://shopify/Product/1" })).toMatchObject({
      ok: false,
      code: "VALIDATION_ERROR",
    });
  });
});

describe("CSV export", () => {
  test("every active saved item of the seed, one row each, produced from the bulk operation's result", async () => {
    const done = await runToCompletion("export");
    const active = seeded.items.filter((item) => item.status === "active");
    expect(done).toMatchObject({ kind: "export", status: "COMPLETED", objectCount: active.length });

    const response = await loadAdmin(exportLoader, `/app/insights-export?operation=${done.operation}`, shop);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    const [header, ...rows] = (await response.text()).trimEnd().split("\r\n");
    expect(header).toBe("customer_gid,list_context,entity_type,entity_gid,saved_at");
    const expected = active.map((item) =>
      [item.customerGid, item.context, item.entityType, item.entityGid, item.savedAt].join(","),
    );
    expect(rows.sort()).toEqual(expected.sort());
  });

  test("an export that is not finished is not downloadable", async () => {
    emulator.setBulkOperationDuration(60_000);
    try {
      const started = await post({ intent: "export" });
      expect(started).toMatchObject({ ok: true, done: false });
      const response = await loadAdmin(
        exportLoader,
        `/app/insights-export?operation=${(started as { operation: string }).operation}`,
        shop,
      );
      expect(response.status).toBe(400);
    } finally {
      emulator.setBulkOperationDuration(0);
    }
  });
});
