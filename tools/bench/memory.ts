// npm run bench:memory [-- --requests 100000 --concurrency 32]: is-saved over the proxy against one
// app instance; its RSS after the first 1,000 requests and after all of them (tools/bench/memory-phase.ts).
import { parseArgs } from "node:util";
import { keepAliveAgent } from "./load";
import { measureMemory } from "./memory-phase";
import { BENCH_SEED, startMeasuredSandbox } from "./sandbox";

const { values } = parseArgs({
  options: {
    requests: { type: "string", default: "100000" },
    concurrency: { type: "string", default: "32" },
  },
});
const concurrency = Number(values.concurrency);

const sandbox = await startMeasuredSandbox({ instances: 1, seedFile: BENCH_SEED });
const agent = keepAliveAgent(concurrency);
try {
  await measureMemory({ instance: sandbox.instances[0]!, agent, concurrency, requests: Number(values.requests) });
} finally {
  agent.destroy();
  await sandbox.stop();
}
