// The linearizability check of a recorded history against the state table of docs/api.md.
//
// Lists are independent objects (P-compositionality), so each customer's list is checked on its
// own, with the states of all its items together: a list read is then one read of every item at a
// single point, not one point per item. The search is Lowe's just-in-time linearization: events
// are taken in time order, and the checker keeps every configuration (the items' states, which of
// the operations still in flight are already linearized, how many unknown-outcome writes were
// used) that some linearization of the history so far reaches. At an operation's answer, each
// configuration must linearize that operation, possibly after others in flight; when none can,
// no linearization exists and that answer is the anomaly.
//
// A write with an unknown outcome may take effect once, at any point after its invocation, or
// never. Once invoked it stays available for ever, so which one of several alike (same item, same
// kind) is used does not matter: a configuration counts the ones it used per item and kind, and
// one that used no more of each than another (same states, same in-flight set) makes it redundant.
import { isListKind, outcomeOf, type Operation, type WriteKind } from "./history";
import { LIST_UNKNOWN_KINDS, listRules } from "./list-rules";

const NONE = 0;
const ACTIVE = 1;
const REMOVED = 2;
type ItemState = typeof NONE | typeof ACTIVE | typeof REMOVED;
const STATE_NAMES = ["none", "active", "removed"] as const;
/** Where the report keeps the list operations' recent answers, beside each item's. */
const LIST = -1;

export interface Anomaly {
  list: string;
  /** The answer no linearization explains. */
  operation: Operation;
  hint: string;
  /** The operations around the point: the ones in flight, the unknown writes, the item's last answers. */
  operations: Operation[];
  /** What the item states could be just before that answer, per item, e.g. "Product/1: active|removed". */
  possibleStates: string[];
}

export interface CheckResult {
  lists: number;
  operations: number;
  anomalies: Anomaly[];
  /** Lists whose search grew past the bound (checked up to that point). */
  inconclusive: { list: string; reason: string }[];
}

export interface CheckOptions {
  /** Per list, the items the test uses; a list answer's other items are ignored. Default: the items the history names. */
  items?: Map<string, readonly string[]>;
  /** Configurations explored at one answer before the list is given up as inconclusive. */
  maxConfigurations?: number;
}

interface Configuration {
  /** Item states, base 3, and above them the list and its link (list-rules.ts). */
  states: number;
  /** Ids of in-flight operations already linearized, ascending. */
  linearized: number[];
  /** Per unknown kind (item × write kind, then each list operation's), how many were used. */
  used: number[];
}

const KIND_INDEX: Record<WriteKind, number> = { save: 0, remove: 1, toggle: 2 };

export function checkHistory(history: readonly Operation[], options: CheckOptions = {}): CheckResult {
  const byList = new Map<string, Operation[]>();
  for (const operation of history) {
    if (outcomeOf(operation) === "none") continue;
    let own = byList.get(operation.list);
    if (!own) byList.set(operation.list, (own = []));
    own.push(operation);
  }
  const result: CheckResult = { lists: byList.size, operations: 0, anomalies: [], inconclusive: [] };
  for (const [list, operations] of byList) {
    result.operations += operations.length;
    const named = [...new Set(operations.flatMap((operation) => (operation.item ? [operation.item] : [])))].sort();
    const items = options.items?.get(list) ?? named;
    checkList(list, items, operations, options.maxConfigurations ?? 100_000, result);
  }
  // The earliest first: a later one on the same list may only follow from it.
  result.anomalies.sort((a, b) => a.operation.completedAt! - b.operation.completedAt!);
  return result;
}

function checkList(
  list: string,
  items: readonly string[],
  operations: readonly Operation[],
  maxConfigurations: number,
  result: CheckResult,
): void {
  const itemIndex = new Map(items.map((item, index) => [item, index]));
  const powers = items.map((_, index) => 3 ** index);
  const stateOf = (states: number, item: number) => (Math.floor(states / powers[item]!) % 3) as ItemState;
  const withState = (states: number, item: number, next: ItemState) =>
    states + (next - stateOf(states, item)) * powers[item]!;
  const rules = listRules(
    3 ** items.length,
    // delete-list's removal of every active item.
    (states) =>
      items.reduce((next, _, item) => (stateOf(next, item) === ACTIVE ? withState(next, item, REMOVED) : next), states),
    operations,
  );
  const indexed = rules.indexed;
  /** The states after `operation` from `states`; none where its answer rules that out. */
  const step = (operation: Operation, states: number): number[] => {
    if (isListKind(operation.kind)) return rules.step(operation, states);
    if (operation.kind === "list") {
      const listed = new Set(operation.listed);
      for (let item = 0; item < items.length; item++) {
        if (listed.has(items[item]!) !== (stateOf(states, item) === ACTIVE)) return [];
      }
      return [states];
    }
    const item = itemIndex.get(operation.item!);
    if (item === undefined) return [states];
    const current = stateOf(states, item);
    if (operation.kind === "is-saved") return operation.saved === (current === ACTIVE) ? [states] : [];
    if (operation.status !== 200) {
      // DUPLICATE_SAVE (save, toggle) found it active; ITEM_NOT_FOUND (remove) found neither list nor item.
      if (operation.code === "DUPLICATE_SAVE") return current === ACTIVE ? [states] : [];
      return current === NONE ? [states] : [];
    }
    switch (operation.kind) {
      case "save":
        return current !== ACTIVE && operation.state === "active" ? [indexed(withState(states, item, ACTIVE))] : [];
      case "remove":
        if (current === NONE || operation.state !== "removed") return [];
        // Removing an active item writes the index; removing a removed one may not write it.
        return current === ACTIVE
          ? [indexed(withState(states, item, REMOVED))]
          : [...new Set([states, indexed(states)])];
      case "toggle":
        if (operation.state === "removed") return current === ACTIVE ? [indexed(withState(states, item, REMOVED))] : [];
        return current !== ACTIVE && operation.state === "active" ? [indexed(withState(states, item, ACTIVE))] : [];
      default:
        return [];
    }
  };

  const unknownKindOf = (operation: Operation, item: number | undefined): number | undefined =>
    isListKind(operation.kind)
      ? items.length * 3 + LIST_UNKNOWN_KINDS.indexOf(operation.kind)
      : item === undefined
        ? undefined
        : item * 3 + KIND_INDEX[operation.kind as WriteKind];

  /** The states an unknown-outcome write that took effect leaves; none where it would change nothing. */
  const applyUnknown = (unknown: number, states: number): number[] => {
    if (unknown >= items.length * 3) return rules.applyUnknown(LIST_UNKNOWN_KINDS[unknown - items.length * 3]!, states);
    const item = Math.floor(unknown / 3);
    const current = stateOf(states, item);
    switch (unknown % 3) {
      case 0:
        return current === ACTIVE ? [] : [indexed(withState(states, item, ACTIVE))];
      case 1:
        return current === ACTIVE ? [indexed(withState(states, item, REMOVED))] : [];
      default:
        return [indexed(withState(states, item, current === ACTIVE ? REMOVED : ACTIVE))];
    }
  };

  /** After an answer nothing explains: continue as if that answer told the truth, to find later anomalies too. */
  const forced = (operation: Operation, states: number): number => {
    const set = (item: number, saved: boolean) => {
      const current = stateOf(states, item);
      if (saved) states = withState(states, item, ACTIVE);
      else if (current === ACTIVE) states = withState(states, item, REMOVED);
    };
    if (isListKind(operation.kind)) return rules.forced(operation, states);
    if (operation.kind === "list") {
      const listed = new Set(operation.listed);
      items.forEach((gid, item) => set(item, listed.has(gid)));
      return states;
    }
    const item = itemIndex.get(operation.item!);
    if (item === undefined) return states;
    if (operation.kind === "is-saved") set(item, operation.saved === true);
    else if (operation.code === "DUPLICATE_SAVE") set(item, true);
    else if (operation.code === "ITEM_NOT_FOUND") states = withState(states, item, NONE);
    else set(item, operation.state === "active");
    return states;
  };

  type Event = { at: number; invocation: boolean; operation: Operation; unknown: boolean };
  const events: Event[] = [];
  for (const operation of operations) {
    const unknown = outcomeOf(operation) === "unknown";
    events.push({ at: operation.invokedAt, invocation: true, operation, unknown });
    if (!unknown) events.push({ at: operation.completedAt!, invocation: false, operation, unknown });
  }
  // At equal times the invocation goes first: the two count as overlapping, the permissive reading.
  events.sort((a, b) => a.at - b.at || Number(b.invocation) - Number(a.invocation) || a.operation.id - b.operation.id);

  const unknownKinds = items.length * 3 + LIST_UNKNOWN_KINDS.length;
  const invoked = new Array<number>(unknownKinds).fill(0);
  const unknownsOf = new Map<number, Operation[]>();
  const inFlight = new Map<number, Operation>();
  // Per item, and under LIST for the list operations: the last answers and unknown writes, for an anomaly's report.
  const recent = new Map<number, Operation[]>();
  let configurations: Configuration[] = [{ states: 0, linearized: [], used: new Array<number>(unknownKinds).fill(0) }];

  for (const event of events) {
    const { operation } = event;
    const item = operation.kind === "list" || operation.item === undefined ? undefined : itemIndex.get(operation.item);
    const listLevel = isListKind(operation.kind);
    if (event.invocation) {
      if (event.unknown) {
        const unknown = unknownKindOf(operation, item);
        if (unknown === undefined) continue;
        invoked[unknown]! += 1;
        const key = listLevel ? LIST : item!;
        unknownsOf.set(key, [...(unknownsOf.get(key) ?? []), operation].slice(-3));
      } else inFlight.set(operation.id, operation);
      continue;
    }

    // Unknown writes to an item nothing in flight reads or writes can wait: they stay available, and
    // only an operation on that item (a list reads them all) can tell whether one took effect.
    // The list operations observe the list and every item, and an unknown list operation may
    // matter to them and, through the items, to any operation on an item.
    const observed = new Array<boolean>(items.length).fill(false);
    let listObserved = false;
    for (const other of [operation, ...inFlight.values()]) {
      // An item's write may make the list again, so what reads the list observes every item.
      if (isListKind(other.kind)) listObserved = true;
      if (other.kind === "list" || isListKind(other.kind)) observed.fill(true);
      else if (other.item !== undefined && itemIndex.has(other.item)) observed[itemIndex.get(other.item)!] = true;
    }
    const observes = (unknown: number) =>
      unknown < items.length * 3
        ? observed[Math.floor(unknown / 3)]!
        : listObserved || (LIST_UNKNOWN_KINDS[unknown - items.length * 3] === "delete-list" && observed.includes(true));
    // A configuration that used no more unknown writes than one already explored reaches nothing new.
    const explored = new ParetoSet(items.length * 3);
    const reached = new ParetoSet(items.length * 3);
    const pending = [...configurations];
    while (pending.length > 0) {
      const configuration = pending.pop()!;
      if (configuration.linearized.includes(operation.id)) {
        reached.add({ ...configuration, linearized: configuration.linearized.filter((id) => id !== operation.id) });
        continue;
      }
      if (!explored.add(configuration)) continue;
      if (explored.size > maxConfigurations) {
        result.inconclusive.push({
          list,
          reason: `more than ${maxConfigurations} configurations at operation #${operation.id}`,
        });
        return;
      }
      // Linearizing the answered operation ends this path: what else is in flight can be linearized later.
      for (const own of step(operation, configuration.states))
        reached.add({ states: own, linearized: configuration.linearized, used: configuration.used });
      for (const [id, other] of inFlight) {
        if (id === operation.id || configuration.linearized.includes(id)) continue;
        for (const next of step(other, configuration.states)) {
          pending.push({
            states: next,
            linearized: [...configuration.linearized, id].sort((a, b) => a - b),
            used: configuration.used,
          });
        }
      }
      const available = (unknown: number) => configuration.used[unknown]! < invoked[unknown]!;
      for (let unknown = 0; unknown < unknownKinds; unknown++) {
        if (!observes(unknown) || !available(unknown)) continue;
        // A toggle does all a save or a remove does and more: it is kept while one of those can do the same.
        if (unknown < items.length * 3 && unknown % 3 === 2) {
          const active = stateOf(configuration.states, Math.floor(unknown / 3)) === ACTIVE;
          if (available(unknown - (active ? 1 : 2))) continue;
        }
        for (const next of applyUnknown(unknown, configuration.states)) {
          const used = [...configuration.used];
          used[unknown]! += 1;
          pending.push({ states: next, linearized: configuration.linearized, used });
        }
      }
    }

    const touched = item === undefined ? items.map((_, index) => index) : [item];
    const keys = listLevel ? [LIST, ...touched] : touched;
    if (reached.size === 0) {
      result.anomalies.push({
        list,
        operation,
        hint: hintFor(operation),
        operations: [
          ...new Map(
            [
              ...keys.flatMap((key) => [...(recent.get(key) ?? []), ...(unknownsOf.get(key) ?? [])]),
              ...[...inFlight.values()].filter(
                (other) =>
                  other.kind === "list" || other.item === undefined || touched.includes(itemIndex.get(other.item)!),
              ),
              operation,
            ]
              .sort((a, b) => a.invokedAt - b.invokedAt)
              .map((other) => [other.id, other]),
          ).values(),
        ],
        possibleStates: [
          ...(listLevel
            ? [`list: ${[...new Set(configurations.map(({ states }) => rules.describe(states)))].join(" | ")}`]
            : []),
          ...touched.map(
            (index) =>
              `${items[index]}: ${[...new Set(configurations.map((configuration) => STATE_NAMES[stateOf(configuration.states, index)]))].join("|")}`,
          ),
        ],
      });
      for (const configuration of configurations) {
        reached.add({
          states: forced(operation, configuration.states),
          linearized: configuration.linearized,
          used: configuration.used,
        });
      }
    }
    configurations = reached.all();
    inFlight.delete(operation.id);
    for (const key of keys)
      recent.set(key, [...(recent.get(key) ?? []), operation].slice(listLevel && key === LIST ? -4 : -2));
  }
}

function hintFor(operation: Operation): string {
  const answer =
    operation.status === 200
      ? operation.kind === "is-saved"
        ? `saved=${operation.saved}`
        : operation.state
      : operation.code;
  switch (operation.kind) {
    case "is-saved":
    case "list":
      return `a ${operation.kind} (${answer ?? "listed"}) that no order of the writes explains: a stale read, or a lost or doubled write`;
    case "shared-list":
      return "a link that opened when no order of the writes leaves it the list's link on a list not deleted: a deleted, revoked or replaced link served";
    case "create-list":
    case "delete-list":
    case "share-create":
    case "share-revoke":
      return operation.status === 200
        ? `a ${operation.kind} answered ${operation.kind === "share-revoke" ? `revoked=${operation.revoked}` : "200"} on a list no order of the writes leaves in that state: a deleted list acted on, or a write lost`
        : `a ${operation.kind} answered ${operation.code} where no order of the writes leaves the list so: a stale read of the list, or a write lost`;
    default:
      return operation.status === 200
        ? `a ${operation.kind} answered ${answer} from a state no order of the writes allows: applied twice, or an earlier write lost`
        : `a ${operation.kind} answered ${answer} from a state no order of the writes allows: an earlier write lost`;
  }
}

/** Configurations by states and in-flight set, keeping only those no other one covers. */
/**
 * Whether `better` can do whatever `worse` can with the unknown writes each has left: per item, as
 * many saves, removes and toggles, or toggles for the saves and removes it lacks (a toggle activates
 * what a save activates and removes what a remove removes).
 */
function covers(better: number[], worse: number[], itemKinds: number): boolean {
  for (let index = 0; index < itemKinds; index += 3) {
    const lacking = Math.max(0, better[index]! - worse[index]!) + Math.max(0, better[index + 1]! - worse[index + 1]!);
    if (lacking > worse[index + 2]! - better[index + 2]!) return false;
  }
  // The list operations' unknown writes stand in for nothing else.
  for (let index = itemKinds; index < better.length; index++) if (better[index]! > worse[index]!) return false;
  return true;
}

class ParetoSet {
  private readonly groups = new Map<string, Configuration[]>();
  size = 0;

  /** `itemKinds`: how many of a configuration's counts are the items' (three per item). */
  constructor(private readonly itemKinds: number) {}

  /** False when an equal or better configuration is already in. */
  add(configuration: Configuration): boolean {
    const key = `${configuration.states}|${configuration.linearized.join(",")}`;
    const group = this.groups.get(key) ?? [];
    if (group.some((other) => covers(other.used, configuration.used, this.itemKinds))) return false;
    const kept = group.filter((other) => !covers(configuration.used, other.used, this.itemKinds));
    this.size += kept.length + 1 - group.length;
    kept.push(configuration);
    this.groups.set(key, kept);
    return true;
  }

  all(): Configuration[] {
    return [...this.groups.values()].flat();
  }
}
