import { ServiceError } from "~/lib/errors";
import type { Plan } from "~/services/plans";

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

/**
 * create-list: a list that exists and is not deleted is taken, unless it already has the name asked
 * for: then it is this same create repeated (a retry after a lost answer) and answers the list, so
 * a retry never makes a second list or fails one that succeeded. Past the plan's limit is refused.
 */
export function decideCreateList(
  list: ListStatus | null,
  namedLists: readonly string[],
  request: { context: string; name: string },
  plan: Plan,
): { kind: "refuse"; error: ServiceError } | { kind: "exists" } | { kind: "create"; namedLists: string[] } {
  const { context } = request;
  if (list && !list.deleted) {
    if (list.name === request.name) return { kind: "exists" };
    return {
      kind: "refuse",
      error: new ServiceError("LIST_EXISTS", `You already have a list with the key ${context}`),
    };
  }
  const others = namedLists.filter((named) => named !== context);
  if (others.length >= plan.maxNamedLists) {
    return {
      kind: "refuse",
      error: new ServiceError(
        "PLAN_LIMIT_REACHED",
        `The ${plan.name} plan allows ${plan.maxNamedLists} lists made with create-list; delete one to make another`,
      ),
    };
  }
  return { kind: "create", namedLists: [context, ...others] };
}

/** rename-list and delete-list act on a list that exists and is not deleted, or answer NOT_FOUND. */
export function assertListExists<T extends ListStatus>(list: T | null, context: string): T {
  if (!list || list.deleted) throw new ServiceError("NOT_FOUND", `You have no list with the key ${context}`);
  return list;
}

/** The directory after delete-list, or null when the list was not in it (nothing to write). */
export function directoryWithout(namedLists: readonly string[], context: string): string[] | null {
  return namedLists.includes(context) ? namedLists.filter((named) => named !== context) : null;
}

/** A json field's stored list of strings; anything else is an empty list. */
export function storedStrings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === "string") : [];
}
