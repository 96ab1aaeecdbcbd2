// A shop at the platform's entry cap per metaobject definition (shopify.dev "Metaobject limits"),
// emulated at a test size: reads go on, saves that would create an entry answer a documented
// error, nothing already saved changes, and deleting entries makes room again.
import { afterEach, describe, expect, test, vi } from "vitest";
import { postAdmin } from "@saved-items/platform-emulator/testing";
import { clearProcessCaches } from "~/lib/process-caches.server";
import { ADMIN_API_VERSION } from "~/platform/api-versions";
import { callProxy, DEMO_SHOP, givenShop } from "../support/app";
import { aSaveRequest } from "../support/fixtures";
import { emulator } from "../support/platform";
import { warningsContaining } from "../support/logs";

afterEach(() => vi.restoreAllMocks());

const save = (id: number, path = "/proxy/api/save", context = "wishlist") =>
  callProxy(path, { body: aSaveRequest({ context, entityGid: `gid://shopify/Product/${id}` }) });

/** What the platform holds of the shop's saved items and lists, writes' timestamps aside. */
const stored = () =>
  emulator
    .metaobjects(DEMO_SHOP)
    .map(({ type, handle, fields }) => ({ type: type.split("--").at(-1), handle, fields }));

const listedProducts = async () => {
  const { status, body } = await callProxy("/proxy/api/list", { query: { context: "wishlist" } });
  expect(status).toBe(200);
  return body.data.items.map((item: { entityGid: string }) => item.entityGid).sort();
};

const isSaved = async (id: number) =>
  (await callProxy("/proxy/api/is-saved", { query: { ...identity(id) } })).body.data.saved;
const identity = (id: number) => ({
  context: "wishlist",
  entityType: "product",
  entityGid: `gid://shopify/Product/${id}`,
});

const STORAGE_FULL = {
  ok: false,
  error: { code: "PLAN_LIMIT_REACHED", message: expect.stringMatching(/storage is full/), retryable: false },
};

async function deleteEntry(handle: string) {
  const entry = emulator.metaobjects(DEMO_SHOP).find((candidate) => candidate.handle === handle)!;
  const token = emulator.adminCredentials(DEMO_SHOP)!.accessToken;
  const url = `https://${DEMO_SHOP}/admin/api/${ADMIN_API_VERSION}/graphql.json`;
  const { body } = await postAdmin(url, token, `mutation { metaobjectDelete(id: "${entry.id}") { deletedId } }`);
  expect(body.data.metaobjectDelete.deletedId).toBe(entry.id);
}

describe("a shop at the entry cap", () => {
  test("serves reads, refuses new saves as storage full, keeps what is saved exact, and saves again once entries go", async () => {
    await givenShop({ plan: "pro", metaobjectEntryCap: 3 });
    for (const id of [1, 2, 3]) expect((await save(id)).status).toBe(200);
    const before = stored();
    const warnings = warningsContaining("entry cap");

    expect(await save(4)).toEqual({ status: 402, body: STORAGE_FULL });
    expect(await save(5, "/proxy/api/toggle")).toEqual({ status: 402, body: STORAGE_FULL });
    const batch = await callProxy("/proxy/api/batch", {
      body: {
        operations: [6, 1].map((id) => ({
          action: "save",
          ...aSaveRequest({ entityGid: `gid://shopify/Product/${id}` }),
        })),
      },
    });
    expect(batch.body.data.results).toEqual([
      { ok: false, code: "PLAN_LIMIT_REACHED", message: expect.stringMatching(/storage is full/), retryable: false },
      { ok: false, code: "DUPLICATE_SAVE", message: expect.any(String), retryable: false },
    ]);
    // Nothing already saved changed: the items, and the list's index, which went to the platform
    // with each refused create, names exactly the saved items again.
    expect(stored()).toEqual(before);
    expect(warnings()).toHaveLength(1);

    // Reads go on, from the cache and from the platform alike.
    expect(await listedProducts()).toEqual([
      "gid://shopify/Product/1",
      "gid://shopify/Product/2",
      "gid://shopify/Product/3",
    ]);
    expect([await isSaved(1), await isSaved(4)]).toEqual([true, false]);
    clearProcessCaches();
    expect(await listedProducts()).toEqual([
      "gid://shopify/Product/1",
      "gid://shopify/Product/2",
      "gid://shopify/Product/3",
    ]);
    const lists = await callProxy("/proxy/api/lists");
    expect(lists.body.data.lists).toMatchObject([{ context: "wishlist", itemCount: 3 }]);

    // Updates are no creates: a removal and a save again of the same item go on at the cap.
    expect((await callProxy("/proxy/api/remove", { body: identity(3) })).status).toBe(200);
    expect((await save(3)).status).toBe(200);

    // A removed item is still an entry; once one is deleted (as retention does), there is room.
    expect((await callProxy("/proxy/api/remove", { body: identity(3) })).status).toBe(200);
    const removed = emulator.metaobjects(DEMO_SHOP, "$app:save_item").find((item) => item.fields.status === "removed")!;
    await deleteEntry(removed.handle);
    clearProcessCaches();
    expect((await save(4)).status).toBe(200);
    expect(await listedProducts()).toEqual([
      "gid://shopify/Product/1",
      "gid://shopify/Product/2",
      "gid://shopify/Product/4",
    ]);
  });

  test("a list that cannot be created leaves the customer's directory as it was", async () => {
    await givenShop({ plan: "pro", metaobjectEntryCap: 1 });
    expect((await callProxy("/proxy/api/create-list", { body: { name: "Gifts", context: "gifts" } })).status).toBe(200);
    const before = stored();

    const refused = await callProxy("/proxy/api/create-list", { body: { name: "Birthday", context: "birthday" } });
    expect(refused).toEqual({ status: 402, body: STORAGE_FULL });
    // A save to a new context: its list's create is refused, the save's item too (save_item is full after one).
    expect((await save(1, "/proxy/api/save", "gifts")).status).toBe(200);
    expect(await save(2, "/proxy/api/save", "other")).toEqual({ status: 402, body: STORAGE_FULL });
    expect(stored().filter((entry) => entry.type !== "save_item")).toEqual(
      before.map((entry) =>
        entry.type === "save_list" ? { ...entry, fields: expect.objectContaining({ context: "gifts" }) } : entry,
      ),
    );
    const lists = await callProxy("/proxy/api/lists");
    expect(lists.body.data.lists).toMatchObject([{ context: "gifts", name: "Gifts", itemCount: 1 }]);
  });
});
