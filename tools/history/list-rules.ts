// The checker's rules for the list itself and its share link (docs/development.md, "The list and
// its link"): the list operations' answers, their unknown outcomes, and what an item write does to
// the list. The list's state is kept in the same number as the items' (checker.ts), above their
// base-3 digits: `list + 4 × link`.
import type { ListKind, Operation } from "./history";

// Never made (0, where every history starts), made by a save (unnamed) or by create-list (named),
// or deleted; the link: none, one whose token no answer told (a share-create without an answer),
// or the token of the share-create whose id is `link - LINK_OF_SHARE`.
const LIST_UNNAMED = 1;
const LIST_NAMED = 2;
const LIST_DELETED = 3;
const LIST_STATE_NAMES = ["none", "unnamed", "named", "deleted"] as const;
const LINK_NONE = 0;
const LINK_UNTOLD = 1;
const LINK_OF_SHARE = 2;

/** The list operations whose unknown outcomes a configuration counts, after the items' three kinds each. */
export const LIST_UNKNOWN_KINDS: readonly ListKind[] = ["create-list", "delete-list", "share-create", "share-revoke"];

export interface ListRules {
  /** The states after a list operation's answer from `states`; none where the answer rules that out. */
  step(operation: Operation, states: number): number[];
  /** The states an unknown list operation that took effect leaves; none where it would change nothing. */
  applyUnknown(kind: ListKind, states: number): number[];
  /** After an answer nothing explains: the states as if it told the truth. */
  forced(operation: Operation, states: number): number;
  /** After an item write that wrote the list's index: a list never made or deleted is made again, unnamed. */
  indexed(states: number): number;
  /** "named, link of #12", for an anomaly's report. */
  describe(states: number): string;
}

/**
 * The rules for one list: `span` is where the list's state starts in the number (3 to the items'
 * count), `removeAll` delete-list's removal of every active item, and `operations` the list's,
 * whose answered tokens are the links they made.
 */
export function listRules(
  span: number,
  removeAll: (states: number) => number,
  operations: readonly Operation[],
): ListRules {
  const listOf = (states: number) => Math.floor(states / span) % 4;
  const linkOf = (states: number) => Math.floor(states / span / 4);
  const withList = (states: number, list: number, link = linkOf(states)) => (states % span) + span * (list + 4 * link);
  const live = (states: number) => listOf(states) === LIST_UNNAMED || listOf(states) === LIST_NAMED;
  const deleted = (states: number) => withList(removeAll(states), LIST_DELETED, LINK_NONE);
  // Each answered token is its share-create's; a shared-list of another token constrains nothing.
  const tokens = new Map(
    operations.flatMap((operation) =>
      operation.kind === "share-create" && operation.status === 200 && operation.token
        ? [[operation.token, LINK_OF_SHARE + operation.id] as const]
        : [],
    ),
  );
  const tokenOf = (operation: Operation) => (operation.token === undefined ? undefined : tokens.get(operation.token));

  return {
    step(operation, states) {
      const found = operation.status === 200;
      switch (operation.kind) {
        case "create-list":
          if (!found) return listOf(states) === LIST_UNNAMED ? [states] : [];
          return listOf(states) === LIST_UNNAMED ? [] : [withList(states, LIST_NAMED)];
        case "delete-list":
          if (!found) return live(states) ? [] : [states];
          return live(states) ? [deleted(states)] : [];
        case "share-create": {
          if (!found) return live(states) ? [] : [states];
          const token = tokenOf(operation);
          return live(states) && token !== undefined ? [withList(states, listOf(states), token)] : [];
        }
        case "share-revoke":
          if (!found) return live(states) ? [] : [states];
          if (!live(states) || operation.revoked !== (linkOf(states) !== LINK_NONE)) return [];
          return [withList(states, listOf(states), LINK_NONE)];
        case "shared-list": {
          const token = tokenOf(operation);
          if (token === undefined) return [states];
          return live(states) && linkOf(states) === token ? [states] : [];
        }
        default:
          return [];
      }
    },

    applyUnknown(kind, states) {
      if (!live(states)) return kind === "create-list" ? [withList(states, LIST_NAMED)] : [];
      switch (kind) {
        case "create-list":
          return [];
        case "delete-list":
          // It may have removed the items and failed before marking the list deleted.
          return [...new Set([removeAll(states), deleted(states)])].filter((next) => next !== states);
        case "share-create":
          return [withList(states, listOf(states), LINK_UNTOLD)];
        default:
          return linkOf(states) === LINK_NONE ? [] : [withList(states, listOf(states), LINK_NONE)];
      }
    },

    forced(operation, states) {
      const found = operation.status === 200;
      const liveState = live(states) ? listOf(states) : LIST_NAMED;
      if (operation.kind === "create-list") return withList(states, found ? LIST_NAMED : LIST_UNNAMED);
      if (!found) return withList(states, LIST_DELETED, LINK_NONE);
      if (operation.kind === "delete-list") return deleted(states);
      if (operation.kind === "share-revoke") return withList(states, liveState, LINK_NONE);
      return withList(states, liveState, tokenOf(operation) ?? LINK_NONE);
    },

    indexed: (states) => (live(states) ? states : withList(states, LIST_UNNAMED, LINK_NONE)),

    describe(states) {
      const link = linkOf(states);
      const name = link === LINK_NONE ? "none" : link === LINK_UNTOLD ? "untold" : `of #${link - LINK_OF_SHARE}`;
      return `${LIST_STATE_NAMES[listOf(states)]}, link ${name}`;
    },
  };
}
