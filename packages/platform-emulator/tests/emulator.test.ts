import { setupServer } from "msw/node";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createPlatformEmulator, type Plan } from "../src/index";
import { heldSleeps, type GraphqlBody } from "../src/testing";

const SHOP = "emulator-shop.myshopify.com";
const ADMIN_TOKEN = "shpat_emulator";
const STOREFRONT_TOKEN = "storefront-public-token";
const CUSTOMER = "gid://shopify/Customer/42";
const CUSTOMER_ACCOUNT_TOKEN = "shcat_customer_42";
const STOREFRONT_CUSTOMER_TOKEN = "legacy-customer-42";
const ADMIN_URL = `https://${SHOP}/admin/api/2026-10/graphql.json`;
const START = Date.parse("2026-10-01T00:00:00Z");

let clockMs = START;
const sleeps = heldSleeps();
const emulator = createPlatformEmulator({ now: () => new Date(clockMs), sleep: sleeps.sleep });
const server = setupServer(...emulator.handlers);

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());
beforeEach(() => {
  clockMs = START;
  emulator.reset();
  emulator.addShop({
    domain: SHOP,
    adminAccessToken: ADMIN_TOKEN,
    storefrontAccessToken: STOREFRONT_TOKEN,
    customers: [
      {
        id: CUSTOMER,
        customerAccountAccessToken: CUSTOMER_ACCOUNT_TOKEN,
        storefrontCustomerAccessToken: STOREFRONT_CUSTOMER_TOKEN,
      },
    ],
  });
});

async function post(url: string, headers: Record<string, string>, body: unknown) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as GraphqlBody };
}

function admin(query: string, variables?: Record<string, unknown>, token = ADMIN_TOKEN, url = ADMIN_URL) {
  return post(url, { "X-Shopify-Access-Token": token }, { query, variables });
}

const SAVE_ITEM = "$app:save_item";

function saveItemFields(overrides: Record<string, string> = {}) {
  const values = {
    list_key: "list-1",
    customer_id: CUSTOMER,
    context: "default",
    entity_type: "product",
    entity_gid: "gid://shopify/Product/1",
    status: "active",
    saved_at: "2026-10-01T00:00:00Z",
    ...overrides,
  };
  return Object.entries(values).map(([key, value]) => ({ key, value }));
}

const CREATE = `#graphql
  mutation Create($metaobject: MetaobjectCreateInput!) {
    metaobjectCreate(metaobject: $metaobject) {
      metaobject { id handle type updatedAt field(key: "status") { value } }
      userErrors { field message code elementKey elementIndex }
    }
  }`;

const UPSERT = `#graphql
  mutation Upsert($handle: MetaobjectHandleInput!, $metaobject: MetaobjectUpsertInput!) {
    metaobjectUpsert(handle: $handle, metaobject: $metaobject) {
      metaobject { id handle createdAt updatedAt fields { key value jsonValue } }
      userErrors { field message code elementKey }
    }
  }`;

async function createItem(handle: string, overrides: Record<string, string> = {}) {
  const { body } = await admin(CREATE, { metaobject: { type: SAVE_ITEM, handle, fields: saveItemFields(overrides) } });
  expect(body.data.metaobjectCreate.userErrors).toEqual([]);
  return body.data.metaobjectCreate.metaobject as { id: string; handle: string; updatedAt: string };
}

describe("admin schema fidelity", () => {
  it("rejects a field the published schema does not have and records the violation", async () => {
    const query = `query { metaobjectByHandle(handle: {type: "${SAVE_ITEM}", handle: "x"}) { id nonexistentField } }`;
    const { status, body } = await admin(query);
    expect(status).toBe(200);
    expect(body.data).toBeUndefined();
    expect(body.errors).toEqual([
      expect.objectContaining({
        message: 'Cannot query field "nonexistentField" on type "Metaobject".',
        extensions: { code: "undefinedField" },
      }),
    ]);
    expect(emulator.schemaViolations).toEqual([{ api: "admin", query, errors: [body.errors?.[0]?.message] }]);
  });

  it("rejects variables that do not match the schema", async () => {
    const { body } = await admin(`query Q($id: ID!) { metaobject(id: $id) { id } }`, {});
    expect(body.errors?.[0]?.message).toMatch(/Variable "\$id" of required type "ID!" was not provided/);
    expect(emulator.schemaViolations).toHaveLength(1);
  });

  it("answers a valid field it does not model with a loud error", async () => {
    const { body } = await admin(`{ shop { id email } }`);
    expect(body.errors?.[0]?.message).toMatch(/^emulator: Shop\.email not implemented/);
    expect(emulator.schemaViolations).toEqual([]);
  });

  it("serves only the vendored version, 2026-10", async () => {
    const query = `{ shop { id myshopifyDomain } }`;
    expect((await admin(query)).body.data.shop.myshopifyDomain).toBe(SHOP);
    for (const version of ["2026-07", "2024-01"]) {
      const other = await admin(query, undefined, ADMIN_TOKEN, `https://${SHOP}/admin/api/${version}/graphql.json`);
      expect(other.status).toBe(404);
    }
  });

  it("runs aliased root fields and variables in one document", async () => {
    const mutation = `mutation Batch($a: [MetaobjectFieldInput!]!, $b: [MetaobjectFieldInput!]!) {
      first: metaobjectUpsert(handle: {type: "${SAVE_ITEM}", handle: "a"}, metaobject: {fields: $a}) { metaobject { handle } userErrors { code } }
      second: metaobjectUpsert(handle: {type: "${SAVE_ITEM}", handle: "b"}, metaobject: {fields: $b}) { metaobject { handle } userErrors { code } }
    }`;
    const written = await admin(mutation, {
      a: saveItemFields(),
      b: saveItemFields({ entity_gid: "gid://shopify/Product/2" }),
    });
    expect(written.body.data).toEqual({
      first: { metaobject: { handle: "a" }, userErrors: [] },
      second: { metaobject: { handle: "b" }, userErrors: [] },
    });

    const read = await admin(`{
      a: metaobjectByHandle(handle: {type: "${SAVE_ITEM}", handle: "a"}) { gid: field(key: "entity_gid") { value } }
      b: metaobjectByHandle(handle: {type: "app--1234567--save_item", handle: "b"}) { gid: field(key: "entity_gid") { value } }
      missing: metaobjectByHandle(handle: {type: "${SAVE_ITEM}", handle: "c"}) { id }
      shop { myshopifyDomain }
    }`);
    expect(read.body.data).toEqual({
      a: { gid: { value: "gid://shopify/Product/1" } },
      b: { gid: { value: "gid://shopify/Product/2" } },
      missing: null,
      shop: { myshopifyDomain: SHOP },
    });
  });
});

describe("metaobject writes", () => {
  it("refuses a handle that is already taken in the type", async () => {
    await createItem("taken");
    const { body } = await admin(CREATE, {
      metaobject: { type: SAVE_ITEM, handle: "taken", fields: saveItemFields() },
    });
    expect(body.data.metaobjectCreate).toEqual({
      metaobject: null,
      userErrors: [expect.objectContaining({ code: "TAKEN", field: ["metaobject", "handle"] })],
    });
    expect(emulator.metaobjects(SHOP, SAVE_ITEM)).toHaveLength(1);
  });

  it("refuses handles outside lowercase letters, digits and hyphens", async () => {
    const { body } = await admin(CREATE, {
      metaobject: { type: SAVE_ITEM, handle: "Not_OK", fields: saveItemFields() },
    });
    expect(body.data.metaobjectCreate.userErrors).toEqual([
      expect.objectContaining({ code: "INVALID", field: ["metaobject", "handle"] }),
    ]);
  });

  it("requires required fields on create", async () => {
    const fields = saveItemFields().filter(({ key }) => key !== "context");
    const { body } = await admin(CREATE, { metaobject: { type: SAVE_ITEM, fields } });
    expect(body.data.metaobjectCreate).toEqual({
      metaobject: null,
      userErrors: [
        expect.objectContaining({
          code: "OBJECT_FIELD_REQUIRED",
          field: ["metaobject", "fields"],
          elementKey: "context",
        }),
      ],
    });
    expect(emulator.metaobjects(SHOP)).toEqual([]);
  });

  it("refuses a field key the definition does not declare", async () => {
    const fields = [...saveItemFields(), { key: "colour", value: "red" }];
    const { body } = await admin(CREATE, { metaobject: { type: SAVE_ITEM, fields } });
    expect(body.data.metaobjectCreate.userErrors).toEqual([
      {
        field: ["metaobject", "fields", String(fields.length - 1)],
        message: expect.any(String),
        code: "UNDEFINED_OBJECT_FIELD",
        elementKey: "colour",
        elementIndex: null,
      },
    ]);
  });

  it("refuses a type with no definition", async () => {
    const { body } = await admin(CREATE, { metaobject: { type: "$app:nope", fields: [] } });
    expect(body.data.metaobjectCreate.userErrors).toEqual([
      expect.objectContaining({ code: "UNDEFINED_OBJECT_TYPE", field: ["metaobject", "type"] }),
    ]);
  });

  it.each([
    ["snapshot", "{not json"],
    ["saved_at", "yesterday"],
    ["status", "two\nlines"],
    ["status", "x".repeat(256)],
  ])("refuses an invalid value for %s and writes nothing", async (key, value) => {
    const fields = saveItemFields({ [key]: value });
    const index = fields.findIndex((field) => field.key === key);
    const { body } = await admin(CREATE, { metaobject: { type: SAVE_ITEM, fields } });
    expect(body.data.metaobjectCreate).toEqual({
      metaobject: null,
      userErrors: [
        expect.objectContaining({
          code: "INVALID_VALUE",
          field: ["metaobject", "fields", String(index)],
          elementKey: key,
        }),
      ],
    });
    expect(emulator.metaobjects(SHOP)).toEqual([]);
  });

  it("returns jsonValue parsed for json fields", async () => {
    await createItem("with-snapshot", { snapshot: '{"title":"Shoe"}' });
    const { body } = await admin(`{ metaobjectByHandle(handle: {type: "${SAVE_ITEM}", handle: "with-snapshot"}) {
      field(key: "snapshot") { type value jsonValue } none: field(key: "no_such_key") { value } } }`);
    expect(body.data.metaobjectByHandle).toEqual({
      field: { type: "json", value: '{"title":"Shoe"}', jsonValue: { title: "Shoe" } },
      none: null,
    });
  });

  it("upsert creates, then updates the same entry by merging fields", async () => {
    const handle = { type: SAVE_ITEM, handle: "h1" };
    const created = await admin(UPSERT, { handle, metaobject: { fields: saveItemFields() } });
    const first = created.body.data.metaobjectUpsert.metaobject;
    expect(first.createdAt).toBe(first.updatedAt);

    clockMs += 1000;
    const updated = await admin(UPSERT, { handle, metaobject: { fields: [{ key: "status", value: "removed" }] } });
    const second = updated.body.data.metaobjectUpsert.metaobject;
    expect(second.id).toBe(first.id);
    expect(second.createdAt).toBe(first.createdAt);
    expect(Date.parse(second.updatedAt)).toBeGreaterThan(Date.parse(first.updatedAt));
    const byKey = Object.fromEntries(
      second.fields.map((field: { key: string; value: string | null }) => [field.key, field.value]),
    );
    expect(byKey).toMatchObject({ status: "removed", entity_gid: "gid://shopify/Product/1", source: null });
    expect(emulator.metaobjects(SHOP, SAVE_ITEM)).toHaveLength(1);
  });

  it("upsert enforces required fields when it creates", async () => {
    const { body } = await admin(UPSERT, {
      handle: { type: SAVE_ITEM, handle: "h2" },
      metaobject: { fields: [{ key: "status", value: "active" }] },
    });
    expect(body.data.metaobjectUpsert.metaobject).toBeNull();
    expect(body.data.metaobjectUpsert.userErrors.map((error: { code: string }) => error.code)).toContain(
      "OBJECT_FIELD_REQUIRED",
    );
  });

  it("upsert accepts the values: JSON form as a full replacement", async () => {
    const values = Object.fromEntries(saveItemFields({ source: "pdp" }).map(({ key, value }) => [key, value]));
    const mutation = `mutation V($handle: MetaobjectHandleInput!, $values: JSON) {
      metaobjectUpsert(handle: $handle, values: $values) { metaobject { field(key: "source") { value } } userErrors { code field } } }`;
    const handle = { type: SAVE_ITEM, handle: "v1" };
    await admin(mutation, { handle, values });
    const { source, ...withoutSource } = values;
    expect(source).toBe("pdp");
    const { body } = await admin(mutation, { handle, values: withoutSource });
    expect(body.data.metaobjectUpsert).toEqual({ metaobject: { field: { value: null } }, userErrors: [] });
  });

  it("update merges fields and reports unknown ids", async () => {
    const item = await createItem("u1");
    const mutation = `mutation U($id: ID!, $metaobject: MetaobjectUpdateInput!) {
      metaobjectUpdate(id: $id, metaobject: $metaobject) { metaobject { fields { key value } } userErrors { code field } } }`;
    const { body } = await admin(mutation, {
      id: item.id,
      metaobject: { fields: [{ key: "status", value: "removed" }] },
    });
    expect(body.data.metaobjectUpdate.userErrors).toEqual([]);
    expect(emulator.metaobjects(SHOP)[0]?.fields).toMatchObject({ status: "removed", context: "default" });

    const missing = await admin(mutation, { id: "gid://shopify/Metaobject/999999", metaobject: { fields: [] } });
    expect(missing.body.data.metaobjectUpdate).toEqual({
      metaobject: null,
      userErrors: [{ code: "RECORD_NOT_FOUND", field: ["id"] }],
    });
  });

  it("deletes one entry, and in bulk by type", async () => {
    const item = await createItem("d1");
    await createItem("d2");
    const deleted = await admin(
      `mutation D($id: ID!) { metaobjectDelete(id: $id) { deletedId userErrors { code } } }`,
      { id: item.id },
    );
    expect(deleted.body.data.metaobjectDelete).toEqual({ deletedId: item.id, userErrors: [] });
    const bulk = await admin(
      `mutation { metaobjectBulkDelete(where: {type: "${SAVE_ITEM}"}) { job { id done } userErrors { code } } }`,
    );
    expect(bulk.body.data.metaobjectBulkDelete).toEqual({
      job: { id: expect.stringMatching(/^gid:\/\/shopify\/Job\//), done: true },
      userErrors: [],
    });
    expect(emulator.metaobjects(SHOP)).toEqual([]);
  });

  it("gives strictly increasing updatedAt within one millisecond", async () => {
    const a = await createItem("t1");
    const b = await createItem("t2");
    expect(Date.parse(b.updatedAt)).toBeGreaterThan(Date.parse(a.updatedAt));
  });
});

describe("product metafields", () => {
  const SET = `mutation Set($metafields: [MetafieldsSetInput!]!) {
    metafieldsSet(metafields: $metafields) { metafields { id namespace key value } userErrors { field message code } }
  }`;
  const DELETE = `mutation Delete($metafields: [MetafieldIdentifierInput!]!) {
    metafieldsDelete(metafields: $metafields) { deletedMetafields { ownerId key } userErrors { field message } }
  }`;
  const count = (ownerId: string, value: string) => ({
    ownerId,
    namespace: "$app",
    key: "saved_by",
    type: "number_integer",
    value,
  });

  beforeEach(() => {
    // metafieldsSet needs write_products for a product owner (access-scopes.ts), and the owner must exist.
    emulator.grantOptionalScopes(SHOP, ["write_products"]);
    emulator.addProducts(
      SHOP,
      [1, 2, 3].map((n) => ({ id: `gid://shopify/Product/${n}`, title: `P${n}`, totalInventory: 1, variants: [] })),
    );
  });

  it("sets and deletes the app's metafields, $app stored as app--<client id>, as the TOML declares them", async () => {
    const set = await admin(SET, { metafields: [count("gid://shopify/Product/1", "7")] });
    expect(set.body.data?.metafieldsSet).toMatchObject({
      metafields: [{ namespace: "app--1234567", key: "saved_by", value: "7" }],
      userErrors: [],
    });
    expect(emulator.metafields(SHOP, "gid://shopify/Product/1")).toMatchObject([
      { type: "number_integer", value: "7" },
    ]);
    const identifier = { ownerId: "gid://shopify/Product/1", namespace: "$app", key: "saved_by" };
    const deleted = await admin(DELETE, {
      metafields: [identifier, { ...identifier, ownerId: "gid://shopify/Product/2" }],
    });
    expect(deleted.body.data?.metafieldsDelete).toEqual({
      deletedMetafields: [{ ownerId: "gid://shopify/Product/1", key: "saved_by" }, null],
      userErrors: [],
    });
    expect(emulator.metafields(SHOP)).toEqual([]);
  });

  it("refuses a whole call with a wrong type, a non-integer, a non-product owner or more than 25", async () => {
    const refused = await admin(SET, {
      metafields: [
        count("gid://shopify/Product/1", "7"),
        { ...count("gid://shopify/Product/2", "7"), type: "single_line_text_field" },
        count("gid://shopify/Product/3", "seven"),
        count("gid://shopify/Collection/4", "7"),
      ],
    });
    expect(refused.body.data?.metafieldsSet).toMatchObject({
      metafields: null,
      userErrors: [{ code: "INVALID_TYPE" }, { code: "INVALID_VALUE" }, { code: "INVALID" }],
    });
    const many = Array.from({ length: 26 }, (_, index) => count(`gid://shopify/Product/${index + 1}`, "5"));
    expect((await admin(SET, { metafields: many })).body.data?.metafieldsSet).toMatchObject({ metafields: null });
    expect(emulator.metafields(SHOP)).toEqual([]);
  });
});

describe("metaobjects connection", () => {
  const LIST = `#graphql
    query List($query: String, $first: Int, $after: String, $last: Int, $before: String, $sortKey: String, $reverse: Boolean) {
      metaobjects(type: "${SAVE_ITEM}", query: $query, first: $first, after: $after, last: $last, before: $before, sortKey: $sortKey, reverse: $reverse) {
        nodes { handle }
        edges { cursor }
        pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
      }
    }`;

  async function list(variables: Record<string, unknown>) {
    const { body } = await admin(LIST, variables);
    return body;
  }

  const handlesOf = (body: GraphqlBody) => body.data.metaobjects.nodes.map((node: { handle: string }) => node.handle);

  it("pages forward and backward with cursors", async () => {
    for (const handle of ["p1", "p2", "p3", "p4", "p5"]) await createItem(handle);

    const page1 = await list({ first: 2 });
    expect(handlesOf(page1)).toEqual(["p1", "p2"]);
    expect(page1.data.metaobjects.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    expect(page1.data.metaobjects.pageInfo.endCursor).toBe(page1.data.metaobjects.edges[1].cursor);

    const page2 = await list({ first: 2, after: page1.data.metaobjects.pageInfo.endCursor });
    expect(handlesOf(page2)).toEqual(["p3", "p4"]);
    const page3 = await list({ first: 2, after: page2.data.metaobjects.pageInfo.endCursor });
    expect(handlesOf(page3)).toEqual(["p5"]);
    expect(page3.data.metaobjects.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });

    const back = await list({ last: 2, before: page3.data.metaobjects.pageInfo.startCursor });
    expect(handlesOf(back)).toEqual(["p3", "p4"]);
  });

  it("requires a page size of at most 250", async () => {
    expect((await list({})).errors?.[0]?.message).toBe("you must provide one of first or last");
    expect((await list({ first: 251 })).errors?.[0]?.message).toMatch(/page size from 0 to 250/);
  });

  it("sorts by updated_at in reverse", async () => {
    for (const handle of ["s1", "s2", "s3"]) await createItem(handle);
    await admin(UPSERT, {
      handle: { type: SAVE_ITEM, handle: "s1" },
      metaobject: { fields: [{ key: "status", value: "removed" }] },
    });
    expect(handlesOf(await list({ first: 10, sortKey: "updated_at", reverse: true }))).toEqual(["s1", "s3", "s2"]);
    expect((await list({ first: 10, sortKey: "UPDATED_AT" })).errors?.[0]?.message).toMatch(/Invalid sortKey/);
  });

  it("filters on filterable fields joined by AND or whitespace", async () => {
    await createItem("f1");
    await createItem("f2", { status: "removed" });
    await createItem("f3", { customer_id: "gid://shopify/Customer/7" });
    const explicit = await list({ first: 10, query: `fields.customer_id:"${CUSTOMER}" AND fields.status:active` });
    expect(handlesOf(explicit)).toEqual(["f1"]);
    const implicit = await list({ first: 10, query: `fields.status:removed fields.list_key:"list-1"` });
    expect(handlesOf(implicit)).toEqual(["f2"]);
    expect(handlesOf(await list({ first: 10, query: "handle:f3" }))).toEqual(["f3"]);
    expect(handlesOf(await list({ first: 10, query: "fields.status:Active" }))).toEqual([]);
  });

  it.each([
    ["fields.context:default", /not admin_filterable/],
    ["fields.status:active OR fields.status:removed", /operator OR is not supported/],
    ["-fields.status:active", /negation/],
    [`fields.customer_id:${CUSTOMER}`, /must be double-quoted/],
    ["updated_at:>2026-01-01", /not supported by the emulator/],
  ])("rejects the query %s", async (query, message) => {
    const body = await list({ first: 10, query });
    expect(body.data).toBeNull();
    expect(body.errors?.[0]?.message).toMatch(message);
  });
});

describe("authentication", () => {
  it("answers a wrong admin token with 401 and an unknown shop with 404", async () => {
    const wrong = await admin(`{ shop { id } }`, undefined, "shpat_wrong");
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({
      errors: "[API] Invalid API key or access token (unrecognized login or wrong password)",
    });
    const unknown = await admin(
      `{ shop { id } }`,
      undefined,
      ADMIN_TOKEN,
      "https://nowhere.myshopify.com/admin/api/2026-10/graphql.json",
    );
    expect(unknown.status).toBe(404);
  });

  it("refuses a revoked admin token", async () => {
    expect((await admin(`{ shop { id } }`)).status).toBe(200);
    emulator.revokeAdminToken(SHOP);
    expect((await admin(`{ shop { id } }`)).status).toBe(401);
  });
});

describe("cost and throttling", () => {
  const HUNDRED_DELETES = `mutation Bulk { ${Array.from(
    { length: 100 },
    (_, index) => `d${index}: metaobjectDelete(id: "gid://shopify/Metaobject/${index + 1000}") { deletedId }`,
  ).join("\n")} }`;

  it("reports cost and refunds page sizes that were not returned", async () => {
    const { body } = await admin(`{ metaobjects(type: "${SAVE_ITEM}", first: 250) { nodes { id } } }`);
    expect(body.extensions?.cost).toEqual({
      requestedQueryCost: 252,
      actualQueryCost: 2,
      throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 1998, restoreRate: 100 },
    });
  });

  it("refuses a single query above 1000 points", async () => {
    const { body } = await admin(
      `{ metaobjects(type: "${SAVE_ITEM}", first: 250) { nodes { id definition { type } fields { key } field(key: "status") { value } } } }`,
    );
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: "MAX_COST_EXCEEDED", maxCost: 1000 });
  });

  it("throttles once the bucket is empty and restores 100 points a second", async () => {
    expect((await admin(HUNDRED_DELETES)).body.extensions?.cost.throttleStatus.currentlyAvailable).toBe(1000);
    expect((await admin(HUNDRED_DELETES)).body.extensions?.cost.throttleStatus.currentlyAvailable).toBe(0);

    const throttled = await admin(HUNDRED_DELETES);
    expect(throttled.status).toBe(200);
    expect(throttled.body).toEqual({
      errors: [
        {
          message: "Throttled",
          extensions: { code: "THROTTLED", documentation: "https://shopify.dev/api/usage/rate-limits" },
        },
      ],
      extensions: {
        cost: {
          requestedQueryCost: 1000,
          actualQueryCost: null,
          throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 0, restoreRate: 100 },
        },
      },
    });

    clockMs += 10_000;
    const restored = await admin(HUNDRED_DELETES);
    expect(restored.body.data).toBeDefined();
    expect(restored.body.extensions?.cost.throttleStatus.currentlyAvailable).toBe(0);
  });

  it("with throttling switched off (benchmarks) an empty bucket still serves", async () => {
    await admin(HUNDRED_DELETES);
    await admin(HUNDRED_DELETES);
    emulator.setThrottling(false);
    expect((await admin(HUNDRED_DELETES)).body.data).toBeDefined();
    emulator.setThrottling(true);
    expect((await admin(HUNDRED_DELETES)).body.errors?.[0]?.extensions?.code).toBe("THROTTLED");
  });
});

describe("faults and latency", () => {
  const SHOP_QUERY = `query ShopName { shop { name } }`;

  it.each([
    ["http500", 500],
    ["http503", 503],
    ["http429", 429],
  ] as const)("%s fails the next matching request once", async (kind, status) => {
    emulator.injectFault({ kind, api: "admin" });
    const failed = await admin(SHOP_QUERY);
    expect(failed.status).toBe(status);
    if (kind === "http429") expect(failed.headers.get("Retry-After")).toBe("1");
    expect((await admin(SHOP_QUERY)).status).toBe(200);
    expect(emulator.requests.map((request) => request.status)).toEqual([status, 200]);
  });

  it("throttled answers with the THROTTLED body", async () => {
    emulator.injectFault({ kind: "throttled" });
    const { status, body } = await admin(SHOP_QUERY);
    expect(status).toBe(200);
    expect(body.errors?.[0]?.extensions?.code).toBe("THROTTLED");
    expect(body.extensions?.cost).toMatchObject({ requestedQueryCost: 1, actualQueryCost: null });
  });

  it("network makes fetch reject and is still recorded", async () => {
    emulator.injectFault({ kind: "network", times: 2 });
    await expect(admin(SHOP_QUERY)).rejects.toThrow(TypeError);
    await expect(admin(SHOP_QUERY)).rejects.toThrow(TypeError);
    expect((await admin(SHOP_QUERY)).status).toBe(200);
    expect(emulator.requests.map((request) => request.status)).toEqual([0, 0, 200]);
  });

  it("matches faults by api and operation name", async () => {
    emulator.injectFault({ kind: "http500", api: "storefront" });
    emulator.injectFault({ kind: "http503", operationName: "Other" });
    expect((await admin(SHOP_QUERY)).status).toBe(200);
    expect((await admin(`query Other { shop { id } }`)).status).toBe(503);
  });

  it("delays every answer by the configured latency", async () => {
    emulator.setLatency(150);
    const answer = admin(SHOP_QUERY);
    await expect.poll(sleeps.waiting).toEqual([150]);
    expect(emulator.requests).toEqual([]);
    sleeps.wakeAll();
    expect((await answer).status).toBe(200);
  });
});

describe("customer account API", () => {
  async function discover(host = SHOP) {
    const response = await fetch(`https://${host}/.well-known/customer-account-api`);
    return { status: response.status, body: (await response.json()) as { graphql_api: string; mcp_api: string } };
  }

  it("discovers a versioned endpoint and answers customer for the raw token", async () => {
    const { body: discovered } = await discover();
    expect(discovered.graphql_api).toMatch(
      /^https:\/\/shopify\.com\/\d{11}\/account\/customer\/api\/2026-10\/graphql$/,
    );
    expect(discovered.mcp_api).toMatch(/^https:\/\/shopify\.com\/\d{11}\/account\/customer\/api\/mcp$/);
    expect((await discover()).body).toEqual(discovered);

    const query = { query: `query Me { customer { id emailAddress { emailAddress } firstName } }` };
    const ok = await post(discovered.graphql_api, { Authorization: CUSTOMER_ACCOUNT_TOKEN }, query);
    expect(ok.body.data).toEqual({ customer: { id: CUSTOMER, emailAddress: null, firstName: null } });

    const bearer = await post(discovered.graphql_api, { Authorization: `Bearer ${CUSTOMER_ACCOUNT_TOKEN}` }, query);
    expect(bearer.status).toBe(401);
    expect(bearer.body.errors?.[0]?.extensions?.code).toBe("UNAUTHORIZED");
    expect((await discover("elsewhere.myshopify.com")).status).toBe(404);
  });
});

describe("storefront API", () => {
  const URL_2026_10 = `https://${SHOP}/api/2026-10/graphql.json`;
  const QUERY = `query Customer($token: String!) { customer(customerAccessToken: $token) { id } }`;

  it("answers customer for a valid customer token and null otherwise", async () => {
    const headers = { "X-Shopify-Storefront-Access-Token": STOREFRONT_TOKEN };
    const valid = await post(URL_2026_10, headers, { query: QUERY, variables: { token: STOREFRONT_CUSTOMER_TOKEN } });
    expect(valid.body.data).toEqual({ customer: { id: CUSTOMER } });
    const invalid = await post(URL_2026_10, headers, { query: QUERY, variables: { token: "expired" } });
    expect(invalid.body).toEqual({ data: { customer: null } });
  });

  it("validates documents against the storefront schema", async () => {
    const query = `{ customer(customerAccessToken: "x") { id emailAddress } }`;
    const { body } = await post(URL_2026_10, { "X-Shopify-Storefront-Access-Token": STOREFRONT_TOKEN }, { query });
    expect(body.errors?.[0]?.message).toMatch(/^Cannot query field "emailAddress" on type "Customer"/);
    expect(emulator.schemaViolations).toEqual([{ api: "storefront", query, errors: [body.errors?.[0]?.message] }]);
  });

  it("refuses a missing or wrong storefront token", async () => {
    const body = { query: QUERY, variables: { token: STOREFRONT_CUSTOMER_TOKEN } };
    expect((await post(URL_2026_10, {}, body)).status).toBe(401);
    expect((await post(URL_2026_10, { "X-Shopify-Storefront-Access-Token": "wrong" }, body)).status).toBe(401);
  });
});

describe("plans", () => {
  const INSTALLATION = `query Plan { currentAppInstallation { activeSubscriptions { name status test
    lineItems { plan { pricingDetails { __typename ... on AppRecurringPricing { interval planHandle price { amount currencyCode } } } } } } } }`;

  it("has no subscription on the free plan", async () => {
    const { body } = await admin(INSTALLATION);
    expect(body.data.currentAppInstallation.activeSubscriptions).toEqual([]);
  });

  it.each([
    ["starter", "Starter"],
    ["pro", "Pro"],
    ["scale", "Scale"],
  ] as [Plan, string][])("reports %s as an active subscription", async (plan, name) => {
    emulator.setPlan(SHOP, plan);
    const { body } = await admin(INSTALLATION);
    const [subscription] = body.data.currentAppInstallation.activeSubscriptions;
    expect(subscription).toMatchObject({ name, status: "ACTIVE", test: false });
    expect(subscription.lineItems[0].plan.pricingDetails).toMatchObject({
      __typename: "AppRecurringPricing",
      interval: "EVERY_30_DAYS",
      planHandle: plan,
      price: { currencyCode: "USD" },
    });
  });
});

describe("usage charges of the Billing API", () => {
  const CHARGE = `mutation Charge { appUsageRecordCreate(subscriptionLineItemId: "gid://shopify/AppSubscriptionLineItem/1?v=1&index=1",
    price: { amount: "2.00", currencyCode: USD }, description: "block", idempotencyKey: "block-1") {
    appUsageRecord { id } userErrors { field message } } }`;
  const CAP = `mutation Cap { appSubscriptionLineItemUpdate(id: "gid://shopify/AppSubscriptionLineItem/1?v=1&index=1",
    cappedAmount: { amount: "4.00", currencyCode: USD }) { confirmationUrl userErrors { field message } } }`;

  it("are refused for an App Pricing subscription, whose usage goes through the App Events API", async () => {
    emulator.setPlan(SHOP, "pro");
    const charge = (await admin(CHARGE)).body.data.appUsageRecordCreate;
    expect(charge).toEqual({
      appUsageRecord: null,
      userErrors: [{ field: ["subscriptionLineItemId"], message: expect.stringMatching(/App Events API/) }],
    });
    const cap = (await admin(CAP)).body.data.appSubscriptionLineItemUpdate;
    expect(cap).toMatchObject({ confirmationUrl: null, userErrors: [{ field: ["id"] }] });
  });
});

describe("request recording", () => {
  it("records every request in order and counts by api and shop", async () => {
    await admin(`query ShopName { shop { name } }`);
    await admin(`{ shop { name } }`, undefined, "shpat_wrong");
    await fetch(`https://${SHOP}/.well-known/customer-account-api`);
    expect(emulator.requests).toEqual([
      expect.objectContaining({
        api: "admin",
        shop: SHOP,
        operationName: "ShopName",
        query: `query ShopName { shop { name } }`,
        status: 200,
      }),
      expect.objectContaining({ api: "admin", shop: SHOP, operationName: undefined, status: 401 }),
      { api: "customer-account-discovery", shop: SHOP, status: 200 },
    ]);
    expect(emulator.countRequests()).toBe(3);
    expect(emulator.countRequests({ api: "admin", shop: SHOP })).toBe(2);
    expect(emulator.countRequests({ shop: "other.myshopify.com" })).toBe(0);
    emulator.clearRequests();
    expect(emulator.countRequests()).toBe(0);
  });
});

describe("catalogue nodes", () => {
  const NODES = `query Cards($ids: [ID!]!) {
    nodes(ids: $ids) {
      id
      ... on Product {
        handle onlineStoreUrl status
        featuredMedia { preview { image { url } } }
        variants(first: 1) { nodes { id inventoryItem { id } } }
      }
    }
  }`;

  it("answers handle, featured image and variants; onlineStoreUrl only for a published (ACTIVE) product", async () => {
    const variant = { id: "gid://shopify/ProductVariant/11", title: "S", price: "5.00", availableForSale: true };
    emulator.addProducts(SHOP, [
      {
        id: "gid://shopify/Product/1",
        title: "Mug",
        handle: "mug",
        imageUrl: "https://cdn.shopify.com/m.png",
        totalInventory: 1,
        variants: [variant, { ...variant, id: "gid://shopify/ProductVariant/12" }],
      },
      { id: "gid://shopify/Product/2", title: "Draft Cup", status: "DRAFT", totalInventory: 0, variants: [] },
    ]);
    const { body } = await admin(NODES, {
      ids: ["gid://shopify/Product/1", "gid://shopify/Product/2", "gid://shopify/Product/3"],
    });
    expect(body.data?.nodes).toEqual([
      {
        id: "gid://shopify/Product/1",
        handle: "mug",
        onlineStoreUrl: `https://${SHOP}/products/mug`,
        status: "ACTIVE",
        featuredMedia: { preview: { image: { url: "https://cdn.shopify.com/m.png" } } },
        variants: { nodes: [{ id: variant.id, inventoryItem: { id: "gid://shopify/InventoryItem/11" } }] },
      },
      {
        id: "gid://shopify/Product/2",
        handle: "draft-cup",
        onlineStoreUrl: null,
        status: "DRAFT",
        featuredMedia: null,
        variants: { nodes: [] },
      },
      null,
    ]);
    expect(emulator.schemaViolations).toEqual([]);
  });
});
