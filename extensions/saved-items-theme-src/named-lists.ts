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
 * The shopper's lists (the first 100: more than a theme's picker can show), newest first. Read
 * once the guest saves are merged: read beside the merge, the counts would be from before it.
 */
export async function shopperLists(config: BlockConfig): Promise<NamedList[]> {
  await mergeGuestSaves(config);
  return (await callProxy<{ lists: NamedList[] }>(config, "lists", { limit: "100" })).lists;
}

/** The lists to save to: the shopper's, and the block's own (its setting) first when the service has none yet: a save there creates it. */
export const namedLists = async (config: BlockConfig): Promise<NamedList[]> =>
  withBlockList(config, await shopperLists(config));

export const withBlockList = (config: BlockConfig, lists: NamedList[]): NamedList[] =>
  lists.some((list) => list.context === config.context)
    ? lists
    : [{ context: config.context, name: null, itemCount: 0 }, ...lists];

/**
 * The list the manager shows first: the block's own when the shopper has it, else their newest
 * list holding items, else their newest; the block's own (empty) only when they have no list.
 */
export const openingList = (config: BlockConfig, lists: NamedList[]): string =>
  (
    lists.find((list) => list.context === config.context) ||
    lists.find((list) => list.itemCount > 0) ||
    lists[0] || { context: config.context }
  ).context;

/**
 * The shopper's lists after a change's answer, and the list to show then. `list` replaces the
 * entry of `context` (a rename keeps its place) or is new (first, as /lists orders them: newest
 * first), and a new one is shown; without `list`, `context` was deleted. The list `shown` stays
 * shown unless it was the one deleted: a change answered after a switch does not undo the switch.
 */
export function afterChange(
  config: BlockConfig,
  lists: NamedList[],
  shown: string,
  context: string,
  list?: NamedList,
): { lists: NamedList[]; shown: string } {
  const at = lists.findIndex((entry) => entry.context === context);
  const next = lists.filter((entry) => entry.context !== context);
  if (list) next.splice(Math.max(at, 0), 0, list);
  if (list && at < 0) return { lists: next, shown: list.context };
  return { lists: next, shown: next.some((entry) => entry.context === shown) ? shown : openingList(config, next) };
}

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
