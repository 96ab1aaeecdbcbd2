/**
 * How long expect.poll and vi.waitFor wait for what a test waits on (a log line, a closed
 * connection, a browser's answer): seconds on a loaded two-core machine, where their own 1 s
 * defaults made correct tests fail. A bound for something that never comes, not a measurement.
 */
export const WAIT_TIMEOUT_MS = 10_000;
