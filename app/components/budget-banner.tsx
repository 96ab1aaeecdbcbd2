import { Banner, Box } from "@shopify/polaris";
import type { BudgetBannerView } from "~/services/merchant-pages/budget-state";

/** On every admin page: what the budget's state means for shoppers, and what the merchant can do. */
export function BudgetBanner({ banner }: { banner: BudgetBannerView | null }) {
  if (!banner) return null;
  return (
    <Box padding="400">
      <Banner tone={banner.tone} title={banner.title} action={banner.action}>
        {banner.body}
      </Banner>
    </Box>
  );
}
