// Share links of deleted lists (issue 42, item 2): a list that is deleted, or was never made, cannot
// be shared, and once delete-list has answered no link of that list opens, whatever ran beside it.
import { describe, expect, test } from "vitest";
import { listHandle } from "~/services/saved-items/handles.server";
import { shareTokenHash } from "~/services/saved-items/sharing.server";
import { DEMO_SHOP } from "../support/app";
import { CUSTOMER, OTHER_CUSTOMER, aServiceToken, callDirect, givenDirectShop } from "../support/direct";
import { aSaveRequest } from "../support/fixtures";
import { emulator } from "../support/platform";

async function headless(path: string, body?: unknown, query?: Record<string, string>, customerGid = CUSTOMER.id) {
  const token = await aServiceToken({ customerGid });
  return callDirect(`/api/headless/${path}`, { token, body, query });
}

/** A shared-list read by someone else of the shop, as anyone holding the link reads it. */
const openLink = (token: string) => headless("shared-list", undefined, { token }, OTHER_CUSTOMER.id);

async function givenListWithItem(context: string) {
  expect((await headless("create-list", { context, name: context })).status).toBe(200);
  expect((await headless("save", aSaveRequest({ context }))).status).toBe(200);
}

const NOT_FOUND = { status: 404, body: { ok: false, error: { code: "NOT_FOUND" } } };

describe("a list that does not exist cannot be shared", () => {
  test("delete-list, then share-create of the same context: NOT_FOUND, and no link is stored", async () => {
    await givenDirectShop();
    await givenListWithItem("alpha");
    expect((await headless("delete-list", { context: "alpha" })).status).toBe(200);
    expect(await headless("share-create", { context: "alpha", displayName: "Ana" })).toMatchObject(NOT_FOUND);
    const [list] = emulator.metaobjects(DEMO_SHOP, "$app:save_list");
    expect(list!.fields.share_token_hash ?? "").toBe("");
  });

  test("share-create of a context the shopper never made: NOT_FOUND", async () => {
    await givenDirectShop();
    await givenListWithItem("alpha");
    expect(await headless("share-create", { context: "never-made" })).toMatchObject(NOT_FOUND);
  });

  test("share-revoke of a deleted list: NOT_FOUND, as for a list never made", async () => {
    await givenDirectShop();
    await givenListWithItem("alpha");
    expect((await headless("share-create", { context: "alpha" })).status).toBe(200);
    expect((await headless("delete-list", { context: "alpha" })).status).toBe(200);
    expect(await headless("share-revoke", { context: "alpha" })).toMatchObject(NOT_FOUND);
    expect(await headless("share-revoke", { context: "never-made" })).toMatchObject(NOT_FOUND);
  });

  test("a list made again after its deletion can be shared again", async () => {
    await givenDirectShop();
    await givenListWithItem("alpha");
    expect((await headless("delete-list", { context: "alpha" })).status).toBe(200);
    await givenListWithItem("alpha");
    const created = await headless("share-create", { context: "alpha" });
    expect(created.status).toBe(200);
    expect((await openLink(created.body.data.token)).body.data.items).toHaveLength(1);
  });
});

describe("after delete-list, no link of the list opens", () => {
  test("share-create, delete-list, then shared-list with the old token: NOT_FOUND", async () => {
    await givenDirectShop();
    await givenListWithItem("alpha");
    const { token } = (await headless("share-create", { context: "alpha" })).body.data;
    expect((await headless("delete-list", { context: "alpha" })).status).toBe(200);
    expect(await openLink(token)).toMatchObject(NOT_FOUND);
  });

  test("a link left on a deleted list (by a share that raced an older delete) opens nothing", async () => {
    await givenDirectShop();
    const token = "C".repeat(43);
    emulator.importMetaobjects(DEMO_SHOP, "$app:save_list", [
      {
        handle: listHandle(CUSTOMER.id, "alpha"),
        fields: {
          customer_id: CUSTOMER.id,
          context: "alpha",
          deleted_at: "2026-01-01T00:00:00Z",
          active_items: "[]",
          share_token_hash: shareTokenHash(token),
        },
      },
    ]);
    expect(await openLink(token)).toMatchObject(NOT_FOUND);
  });

  test.each([
    ["with an item", 1],
    // No item removed: only the shop's share version tells the cache.
    ["empty", 0],
  ])("a shared page cached before the delete is not served after it (list %s)", async (_, items) => {
    await givenDirectShop();
    expect((await headless("create-list", { context: "alpha", name: "Alpha" })).status).toBe(200);
    if (items > 0) expect((await headless("save", aSaveRequest({ context: "alpha" }))).status).toBe(200);
    const { token } = (await headless("share-create", { context: "alpha" })).body.data;
    expect((await openLink(token)).body.data.items).toHaveLength(items);
    const reads = emulator.requests.length;
    // The second open is the cache's: it asks the platform nothing.
    expect((await openLink(token)).body.data.items).toHaveLength(items);
    expect(emulator.requests.length).toBe(reads);
    expect((await headless("delete-list", { context: "alpha" })).status).toBe(200);
    expect(await openLink(token)).toMatchObject(NOT_FOUND);
  });

  test("a share-create whose write reaches the platform late is answered before delete-list starts its own", async () => {
    await givenDirectShop();
    await givenListWithItem("alpha");
    await givenListWithItem("beta");
    const beta = (await headless("share-create", { context: "beta" })).body.data.token;
    // The share's write is slow: without the list's lock, delete-list would run to its end in
    // the meantime, and the share's write would then put a live link on the deleted list.
    const shareWrites = () => emulator.requests.filter((request) => request.operationName === "SavedItemsShareUpdate");
    const before = shareWrites().length;
    emulator.injectFault({ kind: "delay", api: "admin", operationName: "SavedItemsShareUpdate", delayMs: 300 });
    const sharing = headless("share-create", { context: "alpha" });
    await until(() => shareWrites().length > before);
    const deleted = await headless("delete-list", { context: "alpha" });
    expect(deleted.status).toBe(200);
    const shared = await sharing;
    expect(shared.status).toBe(200);
    expect(await openLink(shared.body.data.token)).toMatchObject(NOT_FOUND);
    // Nor does it open the list made again under the same key.
    await givenListWithItem("alpha");
    expect(await openLink(shared.body.data.token)).toMatchObject(NOT_FOUND);
    // The list the shopper did not name is untouched.
    expect((await openLink(beta)).body.data.items).toHaveLength(1);
  });
});

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}
