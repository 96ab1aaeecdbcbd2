import { getOperationAST, getVariableValues, parse, validate } from "graphql";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { queryCost, requestedPageSize } from "../src/cost";
import { createPlatformEmulator } from "../src/index";
import { getSchema } from "../src/schemas";
import { adminUrl, postAdmin, TEST_SHOP } from "../src/testing";

const schema = getSchema("admin", "2026-10")!;

function requestedCost(query: string, variables: Record<string, unknown> = {}): number {
  const document = parse(query);
  expect(validate(schema, document)).toEqual([]);
  const operation = getOperationAST(document)!;
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables);
  if (coerced.errors) throw coerced.errors[0];
  return queryCost({ schema, document, operation, variables: coerced.coerced }, requestedPageSize);
}

describe("requested cost", () => {
  it.each([
    ["scalars and enums are free, an object costs 1", `{ shop { id currencyCode } }`, 1],
    ["__typename is free", `{ shop { __typename id } }`, 1],
    [
      "a connection is 2 + first × node, and a plain list of objects costs like one object",
      `{ metaobjects(type: "$app:save_item", first: 100) { nodes { id fields { key value } } } }`,
      2 + 100 * 2,
    ],
    [
      "edges.node costs 1 per edge; edges and pageInfo add nothing",
      `{ metaobjects(type: "$app:save_item", last: 10) { edges { cursor node { id } } pageInfo { hasNextPage } } }`,
      2 + 10 * 1,
    ],
    [
      "connections nest: the inner price is paid once per outer node",
      `{ metaobjectDefinitions(first: 5) { nodes { id metaobjects(first: 10) { nodes { id } } } } }`,
      2 + 5 * (1 + (2 + 10 * 1)),
    ],
    [
      "a union costs its most expensive member's selection, not the sum",
      `{ currentAppInstallation { activeSubscriptions { lineItems { plan { pricingDetails {
         __typename
         ... on AppRecurringPricing { interval price { amount } }
         ... on AppUsagePricing { balanceUsed { amount } cappedAmount { amount } }
      } } } } } }`,
      // installation, subscriptions, line items, plan, pricing details, then max(1, 2)
      5 + 2,
    ],
    [
      "an interface costs its most expensive implementation, fragments included",
      `query { node(id: "gid://shopify/Metaobject/1") { id ...Capabilities } }
       fragment Capabilities on Metaobject { definition { id } capabilities { publishable { status } } }`,
      1 + 3,
    ],
    [
      "a mutation's root field costs 10 whatever it selects",
      `mutation { a: metaobjectDelete(id: "gid://shopify/Metaobject/1") { deletedId }
        b: metaobjectUpsert(handle: {type: "$app:save_item", handle: "h"}, metaobject: {fields: []}) {
          metaobject { id definition { id } fields { key } } userErrors { code } } }`,
      20,
    ],
  ])("%s", (_name, query, expected) => {
    expect(requestedCost(query)).toBe(expected);
  });

  it("takes page sizes from variables", () => {
    const query = `query List($first: Int) { metaobjects(type: "$app:save_item", first: $first) { nodes { id } } }`;
    expect(requestedCost(query, { first: 50 })).toBe(52);
  });
});

let clockMs = Date.parse("2026-10-01T00:00:00Z");
const emulator = createPlatformEmulator({ now: () => new Date(clockMs) });
const server = setupServer(...emulator.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());
beforeEach(() => emulator.reset());

const LIST_250 = `query List { metaobjects(type: "$app:save_item", first: 250) { nodes { id } } }`;
const HUNDRED_DELETES = `mutation Bulk { ${Array.from(
  { length: 100 },
  (_, index) => `d${index}: metaobjectDelete(id: "gid://shopify/Metaobject/${index + 1000}") { deletedId }`,
).join("\n")} }`;

describe("tiers, refunds and usage", () => {
  it.each([
    ["standard", 2_000, 100],
    ["advanced", 4_000, 200],
    ["plus", 20_000, 1_000],
    ["enterprise", 40_000, 2_000],
  ] as const)("a %s shop has a %i point bucket restoring %i a second", async (tier, size, rate) => {
    emulator.addShop({ domain: TEST_SHOP, adminAccessToken: "shpat_tier", tier });
    const { body } = await postAdmin(adminUrl(), "shpat_tier", HUNDRED_DELETES);
    expect(body.extensions?.cost.throttleStatus).toEqual({
      maximumAvailable: size,
      currentlyAvailable: size - 1000,
      restoreRate: rate,
    });
    clockMs += 1000;
    const after = await postAdmin(adminUrl(), "shpat_tier", `{ shop { id } }`);
    expect(after.body.extensions?.cost.throttleStatus.currentlyAvailable).toBe(Math.min(size, size - 1000 + rate) - 1);
  });

  it("defaults to standard", async () => {
    emulator.addShop({ domain: TEST_SHOP, adminAccessToken: "shpat_tier" });
    const { body } = await postAdmin(adminUrl(), "shpat_tier", `{ shop { id } }`);
    expect(body.extensions?.cost.throttleStatus).toMatchObject({ maximumAvailable: 2000, restoreRate: 100 });
  });

  it("charges the requested cost, refunds what was not returned, and counts both", async () => {
    emulator.addShop({ domain: TEST_SHOP, adminAccessToken: "shpat_usage" });
    const first = await postAdmin(adminUrl(), "shpat_usage", LIST_250);
    expect(first.body.extensions?.cost).toMatchObject({ requestedQueryCost: 252, actualQueryCost: 2 });
    expect(first.body.extensions?.cost.throttleStatus.currentlyAvailable).toBe(1998);
    // 1998 left: one 1000-point mutation fits, the next does not.
    expect((await postAdmin(adminUrl(), "shpat_usage", HUNDRED_DELETES)).body.data).toBeDefined();
    const throttled = await postAdmin(adminUrl(), "shpat_usage", HUNDRED_DELETES);
    expect(throttled.body.errors?.[0]?.extensions?.code).toBe("THROTTLED");
    expect(throttled.body.extensions?.cost.throttleStatus.currentlyAvailable).toBe(998);

    expect(emulator.usage(TEST_SHOP)).toEqual({
      shop: TEST_SHOP,
      requests: 3,
      requestedPoints: 252 + 1000,
      actualPoints: 2 + 1000,
      throttledRequests: 1,
      refreshes: 0,
      tokenExchanges: 0,
    });
    expect(emulator.allUsage()).toEqual([emulator.usage(TEST_SHOP)]);
    expect(emulator.usage("other.myshopify.com")).toMatchObject({ requests: 0, requestedPoints: 0 });
    // The log keeps each request's points, so a reader can tell what each document spent; a throttled one spent none.
    expect(emulator.requests.map((request) => request.points)).toEqual([
      { requested: 252, actual: 2 },
      { requested: 1000, actual: 1000 },
      undefined,
    ]);
  });

  it("refuses a single query above 1000 requested points before charging anything", async () => {
    emulator.addShop({ domain: TEST_SHOP, adminAccessToken: "shpat_cap", tier: "enterprise" });
    const query = `{ metaobjects(type: "$app:save_item", first: 250) { nodes { id fields { key } definition { id } field(key: "status") { value } } } }`;
    const { body } = await postAdmin(adminUrl(), "shpat_cap", query);
    expect(body.errors?.[0]).toMatchObject({
      message: "Query cost is 1002, which exceeds the single query max cost limit (1000).",
      extensions: { code: "MAX_COST_EXCEEDED", cost: 1002, maxCost: 1000 },
    });
    expect(emulator.usage(TEST_SHOP)).toMatchObject({ requestedPoints: 0, throttledRequests: 0 });
  });
});
