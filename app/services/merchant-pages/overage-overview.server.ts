import { clock } from "~/lib/clock";
import { readOverageStatus } from "~/services/billing/overage-choice.server";
import { pricingPlansUrl } from "~/services/billing/pricing-page";
import { OVERAGE_BLOCK_REQUESTS, overageBlockPriceCents, type Plan } from "~/services/plans";
import { monthlyUsage, usagePeriod } from "~/services/usage/monthly-budget.server";
import { overagePause, overageThisMonth } from "~/services/usage/overage.server";

/** The share of the budget at which the admin warns, and at which it says the budget is spent. */
export const BUDGET_WARNING_PERCENT = 80;

export type BudgetAlert = { level: "warning"; percent: number } | { level: "spent"; percent: 100 } | null;

/** What the banner on every admin page says about this month's budget. */
export function budgetAlert(used: number, budget: number): BudgetAlert {
  const percent = Math.floor((used / budget) * 100);
  if (percent >= 100) return { level: "spent", percent: 100 };
  if (percent >= BUDGET_WARNING_PERCENT) return { level: "warning", percent };
  return null;
}

/** The banner's figures: one database read per admin page load. */
export async function getBudgetAlert(shop: string, plan: Plan) {
  const used = await monthlyUsage(shop, clock.now());
  return {
    alert: budgetAlert(used, plan.monthlyRequests),
    overageAvailable: overageBlockPriceCents(plan) !== undefined,
  };
}

/** The plans page's usage and overage section: the app's records only, no platform call. */
export async function getOverageOverview(shop: string, plan: Plan) {
  const now = clock.now();
  const period = usagePeriod(now);
  const priceCents = overageBlockPriceCents(plan);
  const [used, thisMonth, status] = await Promise.all([
    monthlyUsage(shop, now),
    overageThisMonth(shop, period),
    priceCents === undefined ? undefined : readOverageStatus(shop),
  ]);
  const pause = status ? await overagePause(shop, status) : null;
  return {
    used,
    budget: plan.monthlyRequests,
    pastBudget: thisMonth.requests,
    blocksCharged: thisMonth.blocks,
    chargedCents: thisMonth.chargedCents,
    overage:
      priceCents === undefined || !status
        ? null
        : {
            blockRequests: OVERAGE_BLOCK_REQUESTS,
            blockPriceCents: priceCents,
            enabled: status.enabled,
            capCents: status.capCents,
            // Set while the velocity guard holds billing until the merchant resumes (decision 0018).
            paused: pause && { since: pause.since.toISOString(), blocksInHour: pause.blocksInHour },
            // The usage price is part of the plan, shown and approved on the platform's plan page.
            pricingPlansUrl: pricingPlansUrl(shop),
          },
  };
}
