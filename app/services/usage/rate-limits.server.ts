import type { TokenBucketRule } from "~/lib/coordination/coordinator.server";
import { getCoordinator } from "~/lib/coordination/shared-coordinator.server";
import { ServiceError } from "~/lib/errors";
import { addressKey } from "~/services/direct-access/exchange-limits.server";

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

async function assertWithinRate(key: string, rule: TokenBucketRule, who: string): Promise<void> {
  const decision = await getCoordinator().takeTokens(key, rule);
  if (!decision.allowed) {
    throw new ServiceError("RATE_LIMITED", `${who}; slow down and retry shortly`, {
      retryAfterSeconds: decision.retryAfterMs / 1000,
    });
  }
}
