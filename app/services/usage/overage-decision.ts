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

export type NextBlock =
  | { kind: "refuse"; reason: "off" | "cap" }
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

/**
 * What to do when a request past the budget finds every sent block spent. A block begun and not
 * known to be sent is finished first, with its own key and price; a new block is begun only while
 * the month's blocks and it stay within the merchant's cap.
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
  now: Date;
}): NextBlock {
  const { choice, priceCents, blocks } = input;
  if (priceCents === undefined || !choice?.enabled) return { kind: "refuse", reason: "off" };
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
  if (spentCents + priceCents > choice.capCents) return { kind: "refuse", reason: "cap" };
  const block = blocks.length + 1;
  return {
    kind: "send",
    block,
    priceCents,
    idempotencyKey: overageIdempotencyKey(input.shop, input.installedAt, input.period, block),
    begin: true,
  };
}
