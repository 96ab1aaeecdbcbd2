// npm run check:history [-- --minutes 10 --instances 2 --clients 16 --customers 96 --seed 1 --redis-down-seconds 7 --no-faults | --only
// <faults> --log <file>]:
// concurrent clients over the three channels against a sandbox of its own, faults on a schedule,
// then the linearizability check of everything they saw. Exits 1 when it finds an anomaly.
import path from "node:path";
import { parseArgs } from "node:util";
import { FAULTS, type FaultName } from "./faults";
import { printReport } from "./report";
import { cleanupStack, DEFAULT_RUN, runHistory } from "./run";

const { values } = parseArgs({
  options: {
    minutes: { type: "string" },
    seconds: { type: "string" },
    instances: { type: "string", default: String(DEFAULT_RUN.instances) },
    clients: { type: "string", default: String(DEFAULT_RUN.clients) },
    customers: { type: "string", default: String(DEFAULT_RUN.customers) },
    items: { type: "string", default: String(DEFAULT_RUN.itemsPerCustomer) },
    seed: { type: "string", default: String(DEFAULT_RUN.seed) },
    rate: { type: "string", default: String(DEFAULT_RUN.clientRate) },
    "fault-seconds": { type: "string", default: String(DEFAULT_RUN.faultSeconds) },
    "quiet-seconds": { type: "string", default: String(DEFAULT_RUN.quietSeconds) },
    "redis-down-seconds": { type: "string" },
    faults: { type: "boolean", default: true },
    only: { type: "string" },
    log: { type: "string" },
  },
  allowNegative: true,
});

const whole = (name: string, value: string | undefined, min: number, max: number): number => {
  const number = Number(value);
  if (!Number.isFinite(number) || number < min || number > max) {
    console.error(`--${name} must be a number from ${min} to ${max}`);
    process.exit(2);
  }
  return number;
};
const seconds = values.seconds
  ? whole("seconds", values.seconds, 5, 24 * 3600)
  : whole("minutes", values.minutes ?? String(DEFAULT_RUN.seconds / 60), 0.1, 24 * 60) * 60;

/** `--only redis-restart,postgres-unreachable`: to tell which fault an anomaly comes with. */
function chosenFaults(only: string | undefined): FaultName[] {
  if (only === undefined) return [...FAULTS];
  const names = only.split(",").map((name) => name.trim());
  const unknown = names.filter((name) => !(FAULTS as readonly string[]).includes(name));
  if (unknown.length > 0 || names.length === 0) {
    console.error(`--only takes some of ${FAULTS.join(", ")}; not ${unknown.join(", ")}`);
    process.exit(2);
  }
  return names as FaultName[];
}

const cleanup = cleanupStack();
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping everything the run started...`);
    void cleanup.run().then(() => process.exit(130));
  });
}

const result = await runHistory(
  {
    ...DEFAULT_RUN,
    seconds,
    instances: whole("instances", values.instances, 1, 8),
    clients: whole("clients", values.clients, 1, 256),
    customers: whole("customers", values.customers, 1, 10_000),
    itemsPerCustomer: whole("items", values.items, 1, 12),
    seed: whole("seed", values.seed, 0, 2 ** 31),
    clientRate: whole("rate", values.rate, 0.1, 100),
    faultSeconds: whole("fault-seconds", values["fault-seconds"], 1, 600),
    quietSeconds: whole("quiet-seconds", values["quiet-seconds"], 1, 600),
    ...(values["redis-down-seconds"] === undefined
      ? {}
      : { redisDownSeconds: whole("redis-down-seconds", values["redis-down-seconds"], 1, 600) }),
    faults: values.faults ? chosenFaults(values.only) : [],
    // Like `npm run test:services`: this machine's PostgreSQL with trust authentication.
    postgresUrl: process.env.TEST_POSTGRES_URL || "postgres://postgres@127.0.0.1:5432/postgres",
    ...(values.log ? { logFile: path.resolve(values.log) } : {}),
    log: (line) => console.error(`[history] ${line}`),
  },
  cleanup,
);
printReport(result);
process.exit(result.check.anomalies.length > 0 ? 1 : 0);
