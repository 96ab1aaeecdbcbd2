import type { SavedList } from "../../../shared/wire";
import { DEFAULT_LIST_CONTEXT } from "./constants";

/** Lists asked for per page: the most the service gives, so nearly every customer needs one. */
export const LISTS_PAGE_SIZE = 100;
/** The service's bound on a list's name (trimmed). */
export const MAX_LIST_NAME_LENGTH = 60;

/** What a list is called on the page: its name, else the default list's title, else its key. */
export function listTitle(list: Pick<SavedList, "context" | "name">, defaultTitle: string): string {
  if (list.name) return list.name;
  return list.context === DEFAULT_LIST_CONTEXT ? defaultTitle : list.context;
}

/** The lists with `list` in place of the one with its context, or first when it is new. */
export function withList(lists: readonly SavedList[], list: SavedList): SavedList[] {
  return lists.some((entry) => entry.context === list.context)
    ? lists.map((entry) => (entry.context === list.context ? list : entry))
    : [list, ...lists];
}

export function withoutList(lists: readonly SavedList[], context: string): SavedList[] {
  return lists.filter((entry) => entry.context !== context);
}

/** After an item of `context` was removed on the page: its count one less. */
export function withItemRemoved(lists: readonly SavedList[], context: string): SavedList[] {
  return lists.map((entry) =>
    entry.context === context ? { ...entry, itemCount: Math.max(0, entry.itemCount - 1) } : entry,
  );
}
