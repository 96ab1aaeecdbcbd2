import { Banner, Box } from "@shopify/polaris";

interface BudgetBannerProps {
  alert: { level: "warning" | "spent"; percent: number } | null;
  /** The plan has overage, which the merchant may turn on instead of having requests refused. */
  overageAvailable: boolean;
}

/** On every admin page: this month's budget at 80% and at 100%, and what the merchant can do. */
export function BudgetBanner({ alert, overageAvailable }: BudgetBannerProps) {
  if (!alert) return null;
  const remedy = overageAvailable
    ? "Upgrade, or turn overage on to keep serving past the budget."
    : "Upgrade to keep serving shoppers this month.";
  return (
    <Box padding="400">
      <Banner
        tone={alert.level === "spent" ? "critical" : "warning"}
        title={
          alert.level === "spent"
            ? "This month's request budget is spent"
            : `${alert.percent}% of this month's request budget is used`
        }
        action={{ content: "See plans", url: "/app/plans" }}
      >
        {alert.level === "spent"
          ? `Requests past the budget are refused unless overage is on. ${remedy}`
          : `When the budget is spent, requests are refused unless overage is on. ${remedy}`}
      </Banner>
    </Box>
  );
}
