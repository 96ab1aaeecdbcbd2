// npm run bench:storefront [-- --runs 5]: what the app costs the pages the platform grades, in
// Lighthouse (pinned, 12.2.3) with Debian's Chromium against a sandbox of its own. Each section
// takes the shared sandbox and browser (harness.ts) and prints its own table: the storefront's
// Lighthouse figures, then the admin pages' Web Vitals. Prints figures; asserts nothing.
import { parseArgs } from "node:util";
import { startBrowserBench } from "./harness";
import { measureAdminVitals, prepareAdminVitals, printAdminVitals } from "./admin";
import { measureStorefront } from "./storefront";

const { values } = parseArgs({ options: { runs: { type: "string", default: "5" } } });
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1)
  throw new Error(`--runs must be a whole number of at least 1, not ${values.runs}`);

const bench = await startBrowserBench(runs);
try {
  await measureStorefront(bench);
  const baseUrl = bench.sandbox.url;
  await prepareAdminVitals(baseUrl);
  printAdminVitals(await measureAdminVitals({ baseUrl, browser: bench.chromium.browser, runs, log: console.error }));
} finally {
  await bench.stop();
}
