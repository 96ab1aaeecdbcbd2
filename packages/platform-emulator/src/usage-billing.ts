import type { EmulatorState, ShopState, Subscription } from "./state";

/**
 * What the Admin API keeps of usage charges for the emulated subscriptions, which are all Shopify
 * App Pricing ones (the plan page): their usage is billed through the App Events API
 * (app-events.ts). appUsageRecordCreate and appSubscriptionLineItemUpdate belong to subscriptions
 * an app creates itself with the Billing API ("About manual pricing"), so here they refuse with a
 * user error, the shape their payloads answer with; the platform's own wording is not documented.
 */
export const USAGE_LINE_INDEX = 1;

/** The usage terms shown on the plan page. */
export const usageTerms = "Requests past the plan's monthly budget, per block of 1,000, when overage is on";

export const usageLineItemId = (subscription: Subscription) =>
  `gid://shopify/AppSubscriptionLineItem/${subscription.id}?v=1&index=${USAGE_LINE_INDEX}`;

const ZERO = { amount: "0.00", currencyCode: "USD" };

/**
 * The usage line item the Admin API lists on an App Pricing subscription. Whether the platform
 * lists one there at all is not documented (and App Pricing meters have no cap), so it carries
 * nothing an app could bill against: no capped amount, no balance.
 */
export function usageLineView(subscription: Subscription) {
  return {
    id: usageLineItemId(subscription),
    plan: {
      pricingDetails: {
        __typename: "AppUsagePricing",
        balanceUsed: ZERO,
        cappedAmount: ZERO,
        interval: "EVERY_30_DAYS",
        terms: usageTerms,
      },
    },
  };
}

const MANAGED_BY_APP_PRICING =
  "This subscription is managed by Shopify App Pricing: report usage as billing events through the App Events API";

/** The Billing API's usage mutations, refused for an App Pricing subscription. */
export function usageBillingMutations(_state: EmulatorState, _shop: ShopState) {
  return {
    appUsageRecordCreate: () => ({
      appUsageRecord: null,
      userErrors: [{ field: ["subscriptionLineItemId"], message: MANAGED_BY_APP_PRICING }],
    }),
    appSubscriptionLineItemUpdate: () => ({
      appSubscription: null,
      confirmationUrl: null,
      userErrors: [{ field: ["id"], message: MANAGED_BY_APP_PRICING }],
    }),
  };
}

/** Where the platform sends the merchant after a charge decision: the app's welcome link. */
export const returnUrlOf = (shop: ShopState) => `https://${shop.domain}/admin/apps`;
