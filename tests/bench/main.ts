// npm run bench [-- --seconds 5 --concurrency 32 --capacity-seconds 8]: the app over real HTTP
// (one sandbox instance, the emulator in its own process) next to a baseline doing only the proxy
// signature check, then what a Standard shop sustains. Prints figures; asserts nothing.
import os from "node:os";
import { parseArgs } from "node:util";
import { startBaseline, type Baseline } from "./baseline";
import { measureCapacity } from "./capacity";
import { keepAliveAgent } from "./load";
import { measureOperations } from "./operations";
import { phaseRow } from "./phase";
import { BENCH_SEED, startMeasuredSandbox } from "./sandbox";
import { fixed, printTable } from "./stats";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "5" },
    concurrency: { type: "string", default: "32" },
    "capacity-seconds": { type: "string", default: "8" },
  },
});
const seconds = Number(values.seconds);
const concurrency = Number(values.concurrency);
const capacitySeconds = Number(values["capacity-seconds"]);

const sandbox = await startMeasuredSandbox({ instances: 1, seedFile: BENCH_SEED });
const agent = keepAliveAgent(concurrency);
let baseline: Baseline | undefined;
try {
  baseline = await startBaseline();
  const instance = sandbox.instances[0]!;
  const reports = await measureOperations({ sandbox, instance, baseline, agent, concurrency, seconds });
  console.log(
    `\nOperations: ${concurrency} connections, ${seconds} s each, one app instance (pid ${instance.pid}) vs the baseline ` +
      `(pid ${baseline.pid}: node:http and the app's proxy-signature verifier); ${os.cpus().length} cores, shared. ` +
      "Per-request platform figures are deltas of /__sandbox/platform-usage; CPU is the measured process's own, from /proc.\n",
  );
  printTable(reports.map(phaseRow));
  const app = reports.find((report) => report.name === "is-saved")!;
  const base = reports.find((report) => report.name.startsWith("baseline"))!;
  console.log(
    `\nis-saved, app ÷ baseline: CPU per request ${fixed(app.cpuMsPerRequest / base.cpuMsPerRequest, 2)}× ` +
      `(target ≤ 1.5), throughput ${fixed(app.summary.perSecond / base.summary.perSecond, 2)}× (target ≥ 0.8), ` +
      `p99 ${fixed(app.summary.p99, 1)} ms vs ${fixed(base.summary.p99, 1)} ms`,
  );
  await measureCapacity({ sandbox, instanceUrl: instance.url, agent, seconds: capacitySeconds });
} finally {
  agent.destroy();
  await baseline?.stop();
  await sandbox.stop();
}
