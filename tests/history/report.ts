// What a history run prints: the operations and their answers, the anomalies with the operations
// that show each, and how available the service was in each fault window.
import { formatAnswers, printTable } from "../bench/stats";
import { WRITE_KINDS, answerLabel, describeOperation, outcomeOf, type Operation } from "./history";
import type { RunResult } from "./run";

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
  for (const kind of ["save", "remove", "toggle", "is-saved", "list"] as const) {
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
      "\nAvailability per window (calls invoked in it; ok: answered as the contract says, 200 or 409/404; anomalies answered in it):",
    );
    printTable(
      result.windows.map((window) => {
        const own = operations.filter(
          (operation) => operation.invokedAt >= window.startedAt && operation.invokedAt < window.endedAt,
        );
        const ok = own.filter((operation) => outcomeOf(operation) === "known").length;
        const errors = own.filter((operation) => outcomeOf(operation) !== "known");
        // A Redis outage must leave reads served while writes are refused: the two are told apart.
        const share = (reads: boolean) => {
          const kind = own.filter((operation) => (WRITE_KINDS as readonly string[]).includes(operation.kind) !== reads);
          const served = kind.filter((operation) => outcomeOf(operation) === "known").length;
          return kind.length ? `${((100 * served) / kind.length).toFixed(0)}%` : "-";
        };
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
          "reads ok": share(true),
          "writes ok": share(false),
          errors: countBy(errors, (operation) => `${operation.status} ${operation.code ?? ""}`.trim()) || "-",
        };
      }),
      print,
    );
    for (const window of result.windows) if (window.detail) print(`  ${window.name}: ${window.detail}`);
  }
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
