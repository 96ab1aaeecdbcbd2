import { createHash } from "node:crypto";
import { APP_EVENT_IDEMPOTENCY_WINDOW_MS, APP_EVENT_KEY_MAX_LENGTH } from "~/platform/app-events.server";

/**
 * The decisions of overage billing (docs/decisions/0008-overage-billing.md and
 * 0018-overage-on-app-pricing.md), without I/O: whether a shop whose budget is spent may begin its
 * next block, and which billing event pays for it.
 */

export interface OverageChoice {
  enabled: boolean;
  /** The most overage may add to the month, in US cents: the merchant's, since App Pricing meters have no cap. */
  capCents: number;
  /** Set when the velocity guard paused billing; cleared by the merchant's resume. */
  pausedAt: Date | null;
  /** The merchant's last resume: blocks begun before it no longer count against the hour. */
  resumedAt: Date | null;
}

/** A block of the month as the app's records hold it. */
export interface BlockRecord {
  block: number;
  priceCents: number;
  idempotencyKey: string;
  attemptedAt: Date;
  /** Null while its event is in flight or its answer was lost. */
  sentAt: Date | null;
}

/** Why a request past the budget is not served: overage off (or Free), the cap reached, or paused. */
export type OverageRefusal = "off" | "cap" | "paused";

export type NextBlock =
  | { kind: "refuse"; reason: OverageRefusal }
  /** Begin no block: pause billing until the merchant resumes (the velocity guard). */
  | { kind: "pause"; begun: number; allowance: number }
  /** Send block `block`'s event; `begin`: no record of it exists yet. */
  | { kind: "send"; block: number; priceCents: number; idempotencyKey: string; begin: boolean }
  /** A block whose event went unanswered longer ago than the key protects a retry: never sent again. */
  | { kind: "settle"; block: number };

/**
 * A block's event is sent again only this long after its first attempt: within the platform's
 * idempotency window, with an hour to spare for clocks that disagree. After it, a second send
 * could be charged as a new event.
 */
export const RESEND_WINDOW_MS = APP_EVENT_IDEMPOTENCY_WINDOW_MS - 60 * 60 * 1000;

/**
 * The key names the block, not the attempt: every instance and every retry that begins block n of
 * a shop's month sends the same one. Keys are the app's across every shop, so the shop is in it,
 * and so is the install: shop/redact deletes the month's blocks, and after a reinstall the month
 * numbers them from 1 again, which under the same key the platform would answer as a repeat and
 * not bill. Hashed to keep the key within the platform's 64 characters whatever the domain.
 */
export function overageIdempotencyKey(shop: string, installedAt: Date, period: string, block: number): string {
  const shopDigest = createHash("sha256")
    .update(`${shop}\n${installedAt.toISOString()}`)
    .digest("base64url")
    .slice(0, 22);
  const key = `overage:${period}:${block}:${shopDigest}`;
  if (key.length > APP_EVENT_KEY_MAX_LENGTH) throw new Error(`overage key of ${key.length} characters: ${key}`);
  return key;
}

/** Whether the merchant's cap takes one more block after the month's blocks so far. */
export function capAllowsBlock(spentCents: number, priceCents: number, capCents: number): boolean {
  return spentCents + priceCents <= capCents;
}

const HOUR_MS = 60 * 60 * 1000;

/**
 * The velocity guard (decision 0018, "The velocity guard"): the blocks a shop begins in an hour may
 * not exceed VELOCITY_MULTIPLE times its hourly average over the VELOCITY_HISTORY_MS before that
 * hour, nor VELOCITY_FLOOR_BLOCKS when that is less, so throwaway accounts cannot run up a bill at
 * a pace the shop has never had.
 */
export const VELOCITY_WINDOW_MS = HOUR_MS;
export const VELOCITY_HISTORY_MS = 7 * 24 * HOUR_MS;
export const VELOCITY_MULTIPLE = 4;
export const VELOCITY_FLOOR_BLOCKS = 2;
/**
 * How long a merchant's resume vouches for the pace they reviewed: for this long after it, the
 * hour may hold VELOCITY_MULTIPLE times the blocks of the hour before the resume, so a real surge
 * (a sale on a shop that never used overage) is paused once or twice as it grows, not every two
 * blocks, while throwaway accounts still meet a pause the merchant has to lift.
 */
export const VELOCITY_RESUME_VOUCH_MS = 24 * HOUR_MS;

/** Where the guard's hour begins: an hour ago, or the merchant's resume if later. */
export function velocityWindowStart(now: Date, resumedAt: Date | null): Date {
  const hourAgo = now.getTime() - VELOCITY_WINDOW_MS;
  return new Date(Math.max(hourAgo, resumedAt?.getTime() ?? hourAgo));
}

/**
 * Whether one more block may begin now, given when the shop's recent blocks (of any month) were
 * begun. `begun` counts the blocks of the hour (since the resume, if later); the history is the
 * 7 days before the hour, whatever the resume, so a resume restarts the count, not the average; and
 * for a day after a resume, the pace of the hour before it is allowed (VELOCITY_RESUME_VOUCH_MS).
 */
export function velocityVerdict(input: { now: Date; resumedAt: Date | null; begunAt: readonly Date[] }) {
  const now = input.now.getTime();
  const windowStart = velocityWindowStart(input.now, input.resumedAt).getTime();
  const historyEnd = now - VELOCITY_WINDOW_MS;
  const historyStart = historyEnd - VELOCITY_HISTORY_MS;
  const resumedAt = input.resumedAt?.getTime();
  const vouching = resumedAt !== undefined && now - resumedAt < VELOCITY_RESUME_VOUCH_MS;
  let begun = 0;
  let history = 0;
  let beforeResume = 0;
  for (const at of input.begunAt) {
    const time = at.getTime();
    if (time >= windowStart && time <= now) begun++;
    else if (time >= historyStart && time < historyEnd) history++;
    if (vouching && time >= resumedAt - VELOCITY_WINDOW_MS && time < resumedAt) beforeResume++;
  }
  const hourlyAverage = history / (VELOCITY_HISTORY_MS / VELOCITY_WINDOW_MS);
  const allowance = Math.max(
    VELOCITY_FLOOR_BLOCKS,
    VELOCITY_MULTIPLE * hourlyAverage,
    VELOCITY_MULTIPLE * beforeResume,
  );
  return { begun, allowance, mayBegin: begun + 1 <= allowance };
}

/**
 * What to do when a request past the budget finds every sent block spent. While billing is paused,
 * nothing (not even a block in flight, which waits for the resume within its resend window). A
 * block begun and not known to be sent is finished first, with its own key and price; a new block
 * is begun only while the month's blocks and it stay within the merchant's cap and the velocity
 * guard allows it, else billing pauses.
 */
export function nextBlock(input: {
  shop: string;
  /** When the shop installed the app (Shop.installedAt, renewed by each reinstall). */
  installedAt: Date;
  period: string;
  /** The plan's block price; undefined when it has no overage. */
  priceCents: number | undefined;
  choice: OverageChoice | null;
  blocks: readonly BlockRecord[];
  /** When each of the shop's blocks of the last VELOCITY_WINDOW_MS + VELOCITY_HISTORY_MS began, whatever its month. */
  recentBegunAt: readonly Date[];
  now: Date;
}): NextBlock {
  const { choice, priceCents, blocks } = input;
  if (priceCents === undefined || !choice?.enabled) return { kind: "refuse", reason: "off" };
  if (choice.pausedAt !== null) return { kind: "refuse", reason: "paused" };
  const unsent = blocks.find((block) => block.sentAt === null);
  if (unsent) {
    if (input.now.getTime() - unsent.attemptedAt.getTime() >= RESEND_WINDOW_MS) {
      return { kind: "settle", block: unsent.block };
    }
    return {
      kind: "send",
      block: unsent.block,
      priceCents: unsent.priceCents,
      idempotencyKey: unsent.idempotencyKey,
      begin: false,
    };
  }
  const spentCents = blocks.reduce((sum, block) => sum + block.priceCents, 0);
  if (!capAllowsBlock(spentCents, priceCents, choice.capCents)) return { kind: "refuse", reason: "cap" };
  const velocity = velocityVerdict({ now: input.now, resumedAt: choice.resumedAt, begunAt: input.recentBegunAt });
  if (!velocity.mayBegin) return { kind: "pause", begun: velocity.begun, allowance: velocity.allowance };
  const block = blocks.length + 1;
  return {
    kind: "send",
    block,
    priceCents,
    idempotencyKey: overageIdempotencyKey(input.shop, input.installedAt, input.period, block),
    begin: true,
  };
}
