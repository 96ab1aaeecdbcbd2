import { describe, expect, test } from "vitest";
import { callProxy, givenShop } from "../support/app";
import { aSaveRequest, identityQuery } from "../support/fixtures";
import { emulator } from "../support/platform";

const validationError = (status = 400) => ({
  status,
  body: { ok: false, error: { code: "VALIDATION_ERROR", message: expect.any(String), retryable: false } },
});

describe("edge validation (§4.1 rules 3-5)", () => {
  test.each([
    ["GET", "/proxy/api/save"],
    ["GET", "/proxy/api/remove"],
    ["GET", "/proxy/api/toggle"],
    ["GET", "/proxy/api/batch"],
    ["POST", "/proxy/api/list"],
    ["POST", "/proxy/api/is-saved"],
    ["PUT", "/proxy/api/save"],
    ["DELETE", "/proxy/api/list"],
  ])("%s %s is VALIDATION_ERROR 405", async (method, path) => {
    await givenShop();
    const body = method === "GET" ? undefined : aSaveRequest();
    expect(await callProxy(path, { method, body })).toEqual(validationError(405));
  });

  test("invalid JSON is VALIDATION_ERROR 400", async () => {
    await givenShop();
    const result = await callProxy("/proxy/api/save", { rawBody: '{"context": "wishlist",' });
    expect(result).toEqual(validationError());
    expect(result.body.error.message).toMatch(/JSON/);
  });

  test.each([
    ["context", { context: "" }],
    ["entityType", { entityType: "blog" }],
    ["entityGid", { entityGid: "Product/1" }],
    ["source", { source: 7 }],
    ["snapshot", { snapshot: "a string" }],
    ["snapshot", { snapshot: { blob: "x".repeat(5000) } }],
  ])("a body failing the schema names the field (%s)", async (field, overrides) => {
    await givenShop();
    const result = await callProxy("/proxy/api/save", { body: aSaveRequest(overrides) });
    expect(result).toEqual(validationError());
    expect(result.body.error.message).toMatch(new RegExp(`^${field}:`));
    expect(emulator.countRequests({ api: "admin" })).toBe(0);
  });

  test("missing required fields are each named", async () => {
    await givenShop();
    const result = await callProxy("/proxy/api/save", { body: { context: "wishlist" } });
    expect(result.status).toBe(400);
    for (const field of ["entityType", "entityGid", "source"]) expect(result.body.error.message).toContain(`${field}:`);
  });

  test("a body that is not an object is refused", async () => {
    await givenShop();
    expect(await callProxy("/proxy/api/remove", { rawBody: "[1,2]" })).toEqual(validationError());
  });

  test("a query failing the schema names the field", async () => {
    await givenShop();
    const result = await callProxy("/proxy/api/is-saved", { query: identityQuery({ entityType: "nope" }) });
    expect(result).toEqual(validationError());
    expect(result.body.error.message).toMatch(/^entityType:/);
  });

  test("a repeated query field is refused rather than silently picking one", async () => {
    await givenShop();
    const result = await callProxy("/proxy/api/list", { query: { context: ["a", "b"] } });
    expect(result).toEqual(validationError());
    expect(result.body.error.message).toMatch(/^context:/);
  });

  test("a body over 256 KiB is refused with 413, never read whole", async () => {
    await givenShop();
    const result = await callProxy("/proxy/api/save", { rawBody: JSON.stringify({ pad: "x".repeat(300 * 1024) }) });
    expect(result).toEqual(validationError(413));
  });

  test("a POST without a JSON content type is refused with 415 (no cross-site form posts)", async () => {
    await givenShop();
    const result = await callProxy("/proxy/api/save", {
      rawBody: JSON.stringify(aSaveRequest()),
      contentType: "text/plain",
    });
    expect(result).toEqual(validationError(415));
  });

  test("validation failures do not count against the monthly budget", async () => {
    await givenShop();
    await callProxy("/proxy/api/save", { rawBody: "nope" });
    const { monthlyUsage } = await import("~/services/usage/monthly-budget.server");
    expect(await monthlyUsage("demo.myshopify.com")).toBe(0);
  });
});
