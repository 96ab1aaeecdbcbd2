import type { ItemState } from "~/services/records/stored-values";

export type ItemAction = "save" | "remove" | "toggle";

/** What the state table (§3) says to do for one item, given its current state (null: no item). */
export type Transition =
  | { kind: "unchanged"; state: ItemState }
  | { kind: "error"; code: "DUPLICATE_SAVE" | "ITEM_NOT_FOUND" }
  | { kind: "activate" }
  | { kind: "deactivate" };

export function decideTransition(action: ItemAction, current: ItemState | null): Transition {
  switch (action) {
    case "save":
      return current === "active" ? { kind: "error", code: "DUPLICATE_SAVE" } : { kind: "activate" };
    case "remove":
      if (current === null) return { kind: "error", code: "ITEM_NOT_FOUND" };
      return current === "removed" ? { kind: "unchanged", state: "removed" } : { kind: "deactivate" };
    case "toggle":
      return current === "active" ? { kind: "deactivate" } : { kind: "activate" };
  }
}
