import { describe, expect, test } from "vitest";
import { callProxy, givenShop } from "../support/app";
import { aSaveRequest, anIdentity } from "../support/fixtures";
import { emulator } from "../support/platform";

const op = (action: string, id: number, extra: Record<string, unknown> = {}) => ({
  action,
  ...anIdentity({ entityGid: `gid://shopify/Product/${id}` }),
  ...extra,
});
const ops = (count: number, action = "save") => Array.from({ length: count }, (_, index) => op(action, index + 1));

describe("POST /proxy/api/batch", () => {
  test("runs each operation by the state table and reports per-operation results with HTTP 200", async () => {
    await givenShop({ plan: "starter" });
    await callProxy("/proxy/api/save", { body: aSaveRequest({ entityGid: "gid://shopify/Product/2" }) });
    await callProxy("/proxy/api/save", { body: aSaveRequest({ entityGid: "gid://shopify/Product/4" }) });
    const { status, body } = await callProxy("/proxy/api/batch", {
      body: {
        operations: [
          op("save", 1, { source: "batch", snapshot: { title: "One" } }),
          op("save", 2),
          op("remove", 3),
          op("toggle", 4),
          op("toggle", 5),
        ],
      },
    });
    expect(status).toBe(200);
    expect(body.data).toEqual({
      total: 5,
      succeeded: 3,
      failed: 2,
      results: [
        { ok: true, result: { id: expect.any(String), state: "active" } },
        { ok: false, code: "DUPLICATE_SAVE", message: expect.any(String), retryable: false },
        { ok: false, code: "ITEM_NOT_FOUND", message: expect.any(String), retryable: false },
        { ok: true, result: { id: expect.any(String), state: "removed" } },
        { ok: true, result: { id: expect.any(String), state: "active" } },
      ],
    });
    const list = await callProxy("/proxy/api/list", { query: { context: "wishlist" } });
    expect(list.body.data.items.map((item: { entityGid: string }) => item.entityGid).sort()).toEqual([
      "gid://shopify/Product/1",
      "gid://shopify/Product/2",
      "gid://shopify/Product/5",
    ]);
    expect(list.body.data.items.find((item: any) => item.entityGid.endsWith("/1")).snapshot).toEqual({ title: "One" });
  });

  test("more than 50 operations, or none, is VALIDATION_ERROR before any plan check", async () => {
    await givenShop({ plan: "free" });
    for (const operations of [ops(51), []]) {
      const { status, body } = await callProxy("/proxy/api/batch", { body: { operations } });
      expect(status).toBe(400);
      expect(body.error).toMatchObject({ code: "VALIDATION_ERROR" });
      expect(body.error.message).toMatch(/^operations:/);
    }
  });

  test("an invalid operation names its index and field", async () => {
    await givenShop({ plan: "pro" });
    const { status, body } = await callProxy("/proxy/api/batch", {
      body: { operations: [op("save", 1), op("archive", 2)] },
    });
    expect(status).toBe(400);
    expect(body.error.message).toMatch(/^operations\.1\.action:/);
  });

  test.each([
    ["free", 1, 402],
    ["starter", 10, 200],
    ["starter", 11, 402],
    ["pro", 50, 200],
    ["scale", 50, 200],
  ] as const)("on %s a batch of %i answers %i", async (plan, count, expected) => {
    await givenShop({ plan });
    const { status, body } = await callProxy("/proxy/api/batch", { body: { operations: ops(count) } });
    expect(status).toBe(expected);
    if (expected === 402) {
      expect(body.error).toMatchObject({ code: "PLAN_LIMIT_REACHED", retryable: false });
      expect(emulator.countRequests({ api: "admin" })).toBe(0);
    } else {
      expect(body.data).toMatchObject({ total: count, succeeded: count, failed: 0 });
    }
  });

  test("duplicate identity keys fail the whole batch with BATCH_CONFLICT naming them, before anything runs", async () => {
    await givenShop({ plan: "pro" });
    const { status, body } = await callProxy("/proxy/api/batch", {
      body: { operations: [op("save", 1), op("save", 2), op("remove", 1), op("toggle", 2), op("save", 3)] },
    });
    expect(status).toBe(409);
    expect(body.error).toMatchObject({ code: "BATCH_CONFLICT", retryable: false });
    expect(body.error.message).toContain("wishlist|product|gid://shopify/Product/1");
    expect(body.error.message).toContain("wishlist|product|gid://shopify/Product/2");
    expect(body.error.message).not.toContain("Product/3");
    expect(emulator.countRequests({ api: "admin" })).toBe(0);
  });

  test("the same entity in two contexts is not a conflict", async () => {
    await givenShop({ plan: "pro" });
    const { status, body } = await callProxy("/proxy/api/batch", {
      body: { operations: [op("save", 1), op("save", 1, { context: "gifts" })] },
    });
    expect(status).toBe(200);
    expect(body.data.succeeded).toBe(2);
  });
});
