import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { parse, validate } from "graphql";
import { describe, expect, it } from "vitest";
import { refreshShopPlan } from "~/services/billing/plan-refresh.server";
import { collectCustomerRecords, deleteCustomerRecords } from "~/services/compliance/customer-records.server";
import { exchangeCustomerAccountAccessToken } from "~/services/direct-access/headless-modern.server";
import { exchangeStorefrontCustomerAccessToken } from "~/services/direct-access/headless-legacy.server";
import { runComposedAdminGraphql } from "~/platform/admin-graphql.server";
import { requireOfflineAdmin } from "~/platform/offline-admin.server";
import { SAVE_ITEM_TYPE } from "~/services/records/fields";
import { applyWrites, listActiveItems, readLists, readItemRecords } from "~/services/records/metaobject-store.server";
import { givenShop } from "../support/app";
import { emulator } from "../support/platform";
import {
  getSchema,
  SCHEMA_APIS,
  SCHEMA_VERSION,
  vendoredSchemaFile,
  vendoredSchemasDir,
} from "@saved-items/platform-emulator/schemas";

interface Manifest {
  schemas: { api: string; version: string; file: string; sha256: string; source: { file: string; sha256: string } }[];
}

describe("vendored schemas", () => {
  it("are the files the manifest lists, inside the repository", () => {
    const manifest = JSON.parse(readFileSync(path.join(vendoredSchemasDir, "manifest.json"), "utf8")) as Manifest;
    expect(manifest.schemas.map(({ api, version }) => `${api}@${version}`)).toEqual(
      SCHEMA_APIS.map((api) => `${api}@${SCHEMA_VERSION}`),
    );
    for (const entry of manifest.schemas) {
      const file = vendoredSchemaFile(entry.api as (typeof SCHEMA_APIS)[number]);
      expect(path.basename(file)).toBe(entry.file);
      expect(createHash("sha256").update(readFileSync(file)).digest("hex")).toBe(entry.sha256);
      expect(entry.source.sha256).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it.each([
    [
      "admin",
      `{ metaobjectByHandle(handle: {type: "$app:save_item", handle: "x"}) { id nonexistentField } }`,
      "Metaobject",
    ],
    ["customer-account", `{ customer { id nonexistentField } }`, "Customer"],
    ["storefront", `{ customer(customerAccessToken: "x") { id nonexistentField } }`, "Customer"],
  ] as const)("reject a field the %s API does not have", (api, query, type) => {
    const errors = validate(getSchema(api, SCHEMA_VERSION)!, parse(query));
    expect(errors.map((error) => error.message)).toEqual([`Cannot query field "nonexistentField" on type "${type}".`]);
  });

  // Deprecated is announced removal: a document using it works today and breaks on a later version.
  it("report a deprecated field the admin API still answers, and the field that replaces it is clean", async () => {
    const shop = await givenShop();
    const variant = { id: "gid://shopify/ProductVariant/11", title: "M", price: "5.00", availableForSale: true };
    emulator.addProducts(shop, [
      {
        id: "gid://shopify/Product/1",
        title: "Shirt",
        totalInventory: 1,
        variants: [{ ...variant, inventoryItemId: "gid://shopify/InventoryItem/111" }],
      },
    ]);
    const admin = await requireOfflineAdmin(shop);
    const read = (selection: string) =>
      runComposedAdminGraphql<{ inventoryItem: unknown }>(
        admin,
        `query Read($id: ID!) { inventoryItem(id: $id) { ${selection} } }`,
        {
          id: "gid://shopify/InventoryItem/111",
        },
      );

    expect(await read("variant { id }")).toEqual({
      inventoryItem: { variant: { id: "gid://shopify/ProductVariant/11" } },
    });
    expect(emulator.schemaViolations.splice(0).map(({ errors }) => errors)).toEqual([
      ["The field InventoryItem.variant is deprecated. Use `variants` instead."],
    ]);
    expect(await read("variants(first: 1) { nodes { id } }")).toEqual({
      inventoryItem: { variants: { nodes: [{ id: "gid://shopify/ProductVariant/11" }] } },
    });
    expect(emulator.schemaViolations).toEqual([]);
  });

  it("serve no other version", () => {
    expect(getSchema("admin", "2026-07")).toBeUndefined();
  });

  // The app's own code sends its documents, through the shared emulator, which validates each one
  // against the vendored schema; the per-file afterEach fails the test on any violation as well.
  it("accept every document the app sends", async () => {
    const customerGid = "gid://shopify/Customer/1001";
    const shop = await givenShop({
      plan: "scale",
      storefrontAccessToken: "public-token",
      customers: [
        { id: customerGid, customerAccountAccessToken: "cat-1001", storefrontCustomerAccessToken: "sfcat-1001" },
      ],
    });
    const admin = await requireOfflineAdmin(shop);
    const fields = {
      list_key: "list-1",
      customer_id: customerGid,
      context: "wishlist",
      entity_type: "product",
      entity_gid: "gid://shopify/Product/1",
      status: "active",
      saved_at: "2026-10-01T00:00:00Z",
    };

    const confirm = async () => {};
    const {
      items: [created],
    } = await applyWrites(
      admin,
      [{ handle: "sl-1", customerGid, context: "wishlist", index: ["si-1"] }],
      [{ kind: "activate", handle: "si-1", fields }],
      confirm,
    );
    expect(created).toMatchObject({ ok: true });
    const id = created?.ok ? created.record.id : "";
    await applyWrites(admin, [], [{ kind: "deactivate", id }], confirm);
    await applyWrites(admin, [], [{ kind: "activate", handle: "si-1", fields }], confirm);
    expect((await readLists(admin, ["sl-1", "sl-2"], 20)).map((read) => read.list)).toEqual([
      { exists: true, index: ["si-1"], removed: null },
      { exists: false, index: [], removed: null },
    ]);
    const states = await readItemRecords(admin, ["si-1"], ["sl-1"]);
    expect(states.items.get("si-1")).toMatchObject({ id, status: "active" });
    expect((await listActiveItems(admin, "list-1", 20, undefined)).items.map((item) => item.id)).toEqual([id]);
    expect((await collectCustomerRecords(admin, customerGid)).items).toHaveLength(1);
    expect(await deleteCustomerRecords(admin, customerGid)).toEqual({ items: 1, lists: 1 });
    expect((await refreshShopPlan(shop, admin)).key).toBe("scale");
    await exchangeCustomerAccountAccessToken({ shop, customerAccountAccessToken: "cat-1001" });
    await exchangeStorefrontCustomerAccessToken({
      shop,
      storefrontCustomerAccessToken: "sfcat-1001",
      storefrontAccessToken: "public-token",
    });

    expect(emulator.schemaViolations).toEqual([]);
    expect(emulator.metaobjects(shop, SAVE_ITEM_TYPE)).toEqual([]);
    expect(
      new Set(emulator.requests.map((request) => `${request.api} ${request.operationName} ${request.status}`)),
    ).toEqual(
      new Set([
        "admin SavedItemsApplyWrites 200",
        "admin SavedItemsReadList 200",
        "admin SavedItemsReadState 200",
        "admin SavedItemsListActive 200",
        "admin SavedItemsComplianceCustomerLists 200",
        "admin SavedItemsComplianceCustomerItems 200",
        "admin SavedItemsComplianceCustomerItemIds 200",
        "admin SavedItemsComplianceCustomerListIds 200",
        "admin SavedItemsComplianceDeleteRecords 200",
        "admin SavedItemsBillingCurrentSubscriptions 200",
        "customer-account-discovery undefined 200",
        "customer-account SavedItemsCustomerAccountCustomerId 200",
        "storefront SavedItemsStorefrontCustomerId 200",
      ]),
    );
  });
});
