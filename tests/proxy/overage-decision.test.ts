import { describe, expect, test } from "vitest";
import { budgetAlert } from "~/services/merchant-pages/overage-overview.server";
import {
  nextBlock,
  overageIdempotencyKey,
  RESEND_WINDOW_MS,
  type BlockRecord,
} from "~/services/usage/overage-decision";

const NOW = new Date("2026-11-20T10:00:00Z");
const SHOP = "a.myshopify.com";
const INSTALLED = new Date("2026-11-01T08:00:00Z");
const on = { enabled: true, capCents: 500 };
const sent = (block: number, priceCents = 200): BlockRecord => ({
  block,
  priceCents,
  idempotencyKey: overageIdempotencyKey(SHOP, INSTALLED, "2026-11", block),
  attemptedAt: NOW,
  sentAt: NOW,
});
const decide = (
  blocks: BlockRecord[],
  choice: typeof on | null = on,
  now = NOW,
  priceCents: number | undefined = 200,
) => nextBlock({ shop: SHOP, installedAt: INSTALLED, period: "2026-11", priceCents, choice, blocks, now });

describe("overage decisions", () => {
  test("a block may begin only on a plan with a price, with overage on, while the month stays within the cap", () => {
    const free = nextBlock({
      shop: SHOP,
      installedAt: INSTALLED,
      period: "2026-11",
      priceCents: undefined,
      choice: on,
      blocks: [],
      now: NOW,
    });
    expect(free).toEqual({ kind: "refuse", reason: "off" });
    expect(decide([], null)).toEqual({ kind: "refuse", reason: "off" });
    expect(decide([], { ...on, enabled: false })).toEqual({ kind: "refuse", reason: "off" });
    expect(decide([sent(1)])).toEqual({
      kind: "send",
      block: 2,
      priceCents: 200,
      idempotencyKey: overageIdempotencyKey(SHOP, INSTALLED, "2026-11", 2),
      begin: true,
    });
    // $5: two $2 blocks fit, a third would pass the cap; a plan change's cheaper block still fits.
    expect(decide([sent(1), sent(2)])).toEqual({ kind: "refuse", reason: "cap" });
    expect(decide([sent(1), sent(2)], on, NOW, 100)).toMatchObject({ kind: "send", block: 3 });
  });

  test("a block not known to be sent is finished with its own key and price, within the key's window only", () => {
    const unsent = { ...sent(2, 150), sentAt: null };
    expect(decide([sent(1), unsent])).toEqual({
      kind: "send",
      block: 2,
      priceCents: 150,
      idempotencyKey: unsent.idempotencyKey,
      begin: false,
    });
    const late = new Date(NOW.getTime() + RESEND_WINDOW_MS);
    expect(decide([sent(1), unsent], on, late)).toEqual({ kind: "settle", block: 2 });
    expect(RESEND_WINDOW_MS).toBeLessThan(24 * 60 * 60 * 1000);
  });

  test("the key names shop, install, month and block, and fits the platform's 64 characters whatever the domain", () => {
    const longShop = `${"a".repeat(60)}.myshopify.com`;
    const keys = [
      overageIdempotencyKey(longShop, INSTALLED, "2026-11", 999_999),
      overageIdempotencyKey(SHOP, INSTALLED, "2026-11", 3),
      overageIdempotencyKey("b.myshopify.com", INSTALLED, "2026-11", 3),
      overageIdempotencyKey(SHOP, INSTALLED, "2026-12", 3),
      overageIdempotencyKey(SHOP, INSTALLED, "2026-11", 4),
      // The same shop reinstalled after shop/redact numbers its month's blocks from 1 again.
      overageIdempotencyKey(SHOP, new Date("2026-11-03T08:00:00Z"), "2026-11", 3),
    ];
    for (const key of keys) expect(key.length).toBeLessThanOrEqual(64);
    expect(new Set(keys).size).toBe(keys.length);
    expect(overageIdempotencyKey(SHOP, INSTALLED, "2026-11", 3)).toBe(
      overageIdempotencyKey(SHOP, new Date(INSTALLED), "2026-11", 3),
    );
  });

  test("the admin banner: none below 80% of the budget, a warning from 80%, spent at 100%", () => {
    expect(budgetAlert(3_999, 5_000)).toBeNull();
    expect(budgetAlert(4_000, 5_000)).toEqual({ level: "warning", percent: 80 });
    expect(budgetAlert(4_999, 5_000)).toEqual({ level: "warning", percent: 99 });
    expect(budgetAlert(5_000, 5_000)).toEqual({ level: "spent", percent: 100 });
  });
});
