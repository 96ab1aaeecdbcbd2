import { capAllowsBlock } from "~/services/usage/overage-decision";

/**
 * The one decision of what the admin says about this month's budget (docs/merchants.md, "Budget
 * state"): the frame's banner on every page, Home's requests card and the Plans page all read the
 * view made here, so no two of them can disagree, and the percentage is computed only here.
 */

/** The share of the budget at which the admin warns. */
export const BUDGET_WARNING_PERCENT = 80;

/** Where the merchant turns overage on or changes its cap: the Plans page's overage form. */
export const OVERAGE_FORM_URL = "/app/plans#overage";

/** What the app's records say about the shop's month, as read for one admin page. */
export interface BudgetFacts {
  planName: string;
  used: number;
  budget: number;
  /** The plan's price of an overage block; undefined when the plan has no overage (Free). */
  blockPriceCents: number | undefined;
  blockRequests: number;
  overage: { enabled: boolean; capCents: number | null };
  /** Set while the velocity guard holds overage billing until the merchant resumes it (decision 0018). */
  paused: { since: Date; blocksInHour: number } | null;
  /** Requests served past the budget this month, the blocks billed for them and their amount. */
  pastBudget: number;
  blocksCharged: number;
  chargedCents: number;
  resetsAt: Date;
}

export type BudgetStateKind =
  /** Below the warning share. */
  | "under"
  /** From 80% of the budget, not yet spent. */
  | "nearing"
  /** Spent on a paid plan with overage off: requests are refused. */
  | "spent"
  /** Spent on a plan without overage (Free): requests are refused until the month ends or an upgrade. */
  | "spent-no-overage"
  /** Spent with overage on: requests are served and billed per block. */
  | "overage-serving"
  /** Spent, overage on, and the velocity guard paused billing: requests are refused until the merchant resumes. */
  | "overage-paused"
  /** Spent, overage on, and the merchant's cap leaves no room for another block: requests are refused. */
  | "overage-cap-reached";

export interface BudgetBannerView {
  tone: "info" | "warning" | "critical";
  title: string;
  body: string;
  action: { content: string; url: string };
}

export interface BudgetView {
  kind: BudgetStateKind;
  used: number;
  budget: number;
  /** Of the budget, floored to a tenth so it reads 100 only once the budget is spent. */
  percentUsed: number;
  /** Shoppers' requests past the budget are refused now. */
  refusing: boolean;
  /** The frame's banner on every admin page; null when there is nothing to say. */
  banner: BudgetBannerView | null;
  /** What happens past the budget, in the state the shop is in: Home's requests card and the Plans page. */
  summary: string;
  resetsAt: string;
}

const number = (value: number) => value.toLocaleString("en-US");
const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;
const day = (at: Date) => at.toLocaleDateString("en-US", { dateStyle: "long", timeZone: "UTC" });

function kindOf(facts: BudgetFacts, percentUsed: number): BudgetStateKind {
  if (facts.used < facts.budget) return percentUsed >= BUDGET_WARNING_PERCENT ? "nearing" : "under";
  if (facts.blockPriceCents === undefined) return "spent-no-overage";
  const { enabled, capCents } = facts.overage;
  if (!enabled || capCents === null) return "spent";
  if (facts.paused) return "overage-paused";
  // As the billing decides (nextBlock): served while a billed block has requests left, or the cap takes another.
  const paidLeft = facts.blocksCharged * facts.blockRequests - facts.pastBudget;
  if (paidLeft > 0 || capAllowsBlock(facts.chargedCents, facts.blockPriceCents, capCents)) return "overage-serving";
  return "overage-cap-reached";
}

export function decideBudgetState(facts: BudgetFacts): BudgetView {
  const percentUsed = Math.min(100, Math.floor((facts.used / facts.budget) * 1000) / 10);
  const kind = kindOf(facts, percentUsed);
  const resets = day(facts.resetsAt);
  const cap = facts.overage.capCents === null ? "" : dollars(facts.overage.capCents);
  const price =
    facts.blockPriceCents === undefined
      ? ""
      : `${dollars(facts.blockPriceCents)} per ${number(facts.blockRequests)} requests`;
  const overageOn = facts.overage.enabled && facts.overage.capCents !== null;
  const plans = { content: "See plans", url: "/app/plans" };
  const pastIt =
    facts.blockPriceCents === undefined
      ? `Past it, shoppers' requests are refused until ${resets}; the ${facts.planName} plan has no overage, so only an upgrade keeps serving them.`
      : overageOn
        ? `Past it, overage keeps serving shoppers, billed at ${price} up to your ${cap} monthly cap.`
        : `Past it, shoppers' requests are refused until ${resets} unless you turn overage on (${price}, up to a cap you set) or upgrade.`;

  const views: Record<BudgetStateKind, Pick<BudgetView, "banner" | "summary">> = {
    under: { banner: null, summary: pastIt },
    nearing: {
      banner: {
        tone: "warning",
        title: `${percentUsed}% of this month's request budget is used`,
        body: pastIt,
        action:
          overageOn || facts.blockPriceCents === undefined
            ? plans
            : { content: "Turn overage on", url: OVERAGE_FORM_URL },
      },
      summary: pastIt,
    },
    spent: {
      banner: {
        tone: "critical",
        title: "This month's request budget is spent",
        body: `Shoppers' requests are refused with PLAN_LIMIT_REACHED until ${resets}. Turn overage on to keep serving them (${price}, up to a cap you set), or upgrade.`,
        action: { content: "Turn overage on", url: OVERAGE_FORM_URL },
      },
      summary: `The budget is spent: shoppers' requests are refused with PLAN_LIMIT_REACHED until ${resets}, unless you turn overage on or upgrade.`,
    },
    "spent-no-overage": {
      banner: {
        tone: "critical",
        title: "This month's request budget is spent",
        body: `Shoppers' requests are refused with PLAN_LIMIT_REACHED until ${resets}. The ${facts.planName} plan has no overage: upgrade to keep serving them.`,
        action: plans,
      },
      summary: `The budget is spent: shoppers' requests are refused with PLAN_LIMIT_REACHED until ${resets}. The ${facts.planName} plan has no overage; an upgrade serves them again at once.`,
    },
    "overage-serving": {
      banner: {
        tone: "info",
        title: "Overage is serving shoppers past this month's budget",
        body: `${number(facts.pastBudget)} requests past the budget so far, billed ${dollars(facts.chargedCents)} of your ${cap} monthly cap (${price}). The budget resets on ${resets}.`,
        action: { content: "Change the cap", url: OVERAGE_FORM_URL },
      },
      summary: `The budget is spent and overage is serving shoppers: ${number(facts.pastBudget)} requests past it, ${dollars(facts.chargedCents)} billed of your ${cap} monthly cap.`,
    },
    "overage-paused": {
      banner: {
        tone: "critical",
        title: "Overage billing is paused for review",
        body: `Overage began blocks faster than this shop usually uses it, so billing stopped and shoppers' requests past the budget are refused with PLAN_LIMIT_REACHED. Check the traffic on the Plans page, then resume overage to serve them again.`,
        action: { content: "Review and resume", url: OVERAGE_FORM_URL },
      },
      summary: `The budget is spent and overage billing is paused for review: shoppers' requests are refused with PLAN_LIMIT_REACHED until you resume overage on the Plans page, or until ${resets}.`,
    },
    "overage-cap-reached": {
      banner: {
        tone: "critical",
        title: "Your overage cap is reached",
        body: `Overage has billed ${dollars(facts.chargedCents)} of your ${cap} monthly cap, and another block at ${dollars(facts.blockPriceCents ?? 0)} would pass it, so shoppers' requests are refused with PLAN_LIMIT_REACHED until ${resets}. Raise the cap to serve them again.`,
        action: { content: "Raise the cap", url: OVERAGE_FORM_URL },
      },
      summary: `The budget is spent and overage reached your ${cap} monthly cap: shoppers' requests are refused with PLAN_LIMIT_REACHED until ${resets}, unless you raise the cap.`,
    },
  };
  return {
    kind,
    used: facts.used,
    budget: facts.budget,
    percentUsed,
    refusing: kind !== "under" && kind !== "nearing" && kind !== "overage-serving",
    ...views[kind],
    resetsAt: facts.resetsAt.toISOString(),
  };
}
