import type { BlockConfig } from "./block-config";
import { mergeGuestSaves } from "./merge-guest-saves";
import { callProxy } from "./proxy-client";

/** A list of the shopper's, as /lists answers it; `name` is null for a list never named. */
export interface NamedList {
  context: string;
  name: string | null;
  itemCount: number;
}

/**
 * The shopper's lists (the first 100: more than a theme's picker can show), newest first, and the
 * block's own list (its setting) first when the service has none yet: a save there creates it.
 * Read once the guest saves are merged: read beside the merge, the counts would be from before it.
 */
export async function namedLists(config: BlockConfig): Promise<NamedList[]> {
  await mergeGuestSaves(config);
  return withBlockList(config, (await callProxy<{ lists: NamedList[] }>(config, "lists", { limit: "100" })).lists);
}

export const withBlockList = (config: BlockConfig, lists: NamedList[]): NamedList[] =>
  lists.some((list) => list.context === config.context)
    ? lists
    : [{ context: config.context, name: null, itemCount: 0 }, ...lists];

/**
 * What a list is called in the theme: its name, else "Default list" for the block's own, "Saved for
 * later" for the cart block's (its setting's default), else "Untitled list". Never its key: a key
 * is whatever a client picked ("list-3f2a…", "ctx-x") and means nothing to a shopper.
 */
export const listLabel = (config: BlockConfig, list: NamedList): string =>
  list.name ||
  config.text(
    list.context === config.context ? "default" : list.context === "saved-for-later" ? "for-later" : "unnamed",
  );
