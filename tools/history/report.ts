// What a history run prints: the operations and their answers, the anomalies with the operations
// that show each, and how available the service was in each fault window.
import { formatAnswers, printTable } from "../bench/stats";
import type { FaultWindow } from "./faults";
import { LIST_KINDS, answerLabel, describeOperation, isReadKind, outcomeOf, served, type Operation } from "./history";
import type { RunResult } from "./run";

const OPERATION_KINDS = ["is-saved", "list", "save", "remove", "toggle", ...LIST_KINDS] as const;

/** Anomalies printed in full; the rest are counted. */
const SHOWN = 12;

export function printReport(result: RunResult, print: (line: string) => void = console.log): void {
  const { options, operations, check, origin } = result;
  const seconds = result.durationMs / 1000;
  print(
    `\nHistory: ${operations.length} operations in ${seconds.toFixed(0)} s (${(operations.length / seconds).toFixed(1)}/s), ` +
      `${options.clients} clients over ${options.customers} customers × ${options.itemsPerCustomer} items, ` +
      `${options.instances} instance(s), seed ${options.seed}, faults ${options.faults.join(", ") || "none"}, client timeout ${options.timeoutMs / 1000} s`,
  );
  print(
    "\nAnswers by operation (known: the answer says what happened; unknown: a write that may or may not have applied):",
  );
  const rows = [];
  for (const kind of OPERATION_KINDS) {
    const own = operations.filter((operation) => operation.kind === kind);
    rows.push({
      operation: kind,
      calls: String(own.length),
      known: String(own.filter((operation) => outcomeOf(operation) === "known").length),
      unknown: String(own.filter((operation) => outcomeOf(operation) === "unknown").length),
      answers: countBy(own, answerLabel),
    });
  }
  printTable(rows, print);
  const exchanges = countBy(result.exchanges, (exchange) =>
    `${exchange.channel} ${exchange.status} ${exchange.code ?? ""}`.trim(),
  );
  print(`\nToken exchanges: ${exchanges || "none"}`);
  print(
    `Platform cost: ${result.platform.requests} requests, ${result.platform.actualPoints} points (${result.platform.requestedPoints} requested), ${result.platform.throttled} throttled`,
  );

  print(
    `\nConcurrency: ${overlapping(operations)} of ${operations.length} calls overlapped another call on the same list`,
  );
  print(
    `Check: ${check.operations} operations that constrain the state over ${check.lists} lists (each list's items at one point): ` +
      `${check.anomalies.length} anomal${check.anomalies.length === 1 ? "y" : "ies"}` +
      (check.inconclusive.length ? `, ${check.inconclusive.length} list(s) inconclusive` : ""),
  );
  for (const { list, reason } of check.inconclusive) print(`  inconclusive ${list}: ${reason}`);
  for (const [index, anomaly] of check.anomalies.slice(0, SHOWN).entries()) {
    print(`\n  ${index + 1}. ${anomaly.list}: ${anomaly.hint}`);
    print(`     states possible before it: ${anomaly.possibleStates.join("; ")}`);
    for (const operation of anomaly.operations) {
      print(`     ${operation === anomaly.operation ? "→" : " "} ${describeOperation(operation, origin)}`);
    }
  }
  if (check.anomalies.length > SHOWN) print(`\n  … and ${check.anomalies.length - SHOWN} more`);

  if (result.windows.length > 0) {
    print(
      "\nAvailability per window (calls invoked in it; ok: answered as the contract says, 200 or 409/404; served shares by operation; anomalies answered in it):",
    );
    const invokedIn = (window: FaultWindow) =>
      operations.filter((operation) => operation.invokedAt >= window.startedAt && operation.invokedAt < window.endedAt);
    printTable(
      result.windows.map((window) => {
        const own = invokedIn(window);
        const ok = own.filter(served).length;
        const errors = own.filter((operation) => !served(operation));
        return {
          window: window.name,
          from: `${((window.startedAt - origin) / 1000).toFixed(1)} s`,
          to: `${((window.endedAt - origin) / 1000).toFixed(1)} s`,
          calls: String(own.length),
          // By when the answer no order explains came: what the fault or its aftermath broke.
          anomalies: String(
            check.anomalies.filter(
              ({ operation }) => operation.completedAt! >= window.startedAt && operation.completedAt! < window.endedAt,
            ).length,
          ),
          ok: own.length ? `${String(ok)} (${((100 * ok) / own.length).toFixed(0)}%)` : "0",
          ...servedShares(own),
          errors: countBy(errors, (operation) => `${operation.status} ${operation.code ?? ""}`.trim()) || "-",
        };
      }),
      print,
    );
    for (const window of result.windows) if (window.detail) print(`  ${window.name}: ${window.detail}`);

    // What docs/scaling.md's failure table states: each fault's windows together.
    print("\nServed per fault (every window of it together; served/calls):");
    const names = [...new Set(result.windows.map((window) => window.name))];
    printTable(
      names.map((name) => {
        const windows = result.windows.filter((window) => window.name === name);
        const own = windows.flatMap(invokedIn);
        return {
          fault: name,
          windows: String(windows.length),
          seconds: (windows.reduce((sum, window) => sum + window.endedAt - window.startedAt, 0) / 1000).toFixed(0),
          ...servedShares(own, true),
        };
      }),
      print,
    );
  }
}

/**
 * The share of calls answered as the contract says, reads and writes apart (a Redis outage must
 * leave reads served while writes may be refused) and by operation.
 */
export function servedShares(operations: readonly Operation[], withCounts = false): Record<string, string> {
  const share = (own: readonly Operation[]) => {
    const answered = own.filter(served).length;
    if (own.length === 0) return "-";
    const percent = `${((100 * answered) / own.length).toFixed(own.length >= 1_000 && answered < own.length ? 1 : 0)}%`;
    return withCounts ? `${percent} ${answered}/${own.length}` : percent;
  };
  const isWrite = (operation: Operation) => !isReadKind(operation.kind);
  const shares: Record<string, string> = {
    reads: share(operations.filter((operation) => !isWrite(operation))),
    writes: share(operations.filter(isWrite)),
  };
  for (const kind of OPERATION_KINDS) shares[kind] = share(operations.filter((operation) => operation.kind === kind));
  return shares;
}

/** Calls whose interval met another's on the same list: how much the clients of a customer really raced. */
function overlapping(operations: readonly Operation[]): number {
  const byList = new Map<string, Operation[]>();
  for (const operation of operations) {
    const own = byList.get(operation.list) ?? [];
    own.push(operation);
    byList.set(operation.list, own);
  }
  const end = (operation: Operation) => operation.completedAt ?? Infinity;
  let count = 0;
  for (const own of byList.values()) {
    own.sort((a, b) => a.invokedAt - b.invokedAt);
    let latestEnd = -Infinity;
    own.forEach((operation, index) => {
      const next = own[index + 1];
      if (latestEnd > operation.invokedAt || (next !== undefined && next.invokedAt < end(operation))) count++;
      latestEnd = Math.max(latestEnd, end(operation));
    });
  }
  return count;
}

function countBy<T>(values: readonly T[], key: (value: T) => string): string {
  const counts: Record<string, number> = {};
  for (const value of values) counts[key(value)] = (counts[key(value)] ?? 0) + 1;
  return formatAnswers(counts);
}
