import type { PlanChannel } from "~/services/channels";

/** The list the theme's blocks save to unless the merchant names another (their `context` setting's default). */
export const DEFAULT_LIST_CONTEXT = "wishlist";
/** The list the cart's save-for-later block writes (its `context` setting's default). */
export const SAVE_FOR_LATER_CONTEXT = "saved-for-later";

/**
 * The storefront's two default lists: a session with the theme's blocks shows both (buttons and
 * hearts read the default list, the cart drawer the saved-for-later list), so the read that fills
 * one from the platform fills the other in the same request when the page shows both (decisions
 * 0015, 0025).
 */
const STOREFRONT_COMPANIONS: ReadonlyMap<string, string> = new Map([
  [DEFAULT_LIST_CONTEXT, SAVE_FOR_LATER_CONTEXT],
  [SAVE_FOR_LATER_CONTEXT, DEFAULT_LIST_CONTEXT],
]);

/**
 * The list read along with `context`, if any: the storefront's other default list, and only when
 * the page says it shows that one too (`shown`, the list query's `companion`, which the theme sends
 * when a block of the other list is on the page and its state is not fresh). A page of buttons and
 * hearts alone reads its one list, at the price it had before lists were read together (decision
 * 0025). Only on the storefront: other channels (the account page, point of sale, headless
 * backends) show one list at a time and would pay for a list they never show.
 */
export function storefrontCompanion(
  channel: PlanChannel,
  context: string,
  shown: string | undefined,
): string | undefined {
  if (channel !== "online-store" || shown === undefined) return undefined;
  const companion = STOREFRONT_COMPANIONS.get(context);
  return companion === shown ? companion : undefined;
}
