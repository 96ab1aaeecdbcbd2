// The short history run of `npm run test:services`: two instances, clients over the three
// channels, each fault once, and no anomaly allowed. It needs this machine's PostgreSQL (the run
// creates and drops a database of its own) and redis-server (the run starts a Redis of its own);
// without them (a plain `npm test`) it reports itself skipped. `npm run check:history` is the long one.
import { execFileSync } from "node:child_process";
import { describe, expect, inject, test } from "vitest";
import { FAULTS, POSTGRES_OUTAGE_MS } from "./faults";
import { printReport } from "./report";
import { DEFAULT_RUN, runHistory } from "./run";

const databases = inject("testDatabases");
const redisServer = (() => {
  try {
    execFileSync("redis-server", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();
const skip = !process.env.REDIS_URL
  ? "set REDIS_URL (npm run test:services does)"
  : databases.kind !== "postgres"
    ? "needs a PostgreSQL server (npm run test:services sets DATABASE_URL)"
    : !redisServer
      ? "needs redis-server on PATH"
      : undefined;

describe.skipIf(skip !== undefined)(`history under faults${skip ? ` (skipped: ${skip})` : ""}`, () => {
  test("two instances, three channels, every fault once: every answer fits one order of the operations", async () => {
    const lines: string[] = [];
    const result = await runHistory({
      ...DEFAULT_RUN,
      // Six faults of 6 s (longer than the client timeout) and PostgreSQL's of 5 to 30 s, each after
      // 3 quiet seconds.
      seconds: 6 * (3 + 6) + 3 + POSTGRES_OUTAGE_MS.max / 1_000 + 2,
      faultSeconds: 6,
      quietSeconds: 3,
      postgresUrl: databases.kind === "postgres" ? databases.serverUrl : "",
      log: () => {},
    });
    printReport(result, (line) => lines.push(line));
    const report = lines.join("\n");
    console.log(report);
    expect(result.operations.length).toBeGreaterThan(500);
    expect(result.windows.map((window) => window.name)).toEqual(expect.arrayContaining([...FAULTS]));
    expect(result.check.inconclusive).toEqual([]);
    expect(result.check.anomalies, report).toEqual([]);
  }, 240_000);
});
