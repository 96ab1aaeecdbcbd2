// npm run bench:storefront [-- --runs 5]: what the app costs the pages the platform grades, in
// Lighthouse (pinned, 12.2.3) with Debian's Chromium against a sandbox of its own. Each section
// takes the shared sandbox and browser (harness.ts) and prints its own table; the admin pages'
// section goes after the storefront's. Prints figures; asserts nothing.
import { parseArgs } from "node:util";
import { startBrowserBench } from "./harness";
import { measureStorefront } from "./storefront";

const { values } = parseArgs({ options: { runs: { type: "string", default: "5" } } });
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1)
  throw new Error(`--runs must be a whole number of at least 1, not ${values.runs}`);

const bench = await startBrowserBench(runs);
try {
  await measureStorefront(bench);
} finally {
  await bench.stop();
}
