import path from "node:path";
import { describe, expect, test } from "vitest";
import { createFlowTriggerRecorder, loadFlowTriggers } from "../src/flow-triggers";
import { repoRoot } from "../src/schemas";

const recorder = () => createFlowTriggerRecorder(loadFlowTriggers(path.join(repoRoot, "extensions")));
const SHOP = "demo.myshopify.com";
const VALID = { customer_id: 1001, product_id: 1, "Variant ID": "gid://shopify/ProductVariant/1" };
/** The app's required scopes, which include the read scopes of its triggers' references. */
const GRANTED = new Set(["read_customers", "read_products"]);

describe("the emulator's flowTriggerReceive", () => {
  test("reads the app's trigger extensions, references as <object>_id", () => {
    const triggers = loadFlowTriggers(path.join(repoRoot, "extensions"));
    expect([...triggers.keys()].sort()).toEqual([
      "item-saved",
      "saved-item-back-in-stock",
      "saved-item-low-in-stock",
      "saved-item-price-dropped",
    ]);
    expect(triggers.get("saved-item-price-dropped")!.map((field) => field.payloadKey)).toEqual([
      "customer_id",
      "product_id",
      "Variant ID",
      "Old price",
      "New price",
    ]);
  });

  test("records a payload with exactly the declared fields", () => {
    const flow = recorder();
    expect(flow.receive(SHOP, { handle: "saved-item-back-in-stock", payload: VALID }, GRANTED)).toEqual({
      userErrors: [],
    });
    expect(flow.fired(SHOP)).toEqual([{ handle: "saved-item-back-in-stock", payload: VALID }]);
  });

  test.each([
    ["an unknown handle", { handle: "nope", payload: VALID }, "handle"],
    ["an undeclared field", { handle: "saved-item-back-in-stock", payload: { ...VALID, extra: 1 } }, "payload"],
    ["a missing field", { handle: "saved-item-back-in-stock", payload: { customer_id: 1, product_id: 1 } }, "payload"],
    [
      "a GID for a reference",
      { handle: "saved-item-back-in-stock", payload: { ...VALID, customer_id: "gid://shopify/Customer/1" } },
      "payload",
    ],
    [
      "text for a price",
      { handle: "saved-item-price-dropped", payload: { ...VALID, "Old price": "9", "New price": 8 } },
      "payload",
    ],
    ["the deprecated body", { handle: "item-saved", body: "{}" }, "body"],
  ])("refuses %s, recording nothing", (_, args, field) => {
    const flow = recorder();
    const { userErrors } = flow.receive(SHOP, args, GRANTED);
    expect(userErrors[0]!.field![0]).toBe(field);
    expect(flow.fired(SHOP)).toEqual([]);
  });

  test.each([
    ["read_customers", "customer_reference"],
    ["read_products", "product_reference"],
  ])("refuses a trigger with a reference field when %s was not granted", (scope, type) => {
    const flow = recorder();
    const granted = new Set([...GRANTED].filter((each) => each !== scope));
    const { userErrors } = flow.receive(SHOP, { handle: "saved-item-back-in-stock", payload: VALID }, granted);
    expect(userErrors).toEqual([
      {
        field: ["handle"],
        message: `saved-item-back-in-stock has a ${type} field, which requires the ${scope} access scope`,
      },
    ]);
    expect(flow.fired(SHOP)).toEqual([]);
    // write_products includes read_products, as write scopes include their read scope.
    if (scope === "read_products") {
      expect(
        flow.receive(
          SHOP,
          { handle: "saved-item-back-in-stock", payload: VALID },
          new Set([...granted, "write_products"]),
        ),
      ).toEqual({ userErrors: [] });
    }
  });
});
