import type { PlanChannel } from "~/services/channels";

/** The list the theme's blocks save to unless the merchant names another (their `context` setting's default). */
export const DEFAULT_LIST_CONTEXT = "wishlist";
/** The list the cart's save-for-later block writes (its `context` setting's default). */
export const SAVE_FOR_LATER_CONTEXT = "saved-for-later";

/**
 * The storefront's two default lists: a session with the theme's blocks shows both (buttons and
 * hearts read the default list, the cart drawer the saved-for-later list), so the read that fills
 * one from the platform fills the other in the same request (decision 0015).
 */
const STOREFRONT_COMPANIONS: ReadonlyMap<string, string> = new Map([
  [DEFAULT_LIST_CONTEXT, SAVE_FOR_LATER_CONTEXT],
  [SAVE_FOR_LATER_CONTEXT, DEFAULT_LIST_CONTEXT],
]);

/**
 * The list read along with `context`, if any. Only on the storefront: other channels (the account
 * page, point of sale, headless backends) show one list at a time and would pay for a list they
 * never show.
 */
export function storefrontCompanion(channel: PlanChannel, context: string): string | undefined {
  return channel === "online-store" ? STOREFRONT_COMPANIONS.get(context) : undefined;
}
