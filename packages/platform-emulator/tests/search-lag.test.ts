import { setupServer } from "msw/node";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createPlatformEmulator } from "../src/index";
import { adminUrl, postAdmin, TEST_SHOP } from "../src/testing";

const TOKEN = "shpat_search";
const SAVE_ITEM = "$app:save_item";
let clockMs = Date.parse("2026-10-01T00:00:00Z");
const emulator = createPlatformEmulator({ now: () => new Date(clockMs) });
const server = setupServer(...emulator.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());
beforeEach(() => {
  emulator.reset();
  emulator.addShop({ domain: TEST_SHOP, adminAccessToken: TOKEN });
});

const admin = (query: string, variables?: Record<string, unknown>) => postAdmin(adminUrl(), TOKEN, query, variables);

async function upsert(handle: string, status: string): Promise<string> {
  const fields = Object.entries({
    list_key: "list-1",
    customer_id: "gid://shopify/Customer/1",
    context: "default",
    entity_type: "product",
    entity_gid: `gid://shopify/Product/${handle}`,
    status,
    saved_at: "2026-10-01T00:00:00Z",
  }).map(([key, value]) => ({ key, value }));
  const { body } = await admin(
    `mutation U($handle: MetaobjectHandleInput!, $metaobject: MetaobjectUpsertInput!) {
      metaobjectUpsert(handle: $handle, metaobject: $metaobject) { metaobject { id } userErrors { code } } }`,
    { handle: { type: SAVE_ITEM, handle }, metaobject: { fields } },
  );
  return body.data.metaobjectUpsert.metaobject.id as string;
}

async function search(query: string): Promise<{ handle: string; status: string }[]> {
  const { body } = await admin(
    `query S($query: String) { metaobjects(type: "${SAVE_ITEM}", first: 10, query: $query) {
      nodes { handle status: field(key: "status") { value } } } }`,
    { query },
  );
  return body.data.metaobjects.nodes.map((node: { handle: string; status: { value: string } }) => ({
    handle: node.handle,
    status: node.status.value,
  }));
}

describe("search index lag", () => {
  it("is off by default: a search sees a write at once", async () => {
    await upsert("a", "active");
    expect(await search("fields.status:active")).toEqual([{ handle: "a", status: "active" }]);
  });

  it("shows a new entry to searches only after the lag, while lookups see it at once", async () => {
    emulator.setSearchLag(1000);
    const id = await upsert("a", "active");
    expect(await search("fields.status:active")).toEqual([]);

    const lookups = await admin(
      `query L($id: ID!) {
      byHandle: metaobjectByHandle(handle: {type: "${SAVE_ITEM}", handle: "a"}) { id }
      byId: metaobject(id: $id) { handle }
      unfiltered: metaobjects(type: "${SAVE_ITEM}", first: 10) { nodes { handle } } }`,
      { id },
    );
    expect(lookups.body.data).toEqual({
      byHandle: { id },
      byId: { handle: "a" },
      unfiltered: { nodes: [{ handle: "a" }] },
    });

    clockMs += 999;
    expect(await search("fields.status:active")).toEqual([]);
    clockMs += 1;
    expect(await search("fields.status:active")).toEqual([{ handle: "a", status: "active" }]);
  });

  it("matches on the old values until an update shows, and returns the entry as it is now", async () => {
    emulator.setSearchLag(1000);
    await upsert("a", "active");
    clockMs += 1000;
    await upsert("a", "removed");
    expect(await search("fields.status:active")).toEqual([{ handle: "a", status: "removed" }]);
    expect(await search("fields.status:removed")).toEqual([]);
    clockMs += 1000;
    expect(await search("fields.status:active")).toEqual([]);
    expect(await search("fields.status:removed")).toEqual([{ handle: "a", status: "removed" }]);
  });

  it("drops a deleted entry from the nodes even while the index still has it", async () => {
    emulator.setSearchLag(1000);
    const id = await upsert("a", "active");
    await upsert("b", "active");
    clockMs += 1000;
    await admin(`mutation D($id: ID!) { metaobjectDelete(id: $id) { deletedId } }`, { id });
    expect(await search("fields.status:active")).toEqual([{ handle: "b", status: "active" }]);
    clockMs += 1000;
    expect(await search("fields.status:active")).toEqual([{ handle: "b", status: "active" }]);
  });

  it("applies to each write with the lag in force when it was made, and reset turns it off", async () => {
    emulator.setSearchLag(5000);
    await upsert("slow", "active");
    emulator.setSearchLag(0);
    await upsert("fast", "active");
    expect(await search("fields.status:active")).toEqual([{ handle: "fast", status: "active" }]);
    emulator.reset();
    emulator.addShop({ domain: TEST_SHOP, adminAccessToken: TOKEN });
    await upsert("after-reset", "active");
    expect(await search("fields.status:active")).toEqual([{ handle: "after-reset", status: "active" }]);
  });
});
