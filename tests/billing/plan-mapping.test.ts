import { describe, expect, test } from "vitest";
import { planKeyFromSubscriptions, type SubscriptionSummary } from "~/services/billing/plan-refresh.server";
import { loggedLines } from "../support/logs";

const subscription = (
  name: string,
  planHandle: string | null,
  status: SubscriptionSummary["status"] = "ACTIVE",
): SubscriptionSummary => ({
  name,
  status,
  lineItems: [{ plan: { pricingDetails: { __typename: "AppRecurringPricing", planHandle } } }],
});

describe("which plan a shop's subscriptions pay for", () => {
  test("no active subscription is Free", () => {
    expect(planKeyFromSubscriptions([])).toBe("free");
    expect(
      planKeyFromSubscriptions([subscription("Pro", "pro", "CANCELLED"), subscription("Scale", "scale", "PENDING")]),
    ).toBe("free");
  });

  test("the plan handle wins over the name, which may be renamed in the Partner Dashboard", () => {
    expect(planKeyFromSubscriptions([subscription("Pro (2027 pricing)", "pro")])).toBe("pro");
    expect(planKeyFromSubscriptions([subscription("Starter", "scale")])).toBe("scale");
  });

  test("without a handle the name decides, case-insensitively", () => {
    expect(planKeyFromSubscriptions([subscription("Scale", null)])).toBe("scale");
    expect(planKeyFromSubscriptions([{ name: "starter", status: "ACTIVE", lineItems: [] }])).toBe("starter");
  });

  test("a free App Pricing plan that creates a subscription is still Free", () => {
    expect(planKeyFromSubscriptions([subscription("Free", "free")])).toBe("free");
  });

  test("overlapping active subscriptions during a change resolve to the larger plan; unknown ones count as Free", () => {
    const logged = loggedLines();
    expect(planKeyFromSubscriptions([subscription("Starter", "starter"), subscription("Pro", "pro")])).toBe("pro");
    expect(planKeyFromSubscriptions([subscription("Enterprise", "enterprise")])).toBe("free");
    expect(logged({ level: "warn", text: "matches no plan" })).toHaveLength(1);
  });
});
