import { ServiceError } from "~/lib/errors";
import type { Plan } from "~/services/plans";
import { admitNewLists, tooManyListsError } from "./storage-bounds";

/**
 * The list operations' decisions, as pure functions (docs/decisions/0011-named-lists.md): what a
 * list's and the customer's directory's current records allow, and what the directory becomes.
 * The I/O around them (named-lists.server.ts) holds the locks, reads by handle and writes.
 */

/** A save_list as these decisions need it: null when it was never written. */
export interface ListStatus {
  deleted: boolean;
  name: string | null;
}

/** The customer's directory: the lists create-list made, and every list stored (the bound on lists counts these). */
export interface ListDirectory {
  named: readonly string[];
  lists: readonly string[];
}

/**
 * create-list: a list that exists and is not deleted is taken, unless it already has the name asked
 * for: then it is this same create repeated (a retry after a lost answer) and answers the list, so
 * a retry never makes a second list or fails one that succeeded. Past the plan's limit is refused,
 * and so is a list not yet stored past the bound on a customer's lists (storage-bounds.ts); a list
 * stored before the directory counted lists is counted now.
 */
export function decideCreateList(
  list: ListStatus | null,
  directory: ListDirectory,
  request: { context: string; name: string },
  plan: Plan,
  retentionMs: number,
): { kind: "refuse"; error: ServiceError } | { kind: "exists" } | { kind: "create"; directory: ListDirectory } {
  const { context } = request;
  if (list && !list.deleted) {
    if (list.name === request.name) return { kind: "exists" };
    return {
      kind: "refuse",
      error: new ServiceError("LIST_EXISTS", `You already have a list with the key ${context}`),
    };
  }
  const others = directory.named.filter((named) => named !== context);
  if (others.length >= plan.maxNamedLists) {
    return {
      kind: "refuse",
      error: new ServiceError(
        "PLAN_LIMIT_REACHED",
        `The ${plan.name} plan allows ${plan.maxNamedLists} lists made with create-list; delete one to make another`,
      ),
    };
  }
  const { admitted, lists } = admitNewLists(list ? [context, ...directory.lists] : directory.lists, [context]);
  if (!admitted.has(context)) return { kind: "refuse", error: tooManyListsError(retentionMs) };
  return { kind: "create", directory: { named: [context, ...others], lists: [...new Set(lists)] } };
}

/** rename-list and delete-list act on a list that exists and is not deleted, or answer NOT_FOUND. */
export function assertListExists<T extends ListStatus>(list: T | null, context: string): T {
  if (!list || list.deleted) throw new ServiceError("NOT_FOUND", `You have no list with the key ${context}`);
  return list;
}

/**
 * The named lists after delete-list, or null when the list was not among them (nothing to write).
 * The stored lists are not written: a deleted list stays stored, and counted, until retention
 * deletes it, and delete-list's removals may have just counted a list stored before lists were.
 */
export function directoryWithout(directory: ListDirectory, context: string): Pick<ListDirectory, "named"> | null {
  return directory.named.includes(context) ? { named: directory.named.filter((named) => named !== context) } : null;
}

/**
 * lists: the lists the customer's directory names (every list stored, newest stored first, 0017)
 * that the first page of search may have missed because they were written in the last moments
 * (search lags writes; 0011). A page that ends the search holds every list search has, so it
 * misses each it does not hold; a page with more after it holds the newest lists search has, so
 * only those the directory names before the first it holds can be newer than all of them.
 */
export function listsSearchMissed(
  directoryLists: readonly string[],
  found: ReadonlySet<string>,
  hasNextPage: boolean,
): string[] {
  const first = directoryLists.findIndex((context) => found.has(context));
  const newer = hasNextPage && first >= 0 ? directoryLists.slice(0, first) : directoryLists;
  return newer.filter((context) => !found.has(context));
}

/**
 * How many of the first search page's results the first page of lists shows after the `missed`
 * lists search did not have yet (newer than any it has, so first): what fits in `limit`, and at
 * least one, so the next page starts after a search result and misses none.
 */
export function searchResultsShown(missed: number, found: number, limit: number): number {
  return Math.min(found, Math.max(1, limit - missed));
}
