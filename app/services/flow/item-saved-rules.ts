import type { TokenBucketRule } from "~/infrastructure/coordination/coordinator.server";
import { DEFAULT_LIST_CONTEXT, SAVE_FOR_LATER_CONTEXT } from "~/services/saved-items/contexts";

/**
 * How often Item saved may fire (issue #31 A7; docs/reach.md). A toggle is one budget unit and a
 * batch of 50 toggles one more, so without these a shopper turned a few units into a trigger (a
 * platform request, and whatever the merchant's workflow sends) per toggle.
 */

/** One (customer, saved entity) fires once in this window, however often it is saved, removed and saved again. */
export const ITEM_SAVED_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * A bucket of one token that takes the window to refill: its first take passes, every other within
 * the window is refused, and the coordinator drops the key once it is full again (a SET NX with a TTL).
 */
export const ONCE_PER_WINDOW: TokenBucketRule = { capacity: 1, refillPerSecond: 1000 / ITEM_SAVED_WINDOW_MS };

/**
 * One shopper's triggers: 10 at once, then one every 6 minutes, so one account saving product after
 * product cannot take the shop's rate below from the other shoppers.
 */
export const CUSTOMER_RATE: TokenBucketRule = { capacity: 10, refillPerSecond: 1 / 360 };

/**
 * The shop's triggers: 60 at once, then one a second (86,400 first saves a day). Each is a
 * flowTriggerReceive, about a tenth of a Standard shop's restore rate at that pace; what is over
 * it is dropped, never queued.
 */
export const SHOP_RATE: TokenBucketRule = { capacity: 60, refillPerSecond: 1 };

/** How often a shop's dropped triggers are logged (counted always, in flow_triggers_dropped_total). */
export const DROP_LOG_RULE: TokenBucketRule = { capacity: 1, refillPerSecond: 1 / 3600 };

/** The "List name" Item saved sends: the list's kind, never the key the shopper's client chose. */
export type ListKind = typeof DEFAULT_LIST_CONTEXT | typeof SAVE_FOR_LATER_CONTEXT | "other";

/**
 * The storefront's two lists keep the values workflows compared against before; every other list
 * (create-list's, a block set to another key, a headless client's) is "other": its key and its
 * display name are text a shopper may choose, and would reach the merchant's emails and tags.
 */
export function listKindOf(context: string): ListKind {
  return context === DEFAULT_LIST_CONTEXT || context === SAVE_FOR_LATER_CONTEXT ? context : "other";
}
