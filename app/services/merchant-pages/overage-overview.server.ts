import { clock } from "~/lib/clock";
import { readOverageStatus } from "~/services/billing/overage-choice.server";
import { pricingPlansUrl } from "~/services/billing/pricing-page";
import { OVERAGE_BLOCK_REQUESTS, overageBlockPriceCents, type Plan } from "~/services/plans";
import { monthlyUsage, nextPeriodStart, usagePeriod } from "~/services/usage/monthly-budget.server";
import { overagePause, overageThisMonth } from "~/services/usage/overage.server";
import { decideBudgetState, type BudgetFacts } from "./budget-state";

/** The month's budget and overage as the app's records hold them: database reads, no platform call. */
async function readBudgetFacts(shop: string, plan: Plan): Promise<BudgetFacts> {
  const now = clock.now();
  const blockPriceCents = overageBlockPriceCents(plan);
  const [used, thisMonth, overage] = await Promise.all([
    monthlyUsage(shop, now),
    overageThisMonth(shop, usagePeriod(now)),
    blockPriceCents === undefined
      ? { enabled: false, capCents: null, pausedAt: null, resumedAt: null }
      : readOverageStatus(shop),
  ]);
  return {
    planName: plan.name,
    used,
    budget: plan.monthlyRequests,
    blockPriceCents,
    blockRequests: OVERAGE_BLOCK_REQUESTS,
    overage: { enabled: overage.enabled, capCents: overage.capCents },
    paused: await overagePause(shop, overage),
    pastBudget: thisMonth.requests,
    blocksCharged: thisMonth.blocks,
    chargedCents: thisMonth.chargedCents,
    resetsAt: nextPeriodStart(now),
  };
}

/** The budget's state as every admin page shows it: the frame's banner, Home's and Plans' figures. */
export async function getBudgetView(shop: string, plan: Plan) {
  return decideBudgetState(await readBudgetFacts(shop, plan));
}

/** The plans page's usage and overage section: the budget's state and, on a paid plan, the overage form. */
export async function getOverageOverview(shop: string, plan: Plan) {
  const facts = await readBudgetFacts(shop, plan);
  return {
    budget: decideBudgetState(facts),
    pastBudget: facts.pastBudget,
    blocksCharged: facts.blocksCharged,
    chargedCents: facts.chargedCents,
    overage:
      facts.blockPriceCents === undefined
        ? null
        : {
            blockRequests: OVERAGE_BLOCK_REQUESTS,
            blockPriceCents: facts.blockPriceCents,
            enabled: facts.overage.enabled,
            capCents: facts.overage.capCents,
            // Set while the velocity guard holds billing until the merchant resumes (decision 0018).
            paused: facts.paused && {
              since: facts.paused.since.toISOString(),
              blocksInHour: facts.paused.blocksInHour,
            },
            // The usage price is part of the plan, shown and approved on the platform's plan page.
            pricingPlansUrl: pricingPlansUrl(shop),
          },
  };
}
