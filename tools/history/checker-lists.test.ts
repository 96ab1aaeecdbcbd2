// The checker's rules for the list operations and share links (issue 42): what create-list,
// delete-list, share-create, share-revoke and shared-list may answer after what, on handcrafted
// histories and against a brute-force definition on random ones.
import { describe, expect, test } from "vitest";
import { checkHistory } from "./checker";
import { outcomeOf, served, type Operation, type OperationKind } from "./history";

const A = "gid://shopify/Product/1";
const WISHLIST = "shop/customer-1/wishlist";

type Reply =
  | { state: "active" | "removed" }
  | { saved: boolean }
  | { token: string }
  | { revoked: boolean }
  | { status: number; code: string }
  | "ok"
  | "timeout";

/** Operations on one list, [invoked, answered] in ms; shared-list's token is its input. */
function ops(
  ...entries: (readonly [kind: OperationKind, at: readonly [number, number], reply: Reply, input?: string])[]
): Operation[] {
  return entries.map(([kind, [invokedAt, completedAt], reply, input], id) => {
    const operation: Operation = { id, client: id, channel: "headless", list: WISHLIST, kind, invokedAt, status: 200 };
    if (["save", "remove", "toggle", "is-saved"].includes(kind)) operation.item = A;
    if (input) operation.token = input;
    if (reply === "timeout") return { ...operation, status: 0, code: "client timeout" };
    return { ...operation, completedAt, ...(reply === "ok" ? {} : reply) };
  });
}

const found = (operations: Operation[]) =>
  checkHistory(operations, { items: new Map([[WISHLIST, [A]]]) }).anomalies.map((anomaly) => anomaly.operation.id);

const NOT_FOUND = { status: 404, code: "NOT_FOUND" };

describe("share links and deleted lists", () => {
  test("a link that opens after delete-list answered is an anomaly; one read beside the delete is not", () => {
    const before = [
      ["create-list", [0, 10], "ok"],
      ["share-create", [20, 30], { token: "t1" }],
    ] as const;
    expect(found(ops(...before, ["delete-list", [40, 50], "ok"], ["shared-list", [60, 70], "ok", "t1"]))).toEqual([3]);
    expect(found(ops(...before, ["delete-list", [40, 50], "ok"], ["shared-list", [45, 70], "ok", "t1"]))).toEqual([]);
    // A read that found nothing constrains nothing: search may not have the link yet.
    expect(found(ops(...before, ["shared-list", [40, 50], NOT_FOUND, "t1"]))).toEqual([]);
  });

  test("share-create answered 200 after delete-list answered, with nothing that makes the list again, is an anomaly", () => {
    const deleted = [
      ["create-list", [0, 10], "ok"],
      ["delete-list", [20, 30], "ok"],
    ] as const;
    expect(found(ops(...deleted, ["share-create", [40, 50], { token: "t1" }]))).toEqual([2]);
    expect(found(ops(...deleted, ["share-create", [40, 50], NOT_FOUND]))).toEqual([]);
    // A save makes the list again (unnamed), and then it can be shared.
    expect(
      found(ops(...deleted, ["save", [40, 50], { state: "active" }], ["share-create", [60, 70], { token: "t1" }])),
    ).toEqual([]);
    // A share of a list never made.
    expect(found(ops(["share-create", [0, 10], { token: "t1" }]))).toEqual([0]);
  });

  test("a revoked or replaced link that opens is an anomaly; the new one opens", () => {
    const shared = [
      ["save", [0, 10], { state: "active" }],
      ["share-create", [20, 30], { token: "t1" }],
    ] as const;
    expect(
      found(ops(...shared, ["share-revoke", [40, 50], { revoked: true }], ["shared-list", [60, 70], "ok", "t1"])),
    ).toEqual([3]);
    expect(
      found(ops(...shared, ["share-create", [40, 50], { token: "t2" }], ["shared-list", [60, 70], "ok", "t1"])),
    ).toEqual([3]);
    expect(
      found(ops(...shared, ["share-create", [40, 50], { token: "t2" }], ["shared-list", [60, 70], "ok", "t2"])),
    ).toEqual([]);
    // revoked=false where the list has a link, and revoked=true twice in a row.
    expect(found(ops(...shared, ["share-revoke", [40, 50], { revoked: false }]))).toEqual([2]);
    expect(
      found(
        ops(...shared, ["share-revoke", [40, 50], { revoked: true }], ["share-revoke", [60, 70], { revoked: true }]),
      ),
    ).toEqual([3]);
  });

  test("delete-list removes every item and ends the link; create-list and LIST_EXISTS follow what made the list", () => {
    expect(
      found(
        ops(
          ["save", [0, 10], { state: "active" }],
          ["delete-list", [20, 30], "ok"],
          ["is-saved", [40, 50], { saved: true }],
        ),
      ),
    ).toEqual([2]);
    // A list a save made is unnamed: create-list finds it taken; after a delete it makes it again.
    expect(
      found(
        ops(
          ["save", [0, 10], { state: "active" }],
          ["create-list", [20, 30], { status: 409, code: "LIST_EXISTS" }],
          ["delete-list", [40, 50], "ok"],
          ["create-list", [60, 70], "ok"],
          ["create-list", [80, 90], "ok"],
          ["delete-list", [100, 110], "ok"],
          ["delete-list", [120, 130], NOT_FOUND],
        ),
      ),
    ).toEqual([]);
    expect(
      found(ops(["create-list", [0, 10], "ok"], ["create-list", [20, 30], { status: 409, code: "LIST_EXISTS" }])),
    ).toEqual([1]);
  });

  test("a delete-list without an answer may have taken effect, wholly or only on the items, or not at all", () => {
    const unanswered = [
      ["save", [0, 10], { state: "active" }],
      ["share-create", [20, 30], { token: "t1" }],
      ["delete-list", [40, 50], "timeout"],
    ] as const;
    expect(found(ops(...unanswered, ["shared-list", [60, 70], "ok", "t1"]))).toEqual([]);
    expect(found(ops(...unanswered, ["share-create", [60, 70], NOT_FOUND]))).toEqual([]);
    // Its items removed, the list not marked deleted: the link still opens and the item reads removed.
    expect(
      found(ops(...unanswered, ["is-saved", [60, 70], { saved: false }], ["shared-list", [80, 90], "ok", "t1"])),
    ).toEqual([]);
    // But not both deleted (share-create NOT_FOUND) and its link opening afterwards.
    expect(
      found(ops(...unanswered, ["share-create", [60, 70], NOT_FOUND], ["shared-list", [80, 90], "ok", "t1"])),
    ).toEqual([4]);
  });

  test("a link not found constrains nothing but is answered as the contract says; a 502 is neither", () => {
    const [missing, failed] = ops(
      ["shared-list", [0, 10], NOT_FOUND, "t1"],
      ["shared-list", [0, 10], { status: 502, code: "PLATFORM_UPSTREAM_ERROR" }, "t1"],
    );
    expect([outcomeOf(missing!), served(missing!)]).toEqual(["none", true]);
    expect([outcomeOf(failed!), served(failed!)]).toEqual(["none", false]);
  });

  test("on 3,000 small random histories it finds an anomaly exactly when no order of the operations explains them", () => {
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const verdicts = { linearizable: 0, not: 0 };
    for (let round = 0; round < 3_000; round++) {
      const operations = randomHistory(random);
      const expected = linearizable(operations);
      verdicts[expected ? "linearizable" : "not"]++;
      expect(found(operations).length === 0, JSON.stringify(operations)).toBe(expected);
    }
    expect(verdicts.linearizable).toBeGreaterThan(300);
    expect(verdicts.not).toBeGreaterThan(300);
  });
});

const REPLIES: Partial<Record<OperationKind, Reply[]>> = {
  save: [{ state: "active" }, { status: 409, code: "DUPLICATE_SAVE" }, "timeout"],
  remove: [{ state: "removed" }, { status: 404, code: "ITEM_NOT_FOUND" }],
  "is-saved": [{ saved: true }, { saved: false }],
  "create-list": ["ok", { status: 409, code: "LIST_EXISTS" }, "timeout"],
  "delete-list": ["ok", NOT_FOUND, "timeout"],
  "share-create": [{ token: "t" }, NOT_FOUND, "timeout"],
  "share-revoke": [{ revoked: true }, { revoked: false }, NOT_FOUND, "timeout"],
  "shared-list": ["ok", NOT_FOUND],
};

/** Four to seven operations, each answer drawn from what the operation can answer; share-create's tokens are its own. */
function randomHistory(random: () => number): Operation[] {
  const any = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
  const kinds = Object.keys(REPLIES) as OperationKind[];
  const entries: Parameters<typeof ops> = [];
  const count = 4 + Math.floor(random() * 4);
  for (let index = 0; index < count; index++) {
    const kind = any(kinds);
    const at = Math.floor(random() * 100);
    let reply = any(REPLIES[kind]!);
    if (typeof reply === "object" && "token" in reply) reply = { token: `t${index}` };
    entries.push([
      kind,
      [at, at + 1 + Math.floor(random() * 30)],
      reply,
      kind === "shared-list" ? `t${any([0, 1, 2, 3])}` : undefined,
    ]);
  }
  return ops(...entries);
}

interface State {
  item: "none" | "active" | "removed";
  list: "none" | "unnamed" | "named" | "deleted";
  link: string | null;
}

/**
 * The definition, by brute force: some subset of the unknown-outcome writes takes effect (an
 * unanswered delete-list wholly or on its items only), and some order of those and the answered
 * operations respects real time and the operations' rules.
 */
function linearizable(operations: Operation[]): boolean {
  const counted = operations.filter((operation) => outcomeOf(operation) !== "none");
  const tokens = new Set(
    operations.flatMap((operation) => (operation.kind === "share-create" && operation.token ? [operation.token] : [])),
  );
  const live = (state: State) => state.list === "unnamed" || state.list === "named";
  const indexed = (state: State): State => (live(state) ? state : { ...state, list: "unnamed", link: null });
  const removedAll = (state: State): State => ({ ...state, item: state.item === "active" ? "removed" : state.item });
  /** The states after `operation`; none where its answer is not allowed. */
  const next = (operation: Operation, state: State): State[] => {
    const ok = operation.status === 200;
    if (outcomeOf(operation) === "unknown") {
      switch (operation.kind) {
        case "save":
          return state.item === "active" ? [state] : [indexed({ ...state, item: "active" })];
        case "create-list":
          return live(state) ? [state] : [{ ...state, list: "named" }];
        case "delete-list":
          return live(state) ? [removedAll(state), { ...removedAll(state), list: "deleted", link: null }] : [state];
        case "share-create":
          return live(state) ? [{ ...state, link: "untold" }] : [state];
        default:
          return live(state) ? [{ ...state, link: null }] : [state];
      }
    }
    switch (operation.kind) {
      case "is-saved":
        return operation.saved === (state.item === "active") ? [state] : [];
      case "save":
        if (!ok) return state.item === "active" ? [state] : [];
        return state.item === "active" ? [] : [indexed({ ...state, item: "active" })];
      case "remove":
        if (!ok) return state.item === "none" ? [state] : [];
        if (state.item === "none") return [];
        return state.item === "active" ? [indexed({ ...state, item: "removed" })] : [state, indexed(state)];
      case "create-list":
        if (!ok) return state.list === "unnamed" ? [state] : [];
        return state.list === "unnamed" ? [] : [{ ...state, list: "named" }];
      case "delete-list":
        if (!ok) return live(state) ? [] : [state];
        return live(state) ? [{ ...removedAll(state), list: "deleted", link: null }] : [];
      case "share-create":
        if (!ok) return live(state) ? [] : [state];
        return live(state) ? [{ ...state, link: operation.token! }] : [];
      case "share-revoke":
        if (!ok) return live(state) ? [] : [state];
        return live(state) && operation.revoked === (state.link !== null) ? [{ ...state, link: null }] : [];
      default:
        // shared-list answered 200: its token must be the list's link, on a list not deleted.
        if (!tokens.has(operation.token!)) return [state];
        return live(state) && state.link === operation.token ? [state] : [];
    }
  };
  const orderable = (left: Operation[], state: State): boolean =>
    left.length === 0 ||
    left.some(
      (candidate) =>
        !left.some(
          (other) => other !== candidate && outcomeOf(other) === "known" && other.completedAt! < candidate.invokedAt,
        ) &&
        next(candidate, state).some((after) =>
          orderable(
            left.filter((other) => other !== candidate),
            after,
          ),
        ),
    );
  const known = counted.filter((operation) => outcomeOf(operation) === "known");
  const unknown = counted.filter((operation) => outcomeOf(operation) === "unknown");
  for (let subset = 0; subset < 2 ** unknown.length; subset++) {
    const applied = unknown.filter((_, index) => subset & (1 << index));
    if (orderable([...known, ...applied], { item: "none", list: "none", link: null })) return true;
  }
  return false;
}
