import { describe, expect, test } from "vitest";
import {
  nextBlock,
  overageIdempotencyKey,
  RESEND_WINDOW_MS,
  VELOCITY_FLOOR_BLOCKS,
  VELOCITY_HISTORY_MS,
  VELOCITY_MULTIPLE,
  velocityVerdict,
  type BlockRecord,
  type OverageChoice,
} from "~/services/usage/overage-decision";

const NOW = new Date("2026-11-20T10:00:00Z");
const SHOP = "a.myshopify.com";
const INSTALLED = new Date("2026-11-01T08:00:00Z");
const on: OverageChoice = { enabled: true, capCents: 500, pausedAt: null, resumedAt: null };
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
  // The velocity guard's input: none unless a test is about it.
  recentBegunAt: Date[] = [],
) =>
  nextBlock({
    shop: SHOP,
    installedAt: INSTALLED,
    period: "2026-11",
    priceCents,
    choice,
    blocks,
    recentBegunAt,
    now,
  });

describe("overage decisions", () => {
  test("a block may begin only on a plan with a price, with overage on, while the month stays within the cap", () => {
    const free = nextBlock({
      shop: SHOP,
      installedAt: INSTALLED,
      period: "2026-11",
      priceCents: undefined,
      choice: on,
      blocks: [],
      recentBegunAt: [],
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

  test("the velocity guard: at most max(2, 4 × the hourly average of the 7 days before the hour) blocks an hour", () => {
    const minutesAgo = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000);
    const verdict = (begunAt: Date[], resumedAt: Date | null = null) =>
      velocityVerdict({ now: NOW, resumedAt, begunAt });
    expect([VELOCITY_FLOOR_BLOCKS, VELOCITY_MULTIPLE, VELOCITY_HISTORY_MS]).toEqual([2, 4, 7 * 24 * 60 * 60 * 1000]);

    // A new shop, no history: the floor, two blocks in the hour.
    expect(verdict([])).toEqual({ begun: 0, allowance: 2, mayBegin: true });
    expect(verdict([minutesAgo(30)])).toEqual({ begun: 1, allowance: 2, mayBegin: true });
    expect(verdict([minutesAgo(30), minutesAgo(1)])).toEqual({ begun: 2, allowance: 2, mayBegin: false });
    // A block begun just over an hour ago is history, not the hour's.
    expect(verdict([minutesAgo(61), minutesAgo(1)]).mayBegin).toBe(true);

    // 84 blocks in the week before the hour: half a block an hour on average, 4× is under the floor.
    const week = (count: number) =>
      Array.from({ length: count }, (_, index) => minutesAgo(61 + Math.floor((index * 7 * 24 * 60) / count)));
    expect(verdict([...week(84), minutesAgo(5), minutesAgo(4)]).allowance).toBe(2);
    // 336 blocks in the week: 2 an hour on average, so 8 in the hour, not 9.
    const busy = week(336);
    const hour = (count: number) => Array.from({ length: count }, (_, index) => minutesAgo(index + 1));
    expect(verdict([...busy, ...hour(7)])).toEqual({ begun: 7, allowance: 8, mayBegin: true });
    expect(verdict([...busy, ...hour(8)])).toEqual({ begun: 8, allowance: 8, mayBegin: false });
    // Blocks older than the week do not count.
    expect(verdict([...hour(2), minutesAgo(61 + 7 * 24 * 60 + 1)]).allowance).toBe(2);

    // A resume restarts the hour's count, not the average, and for a day allows 4× the pace the
    // merchant reviewed: the blocks of the hour before the resume.
    expect(verdict([minutesAgo(30), minutesAgo(20)], minutesAgo(10))).toEqual({
      begun: 0,
      allowance: 8,
      mayBegin: true,
    });
    expect(verdict([...busy, ...hour(8)], minutesAgo(3.5))).toEqual({ begun: 3, allowance: 24, mayBegin: true });
    // A day after the resume, only the history counts again.
    const dayAgo = minutesAgo(24 * 60 + 1);
    const beforeThatResume = [minutesAgo(24 * 60 + 30), minutesAgo(24 * 60 + 20)];
    expect(verdict([...beforeThatResume, minutesAgo(5), minutesAgo(4)], dayAgo)).toMatchObject({
      allowance: 2,
      mayBegin: false,
    });
  });

  test("a paused shop begins nothing and finishes nothing; past the guard's allowance, billing pauses", () => {
    const paused = { ...on, capCents: 2_000, pausedAt: NOW };
    expect(decide([], paused)).toEqual({ kind: "refuse", reason: "paused" });
    expect(decide([sent(1), { ...sent(2), sentAt: null }], paused)).toEqual({ kind: "refuse", reason: "paused" });
    // Overage off or the cap reached says so, whatever the pause.
    expect(decide([], { ...paused, enabled: false })).toEqual({ kind: "refuse", reason: "off" });

    const ten = { ...on, capCents: 2_000 };
    const guarded = (blocks: BlockRecord[], choice: OverageChoice) =>
      decide(
        blocks,
        choice,
        NOW,
        200,
        blocks.map((block) => block.attemptedAt),
      );
    expect(guarded([sent(1)], ten)).toMatchObject({ kind: "send", block: 2, begin: true });
    expect(guarded([sent(1), sent(2)], ten)).toEqual({ kind: "pause", begun: 2, allowance: 2 });
    expect(guarded([sent(1), sent(2)], { ...ten, resumedAt: new Date(NOW.getTime() + 1) })).toMatchObject({
      kind: "send",
      block: 3,
    });
    // The cap is the reason when both hold: resuming would not serve.
    expect(guarded([sent(1), sent(2)], { ...ten, capCents: 400 })).toEqual({ kind: "refuse", reason: "cap" });
  });
});
