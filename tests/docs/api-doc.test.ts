// docs/api.md states the error codes and the plan table the code enforces; these keep it true.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { ERROR_CODES } from "~/lib/errors";
import { PLAN_KEYS, PLANS } from "~/services/plans";
import { repoRoot } from "@saved-items/sandbox/config";

const doc = readFileSync(path.join(repoRoot, "docs/api.md"), "utf8");

/** The body rows of the markdown table whose first header cell is `firstHeader`, as cell lists. */
function tableRows(firstHeader: string): string[][] {
  const start = doc.search(new RegExp(`^\\| ${firstHeader} +\\|`, "m"));
  expect(start, `a table headed "${firstHeader}"`).toBeGreaterThanOrEqual(0);
  const rows: string[][] = [];
  for (const line of doc.slice(start).split("\n").slice(2)) {
    if (!line.startsWith("|")) break;
    rows.push(
      line
        .split(/(?<!\\)\|/)
        .slice(1, -1)
        .map((cell) => cell.trim().replace(/`/g, "")),
    );
  }
  return rows;
}

describe("docs/api.md", () => {
  test("lists every error code once, at the status and retryable flag the code gives it", () => {
    const rows = tableRows("Code");
    expect(rows.map(([code]) => code).sort()).toEqual(Object.keys(ERROR_CODES).sort());
    for (const [code, statuses, , retryable] of rows) {
      const entry = ERROR_CODES[code as keyof typeof ERROR_CODES];
      expect(
        statuses!.split(",").map((status) => Number(status.trim())),
        code,
      ).toContain(entry.status);
      expect(retryable, code).toBe(String(entry.retryable));
    }
  });

  test("gives the plan table of app/services/plans.ts", () => {
    const rows = tableRows("Plan");
    expect(rows.map(([name]) => name)).toEqual(PLAN_KEYS.map((key) => PLANS[key].name));
    for (const [name, requests, batch, , lists] of rows) {
      const plan = PLAN_KEYS.map((key) => PLANS[key]).find((candidate) => candidate.name === name)!;
      expect(Number(requests!.replace(/,/g, "")), name).toBe(plan.monthlyRequests);
      expect(batch, name).toBe(plan.maxBatchOperations === 0 ? "none" : `up to ${plan.maxBatchOperations}`);
      expect(Number(lists), name).toBe(plan.maxNamedLists);
    }
  });
});
