// npm run bench [-- --seconds 5 --concurrency 32 --capacity-seconds 8 --memory-requests 20000]: the
// app over real HTTP (one sandbox instance, the emulator in its own process) next to two baselines
// doing only the proxy signature check, then what a Standard shop sustains, then the instance's
// memory over a run of is-saved, then the saved-by count's platform requests per save (`-- --only
// saved-by` runs that alone) and product cards' per list view (`-- --only cards`). Prints figures,
// each beside its target; asserts nothing.
import os from "node:os";
import { parseArgs } from "node:util";
import { startBaseline, type Baseline } from "./baseline";
import { measureCapacity } from "./capacity";
import { measureCardCost } from "./cards";
import { keepAliveAgent } from "./load";
import { measureMemory } from "./memory-phase";
import { measureOperations } from "./operations";
import { phaseRow } from "./phase";
import { measureSavedByCost } from "./saved-by";
import { BENCH_SEED, startMeasuredSandbox } from "./sandbox";
import { fixed, printTable } from "./stats";

/** Issue #33's targets for a cached is-saved, app ÷ the bare Remix route, in the same run. */
const TARGETS_VS_REMIX = { cpu: 0.7, throughput: 1.3, p99: 1.0 };

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "5" },
    concurrency: { type: "string", default: "32" },
    "capacity-seconds": { type: "string", default: "8" },
    "memory-requests": { type: "string", default: "20000" },
    only: { type: "string" },
  },
});
const seconds = Number(values.seconds);
const concurrency = Number(values.concurrency);
const capacitySeconds = Number(values["capacity-seconds"]);
const memoryRequests = Number(values["memory-requests"]);

const sandbox = await startMeasuredSandbox({ instances: 1, seedFile: BENCH_SEED });
const agent = keepAliveAgent(concurrency);
const baselines: Baseline[] = [];
try {
  const instance = sandbox.instances[0]!;
  if (values.only === undefined) await measureServing(instance);
  if (values.only === undefined || values.only === "cards")
    await measureCardCost({ sandbox, instanceUrl: instance.url, agent });
  if (values.only === undefined || values.only === "saved-by")
    await measureSavedByCost({ sandbox, instanceUrl: instance.url, agent, concurrency });
} finally {
  agent.destroy();
  await Promise.all(baselines.map((baseline) => baseline.stop()));
  await sandbox.stop();
}

/** The operations against the two baselines, then what a Standard shop sustains, then memory. */
async function measureServing(instance: { url: string; pid: number }): Promise<void> {
  for (const kind of ["remix", "node"] as const) baselines.push(await startBaseline(kind));
  const reports = await measureOperations({ sandbox, instance, baselines, agent, concurrency, seconds });
  console.log(
    `\nOperations: ${concurrency} connections, ${seconds} s each, one app instance (pid ${instance.pid}) vs two baselines ` +
      "answering is-saved after the app's proxy-signature verifier: a bare Remix resource route on Express " +
      `(remix, pid ${baselines[0]!.pid}) and plain node:http (node, pid ${baselines[1]!.pid}); ${os.cpus().length} cores, shared. ` +
      "Per-request platform figures are deltas of /__sandbox/platform-usage; CPU is the measured process's own, from /proc.\n",
  );
  printTable(reports.map(phaseRow));
  const app = reports.find((report) => report.name === "is-saved")!;
  for (const kind of ["remix", "node"]) {
    const base = reports.find((report) => report.name === `${kind} baseline`)!;
    const ratio = (value: number, target: string) =>
      `${fixed(value, 2)}×${kind === "remix" ? ` (target ${target})` : ""}`;
    console.log(
      `is-saved, app ÷ ${kind} baseline: ` +
        `CPU per request ${ratio(app.cpuMsPerRequest / base.cpuMsPerRequest, `≤ ${TARGETS_VS_REMIX.cpu}`)}, ` +
        `throughput ${ratio(app.summary.perSecond / base.summary.perSecond, `≥ ${TARGETS_VS_REMIX.throughput}`)}, ` +
        `p99 ${ratio(app.summary.p99 / base.summary.p99, `≤ ${TARGETS_VS_REMIX.p99}`)} ` +
        `(${fixed(app.summary.p99, 1)} ms vs ${fixed(base.summary.p99, 1)} ms)`,
    );
  }
  console.log(
    `load average at the end of the comparison: ${os
      .loadavg()
      .map((load) => fixed(load, 2))
      .join(", ")}`,
  );
  await measureCapacity({ sandbox, instanceUrl: instance.url, agent, seconds: capacitySeconds });
  await measureMemory({ instance, agent, concurrency, requests: memoryRequests });
}
