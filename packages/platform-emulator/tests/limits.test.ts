// The platform's limits on stored data (src/limits.ts), each shown biting: the entry cap per
// metaobject definition and the value sizes of metaobject fields and metafieldsSet.
import { setupServer } from "msw/node";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createPlatformEmulator } from "../src/index";
import { adminUrl, postAdmin, TEST_SHOP } from "../src/testing";

const TOKEN = "shpat_limits";
const CAP = 3;
const SAVE_ITEM = "$app:save_item";
const SAVE_LIST = "$app:save_list";

const emulator = createPlatformEmulator({ metaobjectEntryCap: CAP });
const server = setupServer(...emulator.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());
beforeEach(() => {
  emulator.reset();
  emulator.addShop({ domain: TEST_SHOP, adminAccessToken: TOKEN });
});

const admin = async (query: string, variables?: Record<string, unknown>, shop = TEST_SHOP) =>
  (await postAdmin(adminUrl(shop), TOKEN, query, variables)).body;

const itemFields = (handle: string, overrides: Record<string, string> = {}) =>
  Object.entries({
    list_key: "list-1",
    customer_id: "gid://shopify/Customer/1",
    context: "default",
    entity_type: "product",
    entity_gid: `gid://shopify/Product/${handle.length}`,
    status: "active",
    saved_at: "2026-10-01T00:00:00Z",
    ...overrides,
  }).map(([key, value]) => ({ key, value }));

const UPSERT = `mutation Upsert($handle: MetaobjectHandleInput!, $metaobject: MetaobjectUpsertInput!) {
  metaobjectUpsert(handle: $handle, metaobject: $metaobject) {
    metaobject { id handle field(key: "status") { value } }
    userErrors { field message code }
  }
}`;

const CREATE = `mutation Create($metaobject: MetaobjectCreateInput!) {
  metaobjectCreate(metaobject: $metaobject) { metaobject { id } userErrors { field message code } }
}`;

const upsertItem = (handle: string, overrides: Record<string, string> = {}, shop = TEST_SHOP) =>
  admin(
    UPSERT,
    { handle: { type: SAVE_ITEM, handle }, metaobject: { fields: itemFields(handle, overrides) } },
    shop,
  ).then((body) => body.data.metaobjectUpsert);

const COUNTS = `{
  items: metaobjectDefinitionByType(type: "${SAVE_ITEM}") { metaobjectsCount }
  lists: metaobjectDefinitionByType(type: "${SAVE_LIST}") { metaobjectsCount }
}`;

const REFUSED_FOR_CAP = {
  metaobject: null,
  userErrors: [
    {
      field: null,
      message: "The maximum number of metaobjects per shop has been exceeded",
      code: "MAX_OBJECTS_EXCEEDED",
    },
  ],
};

describe("the entry cap per metaobject definition", () => {
  beforeEach(async () => {
    for (const handle of ["a", "bb", "ccc"]) expect((await upsertItem(handle)).userErrors).toEqual([]);
  });

  it("refuses a create past the cap, by metaobjectCreate or by an upsert that would create, and writes nothing", async () => {
    const created = await admin(CREATE, {
      metaobject: { type: SAVE_ITEM, handle: "dddd", fields: itemFields("dddd") },
    });
    expect(created.data.metaobjectCreate).toEqual(REFUSED_FOR_CAP);
    expect(await upsertItem("eeeee")).toEqual(REFUSED_FOR_CAP);
    expect(emulator.metaobjects(TEST_SHOP, SAVE_ITEM).map((entry) => entry.handle)).toEqual(["a", "bb", "ccc"]);
  });

  it("still updates existing entries at the cap, counts per definition, and serves metaobjectsCount", async () => {
    expect(await upsertItem("a", { status: "removed" })).toMatchObject({
      metaobject: { handle: "a", field: { value: "removed" } },
      userErrors: [],
    });
    // Another definition has its own cap.
    const list = await admin(UPSERT, {
      handle: { type: SAVE_LIST, handle: "list-1" },
      metaobject: {
        fields: [
          { key: "customer_id", value: "gid://shopify/Customer/1" },
          { key: "context", value: "default" },
        ],
      },
    });
    expect(list.data.metaobjectUpsert.userErrors).toEqual([]);
    expect((await admin(COUNTS)).data).toEqual({ items: { metaobjectsCount: 3 }, lists: { metaobjectsCount: 1 } });
  });

  it("refuses each aliased create past the cap in one document while the others apply", async () => {
    await admin(
      `mutation { metaobjectDelete(id: "${emulator.metaobjects(TEST_SHOP, SAVE_ITEM)[0]!.id}") { deletedId } }`,
    );
    const body = await admin(
      `mutation Two($h0: MetaobjectHandleInput!, $w0: MetaobjectUpsertInput!, $h1: MetaobjectHandleInput!, $w1: MetaobjectUpsertInput!) {
        w0: metaobjectUpsert(handle: $h0, metaobject: $w0) { metaobject { handle } userErrors { code } }
        w1: metaobjectUpsert(handle: $h1, metaobject: $w1) { metaobject { handle } userErrors { code } }
      }`,
      {
        h0: { type: SAVE_ITEM, handle: "new-1" },
        w0: { fields: itemFields("new-1") },
        h1: { type: SAVE_ITEM, handle: "new-2" },
        w1: { fields: itemFields("new-2") },
      },
    );
    expect(body.data).toEqual({
      w0: { metaobject: { handle: "new-1" }, userErrors: [] },
      w1: { metaobject: null, userErrors: [{ code: "MAX_OBJECTS_EXCEEDED" }] },
    });
  });

  it("makes room again when entries are deleted, one by one or in bulk", async () => {
    const [first] = emulator.metaobjects(TEST_SHOP, SAVE_ITEM);
    await admin(`mutation { metaobjectDelete(id: "${first!.id}") { deletedId } }`);
    expect((await upsertItem("dddd")).userErrors).toEqual([]);
    expect((await upsertItem("eeeee")).userErrors).toEqual([
      { field: null, message: expect.any(String), code: "MAX_OBJECTS_EXCEEDED" },
    ]);
    await admin(`mutation { metaobjectBulkDelete(where: { type: "${SAVE_ITEM}" }) { job { id } } }`);
    expect((await admin(COUNTS)).data.items).toEqual({ metaobjectsCount: 0 });
    expect((await upsertItem("eeeee")).userErrors).toEqual([]);
  });

  it("takes a shop's own cap from its seed, and refuses an import past the cap", async () => {
    emulator.addShop({ domain: "small.myshopify.com", adminAccessToken: TOKEN, metaobjectEntryCap: 1 });
    expect((await upsertItem("a", {}, "small.myshopify.com")).userErrors).toEqual([]);
    expect((await upsertItem("bb", {}, "small.myshopify.com")).userErrors).toMatchObject([
      { code: "MAX_OBJECTS_EXCEEDED" },
    ]);
    expect(() =>
      emulator.importMetaobjects(TEST_SHOP, SAVE_ITEM, [{ handle: "imported", fields: { status: "active" } }]),
    ).toThrow(/passes the cap of 3/);
  });
});

describe("value sizes", () => {
  // metafieldsSet needs an owner in the catalogue and the owner's write scope (access-scopes.ts).
  beforeEach(() => {
    emulator.addProducts(TEST_SHOP, [
      { id: "gid://shopify/Product/1", title: "Shoe", totalInventory: 1, variants: [] },
    ]);
    emulator.grantOptionalScopes(TEST_SHOP, ["write_products"]);
  });

  // A JSON string value of exactly `bytes` bytes.
  const jsonOf = (bytes: number) => JSON.stringify("x".repeat(bytes - 2));

  it("takes a json field of 128 KB and refuses one byte more, as INVALID_VALUE on the field", async () => {
    expect((await upsertItem("a", { snapshot: jsonOf(128 * 1024) })).userErrors).toEqual([]);
    const refused = await upsertItem("bb", { snapshot: jsonOf(128 * 1024 + 1) });
    expect(refused).toEqual({
      metaobject: null,
      userErrors: [
        { field: ["metaobject", "fields", "7"], message: expect.stringMatching(/too long/), code: "INVALID_VALUE" },
      ],
    });
    expect(emulator.metaobjects(TEST_SHOP, SAVE_ITEM).map((entry) => entry.handle)).toEqual(["a"]);
  });

  const SET = `mutation Set($metafields: [MetafieldsSetInput!]!) {
    metafieldsSet(metafields: $metafields) { metafields { key } userErrors { field message code } }
  }`;
  const metafield = (type: string, value: string) => ({
    ownerId: "gid://shopify/Product/1",
    namespace: "custom",
    key: type.replaceAll(".", "_"),
    type,
    value,
  });
  const listOf = (count: number, item: (index: number) => string) =>
    JSON.stringify(Array.from({ length: count }, (_, index) => item(index)));
  const reference = (index: number) => `gid://shopify/Metaobject/${index + 1}`;

  it.each([
    ["json", jsonOf(128 * 1024), jsonOf(128 * 1024 + 1)],
    ["multi_line_text_field", "x".repeat(65_536), "x".repeat(65_537)],
    ["url", `https://example.com/${"x".repeat(2048 - 20)}`, `https://example.com/${"x".repeat(2048 - 19)}`],
    ["list.single_line_text_field", listOf(128, String), listOf(129, String)],
    ["list.metaobject_reference", listOf(256, reference), listOf(257, reference)],
    ["list.multi_line_text_field", listOf(2, () => "x".repeat(65_536)), listOf(2, () => "x".repeat(65_537))],
  ])("metafieldsSet takes a %s at its limit and refuses the whole call past it", async (type, fits, tooBig) => {
    expect((await admin(SET, { metafields: [metafield(type, fits)] })).data.metafieldsSet.userErrors).toEqual([]);
    const refused = await admin(SET, {
      metafields: [{ ...metafield("number_integer", "1"), key: "other" }, metafield(type, tooBig)],
    });
    expect(refused.data.metafieldsSet).toEqual({
      metafields: null,
      userErrors: [{ field: ["metafields", "1", "value"], message: expect.any(String), code: "INVALID_VALUE" }],
    });
    expect(emulator.metafields(TEST_SHOP).map((entry) => entry.key)).toEqual([metafield(type, fits).key]);
  });
});
