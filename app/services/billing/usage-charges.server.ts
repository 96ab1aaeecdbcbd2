import { ServiceError } from "~/lib/errors";
import { runAdminGraphql, type AdminGraphqlClient } from "~/platform/admin-graphql.server";

/**
 * The platform's side of overage: the active subscription's usage line item (its capped amount
 * and what has been charged against it this billing interval), usage records, and the capped
 * amount's change, which the merchant approves on the platform. Amounts are US cents here.
 */
const USAGE_LINE = `#graphql
  query SavedItemsOverageUsageLine {
    currentAppInstallation {
      activeSubscriptions {
        status
        lineItems {
          id
          plan {
            pricingDetails {
              __typename
              ... on AppUsagePricing {
                cappedAmount {
                  amount
                  currencyCode
                }
                balanceUsed {
                  amount
                }
              }
            }
          }
        }
      }
    }
  }`;

const CREATE_USAGE_RECORD = `#graphql
  mutation SavedItemsOverageCharge(
    $lineItemId: ID!
    $price: MoneyInput!
    $description: String!
    $idempotencyKey: String!
  ) {
    appUsageRecordCreate(
      subscriptionLineItemId: $lineItemId
      price: $price
      description: $description
      idempotencyKey: $idempotencyKey
    ) {
      appUsageRecord {
        id
      }
      userErrors {
        field
        message
      }
    }
  }`;

const UPDATE_CAPPED_AMOUNT = `#graphql
  mutation SavedItemsOverageCapUpdate($lineItemId: ID!, $cappedAmount: MoneyInput!) {
    appSubscriptionLineItemUpdate(id: $lineItemId, cappedAmount: $cappedAmount) {
      confirmationUrl
      userErrors {
        field
        message
      }
    }
  }`;

export interface UsageLine {
  id: string;
  cappedCents: number;
  balanceUsedCents: number;
}

const toCents = (amount: unknown) => Math.round(Number(amount) * 100);
const toAmount = (cents: number) => ({ amount: (cents / 100).toFixed(2), currencyCode: "USD" as const });

/** The active subscription's usage line item, or undefined when its plan has none. */
export async function readUsageLine(admin: AdminGraphqlClient): Promise<UsageLine | undefined> {
  const data = await runAdminGraphql(admin, USAGE_LINE, {});
  for (const subscription of data.currentAppInstallation.activeSubscriptions) {
    if (subscription.status !== "ACTIVE") continue;
    for (const item of subscription.lineItems) {
      const details = item.plan.pricingDetails;
      if (details.__typename === "AppUsagePricing") {
        return {
          id: item.id,
          cappedCents: toCents(details.cappedAmount.amount),
          balanceUsedCents: toCents(details.balanceUsed.amount),
        };
      }
    }
  }
  return undefined;
}

/**
 * Creates a usage record, or returns the one an earlier call with the same key created (the
 * platform answers a repeated idempotency key with its first answer). "cap" when the charge would
 * pass the capped amount.
 */
export async function createUsageRecord(
  admin: AdminGraphqlClient,
  charge: { lineItemId: string; priceCents: number; description: string; idempotencyKey: string },
): Promise<{ recordGid: string } | "cap"> {
  const data = await runAdminGraphql(admin, CREATE_USAGE_RECORD, {
    lineItemId: charge.lineItemId,
    price: toAmount(charge.priceCents),
    description: charge.description,
    idempotencyKey: charge.idempotencyKey,
  });
  const payload = data.appUsageRecordCreate;
  const record = payload?.appUsageRecord;
  if (record) return { recordGid: record.id };
  const messages = (payload?.userErrors ?? []).map((error) => error.message);
  if (messages.some((message) => /balance remaining|capped amount/i.test(message))) return "cap";
  throw new ServiceError("PLATFORM_UPSTREAM_ERROR", `The platform refused an overage charge: ${messages.join("; ")}`);
}

/** Asks the platform to change the capped amount; resolves to the page where the merchant approves it. */
export async function requestCappedAmount(
  admin: AdminGraphqlClient,
  lineItemId: string,
  cappedCents: number,
): Promise<string> {
  const data = await runAdminGraphql(admin, UPDATE_CAPPED_AMOUNT, {
    lineItemId,
    cappedAmount: toAmount(cappedCents),
  });
  const payload = data.appSubscriptionLineItemUpdate;
  if (!payload?.confirmationUrl) {
    const messages = (payload?.userErrors ?? []).map((error) => error.message).join("; ");
    throw new ServiceError("PLATFORM_UPSTREAM_ERROR", `The platform refused the capped amount: ${messages}`);
  }
  return payload.confirmationUrl;
}
