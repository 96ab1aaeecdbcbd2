// The setup page's storage section: each of the app's metaobject definitions against the
// platform's entry cap (here a test-sized one, the app's METAOBJECT_ENTRY_CAP and the emulator's
// alike), a warning from 80% and a critical banner at the cap.
import { describe, expect, test, vi } from "vitest";
import { loader as setupLoader } from "~/routes/app.setup";
import { storageLevel } from "~/services/merchant-pages/storage-usage.server";
import { loadAdmin } from "../support/admin";
import { callProxy, givenShop } from "../support/app";
import { aSaveRequest } from "../support/fixtures";
import { emulator } from "../support/platform";

const CAP = 10;
// Before any app module reads its configuration.
vi.hoisted(() => {
  process.env.METAOBJECT_ENTRY_CAP = "10";
});

async function saveProducts(from: number, to: number) {
  const operations = [];
  for (let id = from; id <= to; id++) {
    operations.push({ action: "save", ...aSaveRequest({ entityGid: `gid://shopify/Product/${id}` }) });
  }
  const { body } = await callProxy("/proxy/api/batch", { body: { operations } });
  return body.data;
}

const record = (name: string, used: number, level: string) => ({
  name,
  used,
  cap: CAP,
  percentUsed: (used / CAP) * 100,
  level,
});

describe("the setup page's storage", () => {
  test("shows each definition's entries against the cap in one request, warns from 80% and is critical at the cap", async () => {
    const shop = await givenShop({ plan: "pro", metaobjectEntryCap: CAP });
    expect((await loadAdmin(setupLoader, "/app/setup", shop)).storage).toEqual([
      record("Saved items", 0, "ok"),
      record("Lists", 0, "ok"),
      record("List directories", 0, "ok"),
      record("Insights records", 0, "ok"),
    ]);

    expect((await saveProducts(1, 8)).succeeded).toBe(8);
    emulator.clearRequests();
    const warned = await loadAdmin(setupLoader, "/app/setup", shop);
    expect(warned.storage?.slice(0, 2)).toEqual([record("Saved items", 8, "warning"), record("Lists", 1, "ok")]);
    expect(emulator.requests.filter((request) => request.operationName === "SavedItemsStorageUsage")).toHaveLength(1);

    // Past the cap a save is refused. (The banners' words: tools/admin-screenshots/screenshot-admin.ts shows them in Chromium.)
    const { results } = await saveProducts(9, 11);
    expect(results.map((result: { ok: boolean; code?: string }) => result.code ?? "ok")).toEqual([
      "ok",
      "ok",
      "PLAN_LIMIT_REACHED",
    ]);
    expect((await loadAdmin(setupLoader, "/app/setup", shop)).storage?.[0]).toEqual(record("Saved items", 10, "full"));
  });

  test("a page the platform cannot count for still serves, saying so", async () => {
    const shop = await givenShop({ plan: "pro", metaobjectEntryCap: CAP });
    emulator.injectFault({ kind: "http500", api: "admin", operationName: "SavedItemsStorageUsage", times: 5 });
    const setup = await loadAdmin(setupLoader, "/app/setup", shop);
    expect(setup.storage).toBeNull();
    expect(setup.themeEditorUrl).toEqual(expect.any(String));
  });

  test.each([
    [0, "ok"],
    [7_999, "ok"],
    [8_000, "warning"],
    [9_999, "warning"],
    [10_000, "full"],
    [10_001, "full"],
  ])("%i entries of 10,000 are %s", (used, level) => {
    expect(storageLevel(used, 10_000)).toBe(level);
  });
});
