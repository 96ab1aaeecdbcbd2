import { describe, expect, test } from "vitest";
import type { z } from "zod";
import { HeadlessExchangeRequestSchema } from "~/services/direct-access/schemas";
import { OPERATIONS, type OperationName } from "~/operations/operations";
import { DEMO_SHOP } from "../support/app";
import { CUSTOMER, STOREFRONT_TOKEN } from "../support/direct";
import { aSaveRequest, anIdentity, identityQuery } from "../support/fixtures";
import { acceptsBody, acceptsQuery } from "../support/openapi";

/**
 * The document's request schemas, checked as JSON Schema (ajv, 2020-12), accept the bodies and
 * queries the other tests send to the real routes and reject broken ones, and agree with the zod
 * schema the route parses with on every sample: the document cannot promise what the route refuses.
 */

type Sample = { name: string; value: unknown; valid: boolean };
const ok = (name: string, value: unknown): Sample => ({ name, value, valid: true });
const bad = (name: string, value: unknown): Sample => ({ name, value, valid: false });

const NAMESPACES = ["headless", "customer-account"] as const;

const SAVE_BODIES: Sample[] = [
  ok("the fixture save request", aSaveRequest()),
  ok(
    "with a snapshot",
    aSaveRequest({ snapshot: { title: "Boots", image: "https://cdn.example/boots.png", price: "10.00" } }),
  ),
  ok(
    "a variant in another list",
    aSaveRequest({ entityType: "variant", entityGid: "gid://shopify/ProductVariant/7", context: "gifts" }),
  ),
  bad("an unknown entity type", aSaveRequest({ entityType: "widget" })),
  bad("an empty context", aSaveRequest({ context: "" })),
  bad("a context longer than 255", aSaveRequest({ context: "x".repeat(256) })),
  bad("an entityGid that is no GID", aSaveRequest({ entityGid: "123" })),
  bad("no source", anIdentity()),
  bad("a snapshot that is no object", aSaveRequest({ snapshot: "boots" })),
  bad("a number as context", aSaveRequest({ context: 5 })),
  bad("no body object", ["save"]),
];

const REMOVE_BODIES: Sample[] = [
  ok("the fixture identity", anIdentity()),
  ok("a save request (source is ignored)", aSaveRequest()),
  bad("no entityGid", { context: "wishlist", entityType: "product" }),
  bad("an unknown entity type", anIdentity({ entityType: "widget" })),
];

const batchOf = (count: number) => ({
  operations: Array.from({ length: count }, (_, index) => ({
    action: "save",
    ...aSaveRequest({ entityGid: `gid://shopify/Product/${index + 1}` }),
  })),
});
const BATCH_BODIES: Sample[] = [
  ok("one save", { operations: [{ action: "save", ...aSaveRequest() }] }),
  ok("mixed actions, source optional", {
    operations: [
      { action: "toggle", ...anIdentity() },
      { action: "remove", ...anIdentity({ context: "b" }) },
      { action: "save", ...aSaveRequest({ context: "c", snapshot: { title: "x" } }) },
    ],
  }),
  ok("50 operations", batchOf(50)),
  bad("51 operations", batchOf(51)),
  bad("no operations", { operations: [] }),
  bad("an unknown action", { operations: [{ action: "delete", ...anIdentity() }] }),
  bad("an operation without context", {
    operations: [{ action: "save", entityType: "product", entityGid: "gid://shopify/Product/1" }],
  }),
  bad("no operations field", {}),
];

const EXCHANGE_BODIES: Sample[] = [
  ok("the modern field set", { shop: DEMO_SHOP, customerAccountAccessToken: CUSTOMER.customerAccountAccessToken }),
  ok("the legacy field set", {
    shop: DEMO_SHOP,
    storefrontCustomerAccessToken: CUSTOMER.storefrontCustomerAccessToken,
    storefrontAccessToken: STOREFRONT_TOKEN,
  }),
  bad("both field sets", {
    shop: DEMO_SHOP,
    customerAccountAccessToken: CUSTOMER.customerAccountAccessToken,
    storefrontCustomerAccessToken: CUSTOMER.storefrontCustomerAccessToken,
    storefrontAccessToken: STOREFRONT_TOKEN,
  }),
  bad("a half legacy set", { shop: DEMO_SHOP, storefrontCustomerAccessToken: CUSTOMER.storefrontCustomerAccessToken }),
  bad("an extra field", { shop: DEMO_SHOP, customerAccountAccessToken: "cat-1001", customerId: "1001" }),
  bad("a shop URL instead of its domain", { shop: `https://${DEMO_SHOP}`, customerAccountAccessToken: "cat-1001" }),
  bad("a shop that is not a platform domain", { shop: "evil.example.com", customerAccountAccessToken: "cat-1001" }),
  bad("an empty token", { shop: DEMO_SHOP, customerAccountAccessToken: "" }),
  bad("no shop", { customerAccountAccessToken: "cat-1001" }),
];

const LIST_QUERIES: Sample[] = [
  ok("only the context", { context: "wishlist" }),
  ok("the largest page", { context: "wishlist", limit: "100" }),
  ok("the smallest page and a cursor", { context: "wishlist", limit: "1", cursor: "opaque" }),
  bad("a page of 101", { context: "wishlist", limit: "101" }),
  bad("a page of 0", { context: "wishlist", limit: "0" }),
  bad("a fractional limit", { context: "wishlist", limit: "2.5" }),
  bad("a limit that is no number", { context: "wishlist", limit: "ten" }),
  bad("an empty cursor", { context: "wishlist", cursor: "" }),
  bad("no context", { limit: "10" }),
];

const IS_SAVED_QUERIES: Sample[] = [
  ok("the fixture identity", identityQuery()),
  ok("a collection", identityQuery({ entityType: "collection", entityGid: "gid://shopify/Collection/9" })),
  bad("an unknown entity type", identityQuery({ entityType: "widget" })),
  bad("no entityGid", { context: "wishlist", entityType: "product" }),
];

function zodAccepts(schema: z.ZodType, value: unknown): boolean {
  return schema.safeParse(value).success;
}

describe.each(NAMESPACES)("/api/%s operation request schemas", (namespace) => {
  const bodies: [OperationName, Sample[]][] = [
    ["save", SAVE_BODIES],
    ["toggle", SAVE_BODIES],
    ["remove", REMOVE_BODIES],
    ["batch", BATCH_BODIES],
  ];
  for (const [operation, samples] of bodies) {
    test.each(samples)(`POST /${operation}: $name → valid: $valid`, ({ value, valid }) => {
      expect(acceptsBody(`/api/${namespace}/${operation}`, "post", value)).toBe(valid);
      expect(zodAccepts(OPERATIONS[operation].input, value)).toBe(valid);
    });
  }

  const queries: [OperationName, Sample[]][] = [
    ["list", LIST_QUERIES],
    ["is-saved", IS_SAVED_QUERIES],
  ];
  for (const [operation, samples] of queries) {
    test.each(samples)(`GET /${operation}: $name → valid: $valid`, ({ value, valid }) => {
      expect(acceptsQuery(`/api/${namespace}/${operation}`, "get", value as Record<string, string>)).toBe(valid);
      expect(zodAccepts(OPERATIONS[operation].input, value)).toBe(valid);
    });
  }
});

describe("POST /api/headless/auth/exchange request schema", () => {
  test.each(EXCHANGE_BODIES)("$name → valid: $valid", ({ value, valid }) => {
    expect(acceptsBody("/api/headless/auth/exchange", "post", value)).toBe(valid);
    expect(zodAccepts(HeadlessExchangeRequestSchema, value)).toBe(valid);
  });
});
