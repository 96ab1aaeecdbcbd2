import { describe, expect, test } from "vitest";
import { decideBudgetState, OVERAGE_FORM_URL, type BudgetFacts } from "./budget-state";

const starter: BudgetFacts = {
  planName: "Starter",
  used: 0,
  budget: 5_000,
  blockPriceCents: 200,
  blockRequests: 1_000,
  overage: { enabled: false, capCents: null },
  pastBudget: 0,
  blocksCharged: 0,
  chargedCents: 0,
  paused: null,
  resetsAt: new Date("2026-12-01T00:00:00Z"),
};
const free: BudgetFacts = { ...starter, planName: "Free", budget: 500, blockPriceCents: undefined };
const overageOn = { enabled: true, capCents: 2_000 };

describe("the budget's state, as every admin page shows it", () => {
  test("under budget: no banner, and what happens past it", () => {
    const view = decideBudgetState({ ...starter, used: 3_999 });
    expect(view).toMatchObject({ kind: "under", percentUsed: 79.9, refusing: false, banner: null });
    expect(view.summary).toContain("unless you turn overage on");
  });

  test("at 80%: a warning whose action turns overage on, or says overage will serve when it is on", () => {
    const off = decideBudgetState({ ...starter, used: 4_000 });
    expect(off).toMatchObject({ kind: "nearing", percentUsed: 80, refusing: false });
    expect(off.banner).toMatchObject({ tone: "warning", title: "80% of this month's request budget is used" });
    expect(off.banner!.action).toEqual({ content: "Turn overage on", url: OVERAGE_FORM_URL });
    const on = decideBudgetState({ ...starter, used: 4_000, overage: overageOn });
    expect(on.banner!.body).toBe(
      "Past it, overage keeps serving shoppers, billed at $2.00 per 1,000 requests up to your $20.00 monthly cap.",
    );
  });

  test("spent with overage off: refused, and the banner turns overage on", () => {
    const view = decideBudgetState({ ...starter, used: 5_000 });
    expect(view).toMatchObject({ kind: "spent", percentUsed: 100, refusing: true });
    expect(view.banner).toMatchObject({ tone: "critical", title: "This month's request budget is spent" });
    expect(view.banner!.body).toContain("refused with PLAN_LIMIT_REACHED until December 1, 2026");
    expect(view.banner!.action.url).toBe(OVERAGE_FORM_URL);
  });

  test("overage serving ($2 of a $20 cap): no refusal, no 'turn overage on', an info banner with what was billed", () => {
    const view = decideBudgetState({
      ...starter,
      used: 5_000,
      overage: overageOn,
      pastBudget: 400,
      blocksCharged: 1,
      chargedCents: 200,
    });
    expect(view).toMatchObject({ kind: "overage-serving", percentUsed: 100, refusing: false });
    expect(view.banner).toMatchObject({ tone: "info", title: "Overage is serving shoppers past this month's budget" });
    expect(view.banner!.body).toContain("400 requests past the budget so far, billed $2.00 of your $20.00 monthly cap");
    for (const text of [view.banner!.title, view.banner!.body, view.summary]) {
      expect(text).not.toMatch(/refused|turn overage on|PLAN_LIMIT_REACHED/i);
    }
  });

  test("the last block of the cap still has requests: serving; once they are spent: the cap is reached, with the way to raise it", () => {
    const atCap = { ...starter, used: 5_000, overage: overageOn, blocksCharged: 10, chargedCents: 2_000 };
    expect(decideBudgetState({ ...atCap, pastBudget: 9_999 }).kind).toBe("overage-serving");
    const view = decideBudgetState({ ...atCap, pastBudget: 10_000 });
    expect(view).toMatchObject({ kind: "overage-cap-reached", refusing: true });
    expect(view.banner).toMatchObject({ tone: "critical", title: "Your overage cap is reached" });
    expect(view.banner!.action).toEqual({ content: "Raise the cap", url: OVERAGE_FORM_URL });
    expect(view.summary).toContain("unless you raise the cap");
  });

  test("overage paused by the velocity guard: refusing, never 'serving', with the way to review and resume", () => {
    const paused = { since: new Date("2026-11-20T10:00:00Z"), blocksInHour: 2 };
    const view = decideBudgetState({
      ...starter,
      used: 5_000,
      overage: overageOn,
      blocksCharged: 2,
      chargedCents: 400,
      pastBudget: 2_000,
      paused,
    });
    expect(view).toMatchObject({ kind: "overage-paused", refusing: true });
    expect(view.banner).toMatchObject({ tone: "critical", title: "Overage billing is paused for review" });
    expect(view.banner!.action).toEqual({ content: "Review and resume", url: OVERAGE_FORM_URL });
    expect(view.summary).toContain("until you resume overage");
    // A pause the merchant left while turning overage off says what overage off means.
    expect(decideBudgetState({ ...starter, used: 5_000, paused }).kind).toBe("spent");
  });

  test("a cap below one block's price is reached as soon as the budget is spent", () => {
    const view = decideBudgetState({ ...starter, used: 5_000, overage: { enabled: true, capCents: 100 } });
    expect(view.kind).toBe("overage-cap-reached");
  });

  test("Free: never offers overage, at 80% or spent", () => {
    const nearing = decideBudgetState({ ...free, used: 450 });
    const spent = decideBudgetState({ ...free, used: 500 });
    expect(nearing.kind).toBe("nearing");
    expect(spent).toMatchObject({ kind: "spent-no-overage", refusing: true });
    expect(spent.banner!.body).toContain("The Free plan has no overage: upgrade to keep serving them.");
    for (const view of [nearing, spent]) {
      expect([view.banner!.body, view.banner!.action.content, view.summary].join(" ")).not.toMatch(/turn overage on/i);
    }
  });

  test("the percentage is floored to a tenth: 5 of 5,000 reads 0.1%, 4,999 of 5,000 never reads 100%", () => {
    expect(decideBudgetState({ ...starter, used: 5 }).percentUsed).toBe(0.1);
    expect(decideBudgetState({ ...starter, used: 4_999 }).percentUsed).toBe(99.9);
    expect(decideBudgetState({ ...starter, used: 7_000 }).percentUsed).toBe(100);
  });
});
