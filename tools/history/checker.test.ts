// The history checker on handcrafted histories: it must find a lost write, a stale read and a
// write applied twice, and must accept what concurrency and unknown outcomes allow.
import { describe, expect, test } from "vitest";
import { checkHistory } from "./checker";
import { outcomeOf, type Operation, type OperationKind } from "./history";

const A = "gid://shopify/Product/1";
const B = "gid://shopify/Product/2";
const LIST = "shop/customer-1/wishlist";

type Answer =
  | { state: "active" | "removed" }
  | { saved: boolean }
  | { listed: string[] }
  | { status: number; code: string }
  | "no answer";

/** An operation on customer-1's wishlist, [invoked, completed] in ms. */
function history(
  ...entries: [kind: OperationKind, item: string | undefined, at: [number, number], answer: Answer][]
): Operation[] {
  return entries.map(([kind, item, [invokedAt, completedAt], answer], id) => {
    const operation: Operation = { id, client: id, channel: "proxy", list: LIST, kind, invokedAt, status: 200 };
    if (item) operation.item = item;
    if (answer === "no answer") return { ...operation, status: 0, code: "client timeout" };
    operation.completedAt = completedAt;
    return { ...operation, ...answer };
  });
}

const ok = (operations: Operation[]) => expect(checkHistory(operations).anomalies).toEqual([]);
/** The ids of the answers no linearization explains. */
const anomalies = (operations: Operation[]) =>
  checkHistory(operations).anomalies.map((anomaly) => anomaly.operation.id);

describe("anomalies it finds", () => {
  test("a lost write: a save answered active, a later read that does not see it, no remove", () => {
    const operations = history(["save", A, [0, 10], { state: "active" }], ["is-saved", A, [20, 30], { saved: false }]);
    expect(anomalies(operations)).toEqual([1]);
    const [anomaly] = checkHistory(operations).anomalies;
    expect(anomaly!.operations.map((operation) => operation.id)).toEqual([0, 1]);
    expect(anomaly!.possibleStates).toEqual([`${A}: active`]);
  });

  test("a lost write seen by a list", () => {
    expect(
      anomalies(history(["save", A, [0, 10], { state: "active" }], ["list", undefined, [20, 30], { listed: [] }])),
    ).toEqual([1]);
  });

  test("a list's anomaly names every item's possible states", () => {
    const [anomaly] = checkHistory(
      history(
        ["save", A, [0, 10], { state: "active" }],
        ["save", B, [0, 10], { state: "active" }],
        ["list", undefined, [20, 30], { listed: [A] }],
      ),
    ).anomalies;
    expect(anomaly!.possibleStates).toEqual([`${A}: active`, `${B}: active`]);
    expect(anomaly!.operations.map((operation) => operation.id)).toEqual([0, 1, 2]);
  });

  test("a stale read: a remove answered, a later read still saved", () => {
    expect(
      anomalies(
        history(
          ["save", A, [0, 10], { state: "active" }],
          ["remove", A, [20, 30], { state: "removed" }],
          ["is-saved", A, [40, 50], { saved: true }],
        ),
      ),
    ).toEqual([2]);
  });

  test("a write applied twice: two saves answered active one after the other, no remove between", () => {
    expect(
      anomalies(history(["save", A, [0, 10], { state: "active" }], ["save", A, [20, 30], { state: "active" }])),
    ).toEqual([1]);
  });

  test("two overlapping saves both answered active", () => {
    expect(
      anomalies(history(["save", A, [0, 30], { state: "active" }], ["save", A, [5, 25], { state: "active" }])),
    ).toHaveLength(1);
  });

  test("a remove answered removed, then a remove answered ITEM_NOT_FOUND (the item was forgotten)", () => {
    expect(
      anomalies(
        history(
          ["save", A, [0, 10], { state: "active" }],
          ["remove", A, [20, 30], { state: "removed" }],
          ["remove", A, [40, 50], { status: 404, code: "ITEM_NOT_FOUND" }],
        ),
      ),
    ).toEqual([2]);
  });

  test("a toggle's DUPLICATE_SAVE on an item nothing saved", () => {
    expect(anomalies(history(["toggle", A, [0, 10], { status: 409, code: "DUPLICATE_SAVE" }]))).toEqual([0]);
  });

  test("a read that an unknown-outcome save invoked after it cannot explain", () => {
    expect(
      anomalies(
        history(
          ["is-saved", A, [0, 10], { saved: true }],
          ["save", A, [20, 30], { status: 500, code: "INTERNAL_ERROR" }],
        ),
      ),
    ).toEqual([0]);
  });

  test("an unknown-outcome save seen, then unseen with no remove", () => {
    expect(
      anomalies(
        history(
          ["save", A, [0, 10], { status: 502, code: "PLATFORM_UPSTREAM_ERROR" }],
          ["is-saved", A, [20, 30], { saved: true }],
          ["is-saved", A, [40, 50], { saved: false }],
        ),
      ),
    ).toEqual([2]);
  });

  test("lists read at one point: two lists during two saves, each seeing only the other save", () => {
    // Item by item each list has a point; no single order puts both lists between the saves. (What
    // follows the first anomaly is checked as if that list were right, which the saves then contradict.)
    expect(
      anomalies(
        history(
          ["save", A, [0, 100], { state: "active" }],
          ["save", B, [0, 100], { state: "active" }],
          ["list", undefined, [10, 90], { listed: [A] }],
          ["list", undefined, [10, 90], { listed: [B] }],
        ),
      )[0],
    ).toBe(3);
  });

  test("after an anomaly the check goes on as if that answer were true, and finds the next one", () => {
    expect(
      anomalies(
        history(
          ["save", A, [0, 10], { state: "active" }],
          ["is-saved", A, [20, 30], { saved: false }],
          ["is-saved", A, [40, 50], { saved: false }],
          ["save", A, [60, 70], { status: 409, code: "DUPLICATE_SAVE" }],
        ),
      ),
    ).toEqual([1, 3]);
  });
});

describe("histories it accepts", () => {
  test("a read overlapping a save sees it or not", () => {
    ok(history(["save", A, [0, 20], { state: "active" }], ["is-saved", A, [5, 15], { saved: true }]));
    ok(history(["save", A, [0, 20], { state: "active" }], ["is-saved", A, [5, 15], { saved: false }]));
  });

  test("an unknown-outcome save later visible, or never visible", () => {
    const save: [OperationKind, string, [number, number], Answer] = [
      "save",
      A,
      [0, 10],
      { status: 500, code: "INTERNAL_ERROR" },
    ];
    ok(history(save, ["is-saved", A, [5_000, 5_010], { saved: true }]));
    ok(
      history(
        save,
        ["is-saved", A, [5_000, 5_010], { saved: false }],
        ["list", undefined, [6_000, 6_010], { listed: [] }],
      ),
    );
    ok(
      history(
        ["save", A, [0, 10], "no answer"],
        ["is-saved", A, [20, 30], { saved: false }],
        ["is-saved", A, [40, 50], { saved: true }],
      ),
    );
  });

  test("an unknown-outcome toggle may apply once", () => {
    ok(
      history(
        ["save", A, [0, 10], { state: "active" }],
        ["toggle", A, [20, 30], "no answer"],
        ["is-saved", A, [40, 50], { saved: true }],
        ["is-saved", A, [60, 70], { saved: false }],
        ["save", A, [80, 90], { state: "active" }],
      ),
    );
    // Once only: active, unseen, seen again would need it twice.
    expect(
      anomalies(
        history(
          ["save", A, [0, 10], { state: "active" }],
          ["toggle", A, [20, 30], "no answer"],
          ["is-saved", A, [40, 50], { saved: false }],
          ["is-saved", A, [60, 70], { saved: true }],
        ),
      ),
    ).toEqual([3]);
  });

  test("concurrent saves: one 200, the others DUPLICATE_SAVE", () => {
    ok(
      history(
        ["save", A, [0, 50], { status: 409, code: "DUPLICATE_SAVE" }],
        ["save", A, [1, 40], { state: "active" }],
        ["save", A, [2, 60], { status: 409, code: "DUPLICATE_SAVE" }],
        ["toggle", A, [3, 30], { status: 409, code: "DUPLICATE_SAVE" }],
      ),
    );
  });

  test("remove is idempotent, toggle flips, remove of a never-saved item is ITEM_NOT_FOUND", () => {
    ok(
      history(
        ["remove", A, [0, 10], { status: 404, code: "ITEM_NOT_FOUND" }],
        ["toggle", A, [20, 30], { state: "active" }],
        ["remove", A, [40, 50], { state: "removed" }],
        ["remove", A, [60, 70], { state: "removed" }],
        ["toggle", A, [80, 90], { state: "active" }],
        ["toggle", A, [100, 110], { state: "removed" }],
        ["list", undefined, [120, 130], { listed: [] }],
      ),
    );
  });

  test("refusals that did nothing constrain nothing", () => {
    ok(
      history(
        ["save", A, [0, 10], { status: 429, code: "RATE_LIMITED" }],
        ["save", A, [20, 30], { status: 402, code: "PLAN_LIMIT_REACHED" }],
        ["is-saved", A, [40, 50], { saved: false }],
        ["is-saved", A, [60, 70], { status: 500, code: "INTERNAL_ERROR" }],
      ),
    );
  });

  test("items other than the test's in a list answer are ignored", () => {
    const operations = history(["list", undefined, [0, 10], { listed: ["gid://shopify/Product/99"] }]);
    expect(checkHistory(operations, { items: new Map([[LIST, [A, B]]]) }).anomalies).toEqual([]);
  });

  test("a linearizable history of 50,000 operations over 400 items, some with unknown outcomes, in a small search", () => {
    const operations = simulated(50_000, 100, 4, 7);
    // The work bound instead of a clock: no answer needs more than 5,000 configurations explored.
    const result = checkHistory(operations, { maxConfigurations: 5_000 });
    expect(result.anomalies).toEqual([]);
    expect(result.inconclusive).toEqual([]);
    expect(result.operations).toBeGreaterThan(40_000);
  }, 60_000);
});

describe("against an exhaustive search", () => {
  test("on 5,000 small random histories it finds an anomaly exactly when no order of the operations explains them", () => {
    const random = seeded(11);
    const verdicts = { linearizable: 0, not: 0 };
    for (let round = 0; round < 5_000; round++) {
      const operations = randomHistory(random);
      const expected = linearizableByEnumeration(operations);
      verdicts[expected ? "linearizable" : "not"]++;
      expect(
        checkHistory(operations, { items: new Map([[LIST, [A, B]]]) }).anomalies.length === 0,
        JSON.stringify(operations),
      ).toBe(expected);
    }
    // Both kinds are well represented, so the agreement means something.
    expect(verdicts.linearizable).toBeGreaterThan(300);
    expect(verdicts.not).toBeGreaterThan(1_000);
  });
});

function seeded(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

/** Five to eight operations on two items, with answers drawn at random from what each operation can answer, many unknown. */
function randomHistory(random: () => number): Operation[] {
  const any = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
  const answers: Partial<Record<OperationKind, Answer[]>> = {
    save: [
      { state: "active" },
      { status: 409, code: "DUPLICATE_SAVE" },
      { status: 500, code: "INTERNAL_ERROR" },
      "no answer",
    ],
    remove: [{ state: "removed" }, { status: 404, code: "ITEM_NOT_FOUND" }, "no answer", "no answer"],
    toggle: [
      { state: "active" },
      { state: "removed" },
      { status: 409, code: "DUPLICATE_SAVE" },
      "no answer",
      "no answer",
    ],
    "is-saved": [{ saved: true }, { saved: false }],
    list: [{ listed: [] }, { listed: [A] }, { listed: [B] }, { listed: [A, B] }],
  };
  const kinds: OperationKind[] = ["save", "save", "remove", "toggle", "is-saved", "list"];
  const entries: Parameters<typeof history> = [];
  const count = 5 + Math.floor(random() * 4);
  for (let index = 0; index < count; index++) {
    const kind = any(kinds);
    const invokedAt = Math.floor(random() * 100);
    // Mostly one item, so unknown writes of several kinds meet on it.
    entries.push([
      kind,
      kind === "list" ? undefined : any([A, A, A, B]),
      [invokedAt, invokedAt + 1 + Math.floor(random() * 30)],
      any(answers[kind]!),
    ]);
  }
  return history(...entries);
}

/**
 * The definition, by brute force: some subset of the unknown-outcome writes takes effect, and some
 * order of those and the answered operations respects real time (what was answered before another
 * was invoked comes first) and the state table.
 */
function linearizableByEnumeration(operations: Operation[]): boolean {
  const counted = operations.filter((operation) => outcomeOf(operation) !== "none");
  const known = counted.filter((operation) => outcomeOf(operation) === "known");
  const unknown = counted.filter((operation) => outcomeOf(operation) === "unknown");
  const legal = (operation: Operation, states: Map<string, string>): boolean => {
    const saved = (item: string) => states.get(item) === "active";
    const current = states.get(operation.item ?? "") ?? "none";
    const set = (next: string) => (states.set(operation.item!, next), true);
    if (operation.kind === "list") return [A, B].every((item) => operation.listed!.includes(item) === saved(item));
    if (operation.kind === "is-saved") return operation.saved === saved(operation.item!);
    if (outcomeOf(operation) === "unknown") {
      if (operation.kind === "save") return set("active");
      if (operation.kind === "remove") return current === "active" ? set("removed") : true;
      return set(current === "active" ? "removed" : "active");
    }
    if (operation.code === "DUPLICATE_SAVE") return current === "active";
    if (operation.code === "ITEM_NOT_FOUND") return current === "none";
    if (operation.kind === "save") return current !== "active" && set("active");
    if (operation.kind === "remove") return current !== "none" && set("removed");
    return operation.state === "active"
      ? current !== "active" && set("active")
      : current === "active" && set("removed");
  };
  const orderable = (placed: Operation[], left: Operation[], states: Map<string, string>): boolean => {
    if (left.length === 0) return true;
    return left.some((next) => {
      // Nothing still to place may have been answered before `next` was invoked.
      if (
        left.some(
          (other) =>
            other !== next &&
            other.completedAt !== undefined &&
            outcomeOf(other) === "known" &&
            other.completedAt < next.invokedAt,
        )
      )
        return false;
      const after = new Map(states);
      return (
        legal(next, after) &&
        orderable(
          [...placed, next],
          left.filter((other) => other !== next),
          after,
        )
      );
    });
  };
  for (let subset = 0; subset < 2 ** unknown.length; subset++) {
    const applied = unknown.filter((_, index) => subset & (1 << index));
    if (orderable([], [...known, ...applied], new Map())) return true;
  }
  return false;
}

/**
 * A history a linearizable service could give: three clients per customer, each operation taking
 * effect at a random point of its interval against a true state table; one write in twenty loses
 * its answer (applied or not, at random), as a timeout does.
 */
function simulated(total: number, customers: number, itemsPerCustomer: number, seed: number): Operation[] {
  let state = seed;
  const random = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const items = Array.from({ length: itemsPerCustomer }, (_, index) => `gid://shopify/Product/${index + 1}`);
  const clients = customers * 3;
  const clock = new Array<number>(clients).fill(0);
  const planned: { operation: Operation; point: number; applies: boolean }[] = [];
  for (let id = 0; id < total; id++) {
    const client = Math.floor(random() * clients);
    const invokedAt = clock[client]! + random() * 20;
    const completedAt = invokedAt + 1 + random() * 30;
    clock[client] = completedAt;
    const kinds: OperationKind[] = ["save", "remove", "toggle", "is-saved", "is-saved", "list"];
    const kind = kinds[Math.floor(random() * kinds.length)]!;
    const operation: Operation = {
      id,
      client,
      channel: "proxy",
      list: `customer-${Math.floor(client / 3)}`,
      kind,
      invokedAt,
      completedAt,
      status: 200,
    };
    if (kind !== "list") operation.item = items[Math.floor(random() * items.length)]!;
    planned.push({ operation, point: invokedAt + random() * (completedAt - invokedAt), applies: random() < 0.5 });
  }
  const states = new Map<string, "none" | "active" | "removed">();
  for (const { operation, applies } of planned.sort((a, b) => a.point - b.point)) {
    const key = `${operation.list}|${operation.item}`;
    const current = states.get(key) ?? "none";
    const lost = operation.kind !== "is-saved" && operation.kind !== "list" && operation.id % 20 === 0;
    if (lost) {
      delete operation.completedAt;
      Object.assign(operation, { status: 0, code: "client timeout" });
      if (!applies) continue;
    }
    switch (operation.kind) {
      case "is-saved":
        operation.saved = current === "active";
        break;
      case "list":
        operation.listed = items.filter((item) => states.get(`${operation.list}|${item}`) === "active");
        break;
      case "save":
        if (current === "active") Object.assign(operation, lost ? {} : { status: 409, code: "DUPLICATE_SAVE" });
        else states.set(key, (operation.state = "active"));
        break;
      case "remove":
        if (current === "none") Object.assign(operation, lost ? {} : { status: 404, code: "ITEM_NOT_FOUND" });
        else states.set(key, (operation.state = "removed"));
        break;
      case "toggle":
        states.set(key, (operation.state = current === "active" ? "removed" : "active"));
        break;
    }
  }
  return planned.map(({ operation }) => operation);
}
