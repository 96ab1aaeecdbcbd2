import { plainRoute } from "./exchange";
import { jsonReply, NOT_FOUND, textReply, type Reply } from "./reply";
import {
  shopByDomain,
  type EmulatorState,
  type ShopState,
  type Subscription,
  type UsageLine,
  type UsageRecord,
} from "./state";

/**
 * Usage charges on a subscription (Shopify App Pricing's usage line item): a capped amount per
 * billing interval, usage records against it (appUsageRecordCreate, where a repeated idempotency
 * key answers with the record it first created and charges nothing), and a change of the capped
 * amount (appSubscriptionLineItemUpdate) that applies only once the merchant approves it on the
 * platform's confirmation page. Amounts are kept in cents.
 */
export const USAGE_LINE_INDEX = 1;

/** The terms the merchant approved with the plan; a new plan's capped amount is 0 until they approve one. */
export const usageTerms = "Requests past the plan's monthly budget, per block of 1,000, when overage is on";

export const usageLineItemId = (subscription: Subscription) =>
  `gid://shopify/AppSubscriptionLineItem/${subscription.id}?v=1&index=${USAGE_LINE_INDEX}`;

const money = (cents: number) => ({ amount: (cents / 100).toFixed(2), currencyCode: "USD" });
const toCents = (amount: string) => Math.round(Number(amount) * 100);
const balanceUsed = (line: UsageLine) => line.records.reduce((sum, record) => sum + record.priceCents, 0);

export function usageLineView(subscription: Subscription) {
  const line = subscription.usage;
  return {
    id: usageLineItemId(subscription),
    plan: {
      pricingDetails: {
        __typename: "AppUsagePricing",
        balanceUsed: money(balanceUsed(line)),
        cappedAmount: money(line.cappedCents),
        interval: "EVERY_30_DAYS",
        terms: usageTerms,
      },
    },
  };
}

function recordView(subscription: Subscription, record: UsageRecord) {
  return {
    id: `gid://shopify/AppUsageRecord/${record.id}`,
    description: record.description,
    price: money(record.priceCents),
    idempotencyKey: record.idempotencyKey,
    createdAt: record.createdAt.toISOString(),
    subscriptionLineItem: usageLineView(subscription),
  };
}

const userError = (field: string[], message: string) => ({ field, message });

function usageLineNamed(shop: ShopState, id: string): Subscription | undefined {
  const subscription = shop.subscription;
  return subscription && usageLineItemId(subscription) === id ? subscription : undefined;
}

const confirmationPath = (subscription: Subscription) =>
  `/admin/charges/${subscription.id}/confirm_update_capped_amount`;

/** The mutations of the admin root that usage charges add. */
export function usageBillingMutations(state: EmulatorState, shop: ShopState) {
  return {
    appUsageRecordCreate: (args: {
      subscriptionLineItemId: string;
      price: { amount: string; currencyCode: string };
      description: string;
      idempotencyKey?: string | null;
    }) => {
      const subscription = usageLineNamed(shop, args.subscriptionLineItemId);
      if (!subscription) {
        return {
          appUsageRecord: null,
          userErrors: [userError(["subscriptionLineItemId"], "Subscription line item not found")],
        };
      }
      const line = subscription.usage;
      const repeated = args.idempotencyKey
        ? line.records.find((record) => record.idempotencyKey === args.idempotencyKey)
        : undefined;
      if (repeated) return { appUsageRecord: recordView(subscription, repeated), userErrors: [] };
      const priceCents = toCents(args.price.amount);
      if (balanceUsed(line) + priceCents > line.cappedCents) {
        return { appUsageRecord: null, userErrors: [userError(["price"], "Total price exceeds balance remaining")] };
      }
      const record: UsageRecord = {
        id: state.nextId(),
        description: args.description,
        priceCents,
        idempotencyKey: args.idempotencyKey ?? null,
        createdAt: state.now(),
      };
      line.records.push(record);
      return { appUsageRecord: recordView(subscription, record), userErrors: [] };
    },
    appSubscriptionLineItemUpdate: (args: { id: string; cappedAmount: { amount: string; currencyCode: string } }) => {
      const subscription = usageLineNamed(shop, args.id);
      if (!subscription) {
        return {
          appSubscription: null,
          confirmationUrl: null,
          userErrors: [userError(["id"], "Subscription line item not found")],
        };
      }
      subscription.usage.pendingCappedCents = toCents(args.cappedAmount.amount);
      return {
        appSubscription: null,
        confirmationUrl: `https://${shop.domain}${confirmationPath(subscription)}`,
        userErrors: [],
      };
    },
  };
}

/**
 * The merchant's decision on a capped amount, as the platform's confirmation page takes it: GET
 * shows the page, POST with decision=approve|decline applies it and sends the merchant back to
 * the subscription's return URL.
 */
const CONFIRM_URL =
  /^https:\/\/([a-z0-9][a-z0-9-]*\.myshopify\.com)\/admin\/charges\/(\d+)\/confirm_update_capped_amount$/;

function pendingLine(state: EmulatorState, domain: string | undefined, id: string | undefined) {
  const subscription = shopByDomain(state, domain)?.subscription;
  return subscription && String(subscription.id) === id && subscription.usage.pendingCappedCents !== undefined
    ? subscription
    : undefined;
}

export function cappedAmountConfirmationRoutes(state: EmulatorState) {
  const page = (subscription: Subscription): Reply =>
    textReply(
      200,
      `<!doctype html><html lang="en"><title>Approve capped amount</title><main><h1>Approve a new capped amount</h1>` +
        `<p>${usageTerms}: up to $${money(subscription.usage.pendingCappedCents ?? 0).amount} each 30 days.</p>` +
        `<form method="post"><button name="decision" value="approve">Approve</button>` +
        `<button name="decision" value="decline">Decline</button></form></main></html>`,
      "text/html; charset=utf-8",
    );
  return [
    plainRoute(state, {
      api: "admin",
      method: "GET",
      url: CONFIRM_URL,
      shopOf: ([domain]) => domain ?? "",
      handle: (_request, [domain, id]) => {
        const subscription = pendingLine(state, domain, id);
        return subscription ? page(subscription) : NOT_FOUND;
      },
    }),
    plainRoute(state, {
      api: "admin",
      method: "POST",
      url: CONFIRM_URL,
      shopOf: ([domain]) => domain ?? "",
      handle: async (request, [domain, id]) => {
        const subscription = pendingLine(state, domain, id);
        if (!subscription) return NOT_FOUND;
        const decision = new URLSearchParams(await request.text()).get("decision");
        if (decision !== "approve" && decision !== "decline") return jsonReply(400, { errors: "decision" });
        decideCappedAmount(subscription, decision === "approve");
        return jsonReply(303, null, { Location: returnUrlOf(shopByDomain(state, domain)!) });
      },
    }),
  ];
}

export function decideCappedAmount(subscription: Subscription, approved: boolean): void {
  const line = subscription.usage;
  if (approved && line.pendingCappedCents !== undefined) line.cappedCents = line.pendingCappedCents;
  line.pendingCappedCents = undefined;
}

/** Where the platform sends the merchant after a charge decision: the app's welcome link. */
export const returnUrlOf = (shop: ShopState) => `https://${shop.domain}/admin/apps`;
