import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vitest/config";
import tsconfigPaths from "vite-tsconfig-paths";

const isVitest = Boolean(process.env.VITEST);

/**
 * How long expect.poll and vi.waitFor wait for what a test waits on (a log line, a closed
 * connection, a browser's answer): seconds on a loaded two-core machine, where their own 1 s
 * defaults made correct tests fail. A bound for something that never comes, not a measurement.
 */
const WAIT_TIMEOUT_MS = 10_000;

/** Remix's future flags, also those of the build tests/support/app.ts makes of the app's modules. */
export const remixFuture = {
  v3_fetcherPersist: true,
  v3_relativeSplatPath: true,
  v3_throwAbortReason: true,
  v3_lazyRouteDiscovery: true,
  v3_singleFetch: false,
  v3_routeConfig: false,
};

export default defineConfig({
  server: { port: Number(process.env.PORT || 3000) },
  plugins: [
    // Under vitest the route modules are imported directly; the Remix plugin would only slow that down.
    !isVitest &&
      remix({
        ignoredRouteFiles: ["**/.*", "**/*.test.*"],
        future: remixFuture,
      }),
    tsconfigPaths(),
  ],
  build: { assetsInlineLimit: 0 },
  // The server bundle runs on Node 22: app/db.server.ts awaits its database at the top level.
  environments: { ssr: { build: { target: "node22" } } },
  test: {
    include: ["tests/**/*.test.ts", "app/**/*.test.ts", "packages/**/*.test.ts", "tools/**/*.test.ts"],
    globalSetup: ["tests/setup/global-setup.ts"],
    setupFiles: ["tests/setup/per-file.ts"],
    reporters: ["default", "./tests/setup/summary-reporter.ts"],
    // Most test files wait on sockets, child processes and timers, not the CPU: vitest's default on
    // two cores (one worker fewer than the cores) ran the suite one file at a time. Files are kept
    // apart (a database, a Redis key prefix, free ports and scratch directories of their own).
    maxWorkers: 4,
    minWorkers: 1,
    // Bounds for a test that hangs, not measures: a test starting a production server or a sandbox
    // takes 10-20 s beside another run of the suite on two cores, which 20 s cut short.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    expect: { poll: { timeout: WAIT_TIMEOUT_MS } },
    // vi.waitFor's default, set in tests/setup/per-file.ts (vitest has no setting for it).
    provide: { waitTimeoutMs: WAIT_TIMEOUT_MS },
    env: {
      NODE_ENV: "test",
    },
  },
});
