import { describe, expect, test } from "vitest";
import { budgetAlert } from "~/services/merchant-pages/overage-overview.server";
import { chargeForBlock, mayBeginBlock, overageIdempotencyKey } from "~/services/usage/overage-decision";

const line = { id: "gid://shopify/AppSubscriptionLineItem/1?v=1&index=1", cappedCents: 500, balanceUsedCents: 0 };
const block = (usageLine: typeof line | undefined, priceCents = 200) =>
  chargeForBlock({ shop: "a.myshopify.com", period: "2026-11", block: 3, blockRequests: 1_000, priceCents, usageLine });

describe("overage decisions", () => {
  test("a block may begin only on a plan with a price, with overage on, in a month the cap has not stopped", () => {
    const on = { enabled: true, cappedPeriod: null };
    expect(mayBeginBlock(200, on, "2026-11")).toBe(true);
    expect(mayBeginBlock(undefined, on, "2026-11")).toBe(false);
    expect(mayBeginBlock(200, null, "2026-11")).toBe(false);
    expect(mayBeginBlock(200, { enabled: false, cappedPeriod: null }, "2026-11")).toBe(false);
    expect(mayBeginBlock(200, { enabled: true, cappedPeriod: "2026-11" }, "2026-11")).toBe(false);
    expect(mayBeginBlock(200, { enabled: true, cappedPeriod: "2026-10" }, "2026-11")).toBe(true);
  });

  test("a block is charged while what is left under the cap pays for it; the key names shop, month and block", () => {
    expect(block(line)).toEqual({
      kind: "charge",
      lineItemId: line.id,
      priceCents: 200,
      idempotencyKey: "saved-items-overage:a.myshopify.com:2026-11:3",
      description: "Saved Items: 1,000 requests past the monthly budget (2026-11, block 3)",
    });
    expect(block({ ...line, balanceUsedCents: 300 })).toMatchObject({ kind: "charge" });
    expect(block({ ...line, balanceUsedCents: 301 })).toEqual({ kind: "refuse", reason: "cap" });
    expect(block(undefined)).toEqual({ kind: "refuse", reason: "no-usage-line" });
    expect(overageIdempotencyKey("a.myshopify.com", "2026-11", 3)).not.toBe(
      overageIdempotencyKey("a.myshopify.com", "2026-12", 3),
    );
  });

  test("the admin banner: none below 80% of the budget, a warning from 80%, spent at 100%", () => {
    expect(budgetAlert(3_999, 5_000)).toBeNull();
    expect(budgetAlert(4_000, 5_000)).toEqual({ level: "warning", percent: 80 });
    expect(budgetAlert(4_999, 5_000)).toEqual({ level: "warning", percent: 99 });
    expect(budgetAlert(5_000, 5_000)).toEqual({ level: "spent", percent: 100 });
  });
});
