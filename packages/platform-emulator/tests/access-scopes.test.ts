import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ROOT_FIELD_SCOPES } from "../src/access-scopes";
import { createPlatformEmulator } from "../src/index";
import { adminUrl, postAdmin, TEST_SHOP } from "../src/testing";

const TOKEN = "shpat_scopes";
const PRODUCT = "gid://shopify/Product/1";
const MADE_UP = "gid://shopify/Product/999";

/** An app whose TOML grants nothing at install and offers these optional scopes. */
function appToml(optional: string[]): string {
  const dir = mkdtempSync(path.join(tmpdir(), "emulator-scopes-"));
  mkdirSync(path.join(dir, "extensions"));
  const file = path.join(dir, "shopify.app.toml");
  writeFileSync(
    file,
    [
      `[access_scopes]`,
      `scopes = ""`,
      `optional_scopes = ${JSON.stringify(optional)}`,
      `[metaobjects.app.note]`,
      `name = "Note"`,
      `[metaobjects.app.note.fields.text]`,
      `type = "single_line_text_field"`,
      `[product.metafields.app.saved_by]`,
      `type = "number_integer"`,
    ].join("\n"),
  );
  return file;
}

const emulator = createPlatformEmulator({
  appTomlPath: appToml(["read_products", "write_products", "read_inventory", "read_metaobjects"]),
});
const server = setupServer(...emulator.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());
beforeEach(() => {
  emulator.reset();
  emulator.addShop({ domain: TEST_SHOP, adminAccessToken: TOKEN });
  emulator.addProducts(TEST_SHOP, [
    { id: PRODUCT, title: "Shoe", totalInventory: 1, variants: [] },
    { id: "gid://shopify/Product/2", title: "Hat", totalInventory: 1, variants: [] },
  ]);
});

const admin = (query: string, variables?: Record<string, unknown>) => postAdmin(adminUrl(), TOKEN, query, variables);

const SET = `mutation Set($metafields: [MetafieldsSetInput!]!) {
  metafieldsSet(metafields: $metafields) { metafields { key value } userErrors { field message code } }
}`;
const savedBy = (ownerId: string, value = "7") => ({
  ownerId,
  namespace: "$app",
  key: "saved_by",
  type: "number_integer",
  value,
});

const deniedFor = (field: string, scope: string) => ({
  message: `Access denied for ${field} field. Required access: \`${scope}\` access scope.`,
  locations: expect.any(Array),
  path: [field],
  extensions: {
    code: "ACCESS_DENIED",
    documentation: "https://shopify.dev/api/usage/access-scopes",
    requiredAccess: `\`${scope}\` access scope.`,
  },
});

describe("access scopes", () => {
  it("refuses metafieldsSet on a product without write_products, $app namespace or not, and writes nothing", async () => {
    const { body } = await admin(SET, { metafields: [savedBy(PRODUCT)] });
    expect(body.data).toEqual({ metafieldsSet: null });
    expect(body.errors).toEqual([deniedFor("metafieldsSet", "write_products")]);
    expect(emulator.metafields(TEST_SHOP)).toEqual([]);
    expect(emulator.schemaViolations).toEqual([]);
  });

  it("accepts it once the merchant grants write_products, and refuses it again after a revocation", async () => {
    emulator.grantOptionalScopes(TEST_SHOP, ["write_products"]);
    expect((await admin(SET, { metafields: [savedBy(PRODUCT)] })).body.data.metafieldsSet).toEqual({
      metafields: [{ key: "saved_by", value: "7" }],
      userErrors: [],
    });
    emulator.revokeOptionalScopes(TEST_SHOP, ["write_products"]);
    expect((await admin(SET, { metafields: [savedBy(PRODUCT, "8")] })).body.errors).toEqual([
      deniedFor("metafieldsSet", "write_products"),
    ]);
  });

  it("refuses to grant a scope that is not in optional_scopes", () => {
    expect(() => emulator.grantOptionalScopes(TEST_SHOP, ["write_orders"])).toThrow(/optional_scopes/);
    expect(emulator.grantedScopes(TEST_SHOP)).toEqual([]);
  });

  it("answers currentAppInstallation.accessScopes and the token's scope with what the shop granted", async () => {
    const query = `{ currentAppInstallation { accessScopes { handle } } }`;
    expect((await admin(query)).body.data.currentAppInstallation.accessScopes).toEqual([]);
    emulator.grantOptionalScopes(TEST_SHOP, ["write_products"]);
    expect((await admin(query)).body.data.currentAppInstallation.accessScopes).toEqual([{ handle: "write_products" }]);
    expect(emulator.adminCredentials(TEST_SHOP)?.scope).toBe("write_products");
  });

  it("grants through the stand-in for App Bridge's permission modal, only scopes the app declared optional", async () => {
    const page = `https://${TEST_SHOP}/admin/apps/optional-scopes?scopes=write_products`;
    expect((await fetch(page)).status).toBe(200);
    const answer = await fetch(page, { method: "POST", body: new URLSearchParams({ decision: "grant" }) });
    expect(await answer.json()).toMatchObject({ result: "granted-all", detail: { granted: ["write_products"] } });
    expect(emulator.grantedScopes(TEST_SHOP)).toEqual(["write_products"]);
    const undeclared = `https://${TEST_SHOP}/admin/apps/optional-scopes?scopes=write_orders`;
    expect((await fetch(undeclared, { method: "POST", body: "decision=grant" })).status).toBe(404);
  });

  it("refuses nodes of products without read_products; write_products includes it", async () => {
    const query = `query Nodes($ids: [ID!]!) { nodes(ids: $ids) { id } }`;
    const refused = await admin(query, { ids: [PRODUCT] });
    expect(refused.body.errors).toEqual([deniedFor("nodes", "read_products")]);
    emulator.grantOptionalScopes(TEST_SHOP, ["write_products"]);
    expect((await admin(query, { ids: [PRODUCT] })).body.data.nodes).toEqual([{ id: PRODUCT }]);
  });

  it("refuses inventoryItem without read_inventory", async () => {
    const { body } = await admin(`{ inventoryItem(id: "gid://shopify/InventoryItem/1") { id } }`);
    expect(body.errors).toEqual([deniedFor("inventoryItem", "read_inventory")]);
  });

  it("needs no scope for the app's own $app: metaobject types, and read_metaobjects for a merchant's", async () => {
    const own = await admin(`{ metaobjects(type: "$app:note", first: 1) { nodes { id } } }`);
    expect(own.body).toMatchObject({ data: { metaobjects: { nodes: [] } } });
    expect(own.body.errors).toBeUndefined();
    const merchants = await admin(`{ metaobjects(type: "lookbook", first: 1) { nodes { id } } }`);
    expect(merchants.body.errors).toEqual([deniedFor("metaobjects", "read_metaobjects")]);
  });

  it("checks a bulk query's fields as the query itself", async () => {
    const run = `mutation Run($query: String!) { bulkOperationRunQuery(query: $query) { bulkOperation { id } userErrors { message } } }`;
    const { body } = await admin(run, { query: `{ metaobjects(type: "lookbook") { edges { node { id } } } }` });
    expect(body.data.bulkOperationRunQuery).toEqual({
      bulkOperation: null,
      userErrors: [
        { message: "Access denied for metaobjects field. Required access: `read_metaobjects` access scope." },
      ],
    });
  });

  it("refuses a root field its table has no row for, and records it as a violation", async () => {
    expect(ROOT_FIELD_SCOPES).not.toHaveProperty("products");
    const query = `{ products(first: 1) { nodes { id } } }`;
    const { body } = await admin(query);
    expect(body.data).toBeUndefined();
    expect(body.errors?.[0]).toMatchObject({
      message: expect.stringMatching(/^emulator: no access-scope rule for the root field products/),
      extensions: { code: "EMULATOR_NO_SCOPE_RULE" },
    });
    expect(emulator.schemaViolations).toEqual([{ api: "admin", query, errors: [body.errors?.[0]?.message] }]);
  });

  it("names a shopify.dev page on every row", () => {
    for (const [field, rule] of Object.entries(ROOT_FIELD_SCOPES)) expect(rule.doc, field).not.toBe("");
  });
});

describe("metafieldsSet owners", () => {
  beforeEach(() => emulator.grantOptionalScopes(TEST_SHOP, ["write_products"]));

  it("refuses a made-up owner, and with it the whole call: nothing of it is written", async () => {
    const { body } = await admin(SET, { metafields: [savedBy(PRODUCT), savedBy(MADE_UP)] });
    expect(body.data.metafieldsSet).toEqual({
      metafields: null,
      userErrors: [{ field: ["metafields", "1", "ownerId"], message: "Owner does not exist", code: "INVALID" }],
    });
    expect(emulator.metafields(TEST_SHOP)).toEqual([]);
  });

  it("refuses an owner the merchant deleted", async () => {
    emulator.removeProducts(TEST_SHOP, [PRODUCT]);
    const { body } = await admin(SET, { metafields: [savedBy("gid://shopify/Product/2"), savedBy(PRODUCT)] });
    expect(body.data.metafieldsSet.userErrors).toEqual([
      { field: ["metafields", "1", "ownerId"], message: "Owner does not exist", code: "INVALID" },
    ]);
    expect(emulator.metafields(TEST_SHOP)).toEqual([]);
  });
});
