import { getCoordinator } from "~/lib/coordination/shared-coordinator.server";
import { ServiceError } from "~/lib/errors";

/**
 * One customer's operations on one shop: a burst of 30 (a page of hearts, a quick run of clicks)
 * and 2 a second after that. A person never gets near it; a loop does, and is stopped before the
 * shop's budget is touched.
 */
export const CUSTOMER_OPERATION_RATE = { capacity: 30, refillPerSecond: 2 } as const;

/** RATE_LIMITED, with Retry-After, when the customer is over their rate. */
export async function assertCustomerWithinRate(shop: string, customerGid: string): Promise<void> {
  const decision = await getCoordinator().takeTokens(`rate:customer:${shop}:${customerGid}`, CUSTOMER_OPERATION_RATE);
  if (!decision.allowed) {
    throw new ServiceError("RATE_LIMITED", "Too many requests from this customer; slow down and retry shortly", {
      retryAfterSeconds: decision.retryAfterMs / 1000,
    });
  }
}
