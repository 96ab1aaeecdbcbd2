import { Banner, Page } from "@shopify/polaris";
import type { BudgetBannerView } from "~/services/merchant-pages/budget-state";

/**
 * On every admin page: what the budget's state means for shoppers, and what the merchant can do.
 * In a Page of its own, so it takes the width and margins of the page's content below it.
 */
export function BudgetBanner({ banner }: { banner: BudgetBannerView | null }) {
  if (!banner) return null;
  return (
    <Page>
      <Banner tone={banner.tone} title={banner.title} action={banner.action}>
        {banner.body}
      </Banner>
    </Page>
  );
}
