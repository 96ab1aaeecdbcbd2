import type { TokenBucketRule } from "~/infrastructure/coordination/coordinator.server";
import { getCoordinator } from "~/infrastructure/coordination/shared-coordinator.server";
import { ServiceError } from "~/lib/errors";
import { errorFields, writeLog } from "~/lib/json-log";
import type { PlatformPointsPayer } from "~/lib/request-context.server";
import { lastBucketObservation } from "~/platform/shop-buckets.server";
import { addressKey } from "~/services/direct-access/exchange-limits.server";
import { callerPointsRule } from "./platform-points";

/**
 * One customer's operations on one shop: a burst of 30 (a page of hearts, a quick run of clicks)
 * and 2 a second after that. A person never gets near it; a loop does, and is stopped before the
 * shop's budget is touched.
 */
export const CUSTOMER_OPERATION_RATE = { capacity: 30, refillPerSecond: 2 } as const;

/**
 * One viewer address's opens of the shared page on one shop (docs/rate-limits.md, "Shared page"),
 * valid links or not, taken before the token is looked up: a burst of 20, then one every 5 s. A
 * person opening links never gets near it; a client trying tokens is stopped after 20 lookups,
 * and spends neither the shop's budget nor the rate that logged-out viewers share.
 */
export const SHARED_PAGE_VIEWER_RATE = { capacity: 20, refillPerSecond: 0.2 } as const;

/** RATE_LIMITED, with Retry-After, when the viewer's address is over its shared-page rate. */
export async function assertSharedPageViewerWithinRate(shop: string, viewerAddress: string): Promise<void> {
  const key = `rate:shared-page:${shop}:${addressKey(viewerAddress)}`;
  await assertWithinRate(key, SHARED_PAGE_VIEWER_RATE, "Too many shared lists opened from this address");
}

/**
 * One staff member's point-of-sale reads on one shop, whichever customers they name
 * (docs/rate-limits.md, "Point of sale"): a burst of 20 and one every 5 s after that. At a busy
 * counter a staff member opens a customer's list a few times per customer, about one customer a
 * minute; a token looping over customer ids is stopped after 20.
 */
export const STAFF_OPERATION_RATE = { capacity: 20, refillPerSecond: 0.2 } as const;

/** RATE_LIMITED, with Retry-After, when the staff member is over their rate. */
export async function assertStaffWithinRate(shop: string, staff: string): Promise<void> {
  await assertWithinRate(
    `rate:staff:${shop}:${staff}`,
    STAFF_OPERATION_RATE,
    "Too many requests from this staff member",
  );
}

/**
 * Platform reads of shared lists (docs/rate-limits.md, "Shared page"), taken only when the page is
 * not in the shared-page cache: `link` per link the app made (its token carries the shop's MAC), so
 * a link read again and again waits alone and every other link is untouched; `unsigned` per shop
 * for every other token (links made before tokens carried the MAC, and guesses), so no number of
 * addresses trying tokens costs the shop more than this many metaobject searches. A page is cached
 * for 30 s and re-read after its owner's writes, so a real link needs a few reads a minute.
 */
export const SHARE_LOOKUP_RATE = {
  link: { capacity: 20, refillPerSecond: 0.2 },
  unsigned: { capacity: 30, refillPerSecond: 0.1 },
} as const;

/** RATE_LIMITED, with Retry-After, when a shared list may not be read from the platform now. */
export async function assertShareLookupWithinRate(shop: string, signedTokenHash: string | undefined): Promise<void> {
  if (signedTokenHash === undefined) {
    await assertWithinRate(
      `rate:share-lookup:${shop}`,
      SHARE_LOOKUP_RATE.unsigned,
      "Too many unknown share links opened",
    );
  } else {
    await assertWithinRate(
      `rate:share-link:${shop}:${signedTokenHash}`,
      SHARE_LOOKUP_RATE.link,
      "This shared list was opened too often",
    );
  }
}

/** RATE_LIMITED, with Retry-After, when the customer is over their rate. */
export async function assertCustomerWithinRate(shop: string, customerGid: string): Promise<void> {
  await assertWithinRate(
    `rate:customer:${shop}:${customerGid}`,
    CUSTOMER_OPERATION_RATE,
    "Too many requests from this customer",
  );
}

const pointsKey = (shop: string, customerGid: string) => `points:${shop}:${customerGid}`;

/**
 * What one request of the customer pays the shop's bucket with (payingPlatformPoints): its first
 * platform attempt is refused, RATE_LIMITED with Retry-After, while the customer owes points (what
 * their requests spent beyond their share, callerPointsRule, until its refill pays it off), and
 * every answer's points are charged to them, whatever the request's outcome. A request let through
 * runs to its end, so a batch is never cut in two by its own cost; one that waited for the
 * customer's list behind another of theirs is checked after it, when that one's points are known.
 */
export function customerPlatformPoints(shop: string, customerGid: string): PlatformPointsPayer {
  let checked = false;
  return {
    async beforeAttempt() {
      if (checked) return;
      checked = true;
      await assertWithinRate(
        pointsKey(shop, customerGid),
        callerPointsRule(lastBucketObservation(shop)),
        "This customer's requests have used their share of the shop's platform capacity",
        0,
      );
    },
    spent(points) {
      if (points <= 0) return;
      // Not awaited (the answer does not wait for the charge), so never left to reject: the
      // production server exits on an unhandled rejection.
      getCoordinator()
        .spendTokens(pointsKey(shop, customerGid), callerPointsRule(lastBucketObservation(shop)), points)
        .catch((error: unknown) =>
          writeLog("warn", "platform points not charged", { shop, points, error: errorFields(error) }),
        );
    },
  };
}

async function assertWithinRate(key: string, rule: TokenBucketRule, who: string, cost = 1): Promise<void> {
  const decision = await getCoordinator().takeTokens(key, rule, cost);
  if (!decision.allowed) {
    throw new ServiceError("RATE_LIMITED", `${who}; slow down and retry shortly`, {
      retryAfterSeconds: decision.retryAfterMs / 1000,
    });
  }
}
