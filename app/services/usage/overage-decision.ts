import type { UsageLine } from "~/services/billing/usage-charges.server";

/**
 * The decisions of overage billing (docs/decisions/0008-overage-billing.md), without I/O: whether
 * a shop whose budget is spent may begin another block, and how that block is charged.
 */

export interface OverageChoice {
  enabled: boolean;
  /** The month in which the platform last refused a block for the capped amount. */
  cappedPeriod: string | null;
}

/**
 * A next block may be asked for when the plan has a block price, the merchant turned overage on,
 * and the platform has not refused a block for the cap this month; otherwise the request past the
 * budget is PLAN_LIMIT_REACHED as without overage.
 */
export function mayBeginBlock(blockPriceCents: number | undefined, choice: OverageChoice | null, period: string) {
  return blockPriceCents !== undefined && choice !== null && choice.enabled && choice.cappedPeriod !== period;
}

export type BlockCharge =
  | { kind: "charge"; lineItemId: string; priceCents: number; idempotencyKey: string; description: string }
  | { kind: "refuse"; reason: "no-usage-line" | "cap" };

/**
 * The key names the block, not the attempt: every instance and every retry that begins block n of
 * a shop's month sends the same key, so the platform charges it once.
 */
export function overageIdempotencyKey(shop: string, period: string, block: number): string {
  return `saved-items-overage:${shop}:${period}:${block}`;
}

/** How block `block` of the month is charged, given the platform's usage line item. */
export function chargeForBlock(input: {
  shop: string;
  period: string;
  block: number;
  blockRequests: number;
  priceCents: number;
  usageLine: UsageLine | undefined;
}): BlockCharge {
  const { usageLine, priceCents } = input;
  if (!usageLine) return { kind: "refuse", reason: "no-usage-line" };
  if (usageLine.cappedCents - usageLine.balanceUsedCents < priceCents) return { kind: "refuse", reason: "cap" };
  return {
    kind: "charge",
    lineItemId: usageLine.id,
    priceCents,
    idempotencyKey: overageIdempotencyKey(input.shop, input.period, input.block),
    description: `Saved Items: ${input.blockRequests.toLocaleString("en-US")} requests past the monthly budget (${input.period}, block ${input.block})`,
  };
}
