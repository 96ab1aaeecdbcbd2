// The six budget states of issue #32 (docs/merchants.md, "Budget state"), each as the app's records
// make it and with what the admin must say in it: the loader test (tests/admin/budget-states.test.ts)
// and the screenshot test (tests/e2e/screens.e2e.test.ts) produce them the same way.
import type { PrismaClient } from "@prisma/client";
import type { BudgetStateKind } from "~/services/merchant-pages/budget-state";
import type { PlanKey } from "~/services/plans";

export interface BudgetStateSetup {
  plan: PlanKey;
  /** This month's requests within the budget. */
  used: number;
  /** Overage on with this cap, `blocks` billed ($2 each) for `pastBudget` requests past the budget. */
  overage?: { capCents: number; blocks: number; pastBudget: number };
}

export interface BudgetStateCase {
  name: string;
  /** A name for files and shop domains. */
  slug: string;
  setup: BudgetStateSetup;
  /** The frame's banner title (null: no banner) and what Home's and Plans' summary says. */
  expected: { kind: BudgetStateKind; percent: number; title: string | null; says: RegExp };
}

export const BUDGET_STATES: BudgetStateCase[] = [
  {
    name: "under budget",
    slug: "under",
    setup: { plan: "starter", used: 5 },
    expected: { kind: "under", percent: 0.1, title: null, says: /turn overage on/ },
  },
  {
    name: "at 80%",
    slug: "nearing",
    setup: { plan: "starter", used: 4_000 },
    expected: {
      kind: "nearing",
      percent: 80,
      title: "80% of this month's request budget is used",
      says: /turn overage on/,
    },
  },
  {
    name: "spent with overage off",
    slug: "spent",
    setup: { plan: "starter", used: 5_000 },
    expected: {
      kind: "spent",
      percent: 100,
      title: "This month's request budget is spent",
      says: /refused with PLAN_LIMIT/,
    },
  },
  {
    name: "overage serving, 2 dollars of a 20-dollar cap",
    slug: "overage-serving",
    setup: { plan: "starter", used: 5_000, overage: { capCents: 2_000, blocks: 1, pastBudget: 300 } },
    expected: {
      kind: "overage-serving",
      percent: 100,
      title: "Overage is serving shoppers past this month's budget",
      says: /overage is serving shoppers: 300 requests past it, \$2\.00 billed of your \$20\.00 monthly cap/,
    },
  },
  {
    name: "overage cap reached",
    slug: "cap-reached",
    setup: { plan: "starter", used: 5_000, overage: { capCents: 2_000, blocks: 10, pastBudget: 10_000 } },
    expected: {
      kind: "overage-cap-reached",
      percent: 100,
      title: "Your overage cap is reached",
      says: /raise the cap/,
    },
  },
  {
    name: "Free plan, spent",
    slug: "free",
    setup: { plan: "free", used: 500 },
    expected: {
      kind: "spent-no-overage",
      percent: 100,
      title: "This month's request budget is spent",
      says: /no overage/,
    },
  },
];

/** Overage's records for `period`: the merchant's setting, the requests served past the budget, the blocks billed. */
export async function recordOverage(
  db: PrismaClient,
  shop: string,
  overage: NonNullable<BudgetStateSetup["overage"]>,
  period: string,
  at: Date,
): Promise<void> {
  const { capCents, blocks, pastBudget } = overage;
  await db.overageSetting.create({ data: { shopDomain: shop, enabled: true, capCents } });
  await db.overageUsage.create({ data: { shopDomain: shop, period, count: pastBudget } });
  await db.overageBlock.createMany({
    data: Array.from({ length: blocks }, (_, i) => ({
      shopDomain: shop,
      period,
      block: i + 1,
      priceCents: 200,
      idempotencyKey: `key-${i + 1}`,
      attemptedAt: at,
      sentAt: at,
    })),
  });
}
