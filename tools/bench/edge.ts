// npm run bench:edge: issue #31's targets for what callers nobody has authenticated can hold of the
// production server, over loopback, against build/server.js started as `npm start` starts it (its
// node flags, NODE_ENV=production, the default limits, the embedded database in memory):
// - A1: 1,100 connections from 127.0.0.2 dripping bogus webhook bodies (reopened as the server
//   closes them) while 127.0.0.1 probes /healthz 60 times over 60 s: at most 2 probes may fail;
// - A2: 1,024 concurrent 4 MiB webhook bodies with bogus HMACs: the server's RSS may grow by at
//   most 64 MiB. Twice: from one address with nothing in front (TRUST_PROXY=0, where the
//   per-address shares bind), and behind a trusted proxy with each body from its own forwarded
//   address (TRUST_PROXY=1, where only the process-wide budget stands).
// Baselines from the same run: the same probes before the attack, and RSS before each burst.
// Needs: Linux (/proc), 127.0.0.2 on the loopback interface (Linux routes all of 127/8 there), and
// `ulimit -n` of at least 4,096 (the attack's 2,200 sockets on each side). Everything stops by
// itself: each phase is bounded in time and in connections opened.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import { connect, type Socket } from "node:net";
import path from "node:path";
import { withBuildLock } from "@saved-items/sandbox/build-lock";
import { repoRoot, SANDBOX_DEFAULTS } from "@saved-items/sandbox/config";
import { freePort } from "@saved-items/sandbox/ports";
import { MAX_WEBHOOK_BODY_BYTES } from "~/config/body-bounds";
import { SERVER_NODE_FLAGS } from "../../server/config";
import { rssBytes } from "./process-stats";
import { fixed, mib, percentile, printTable } from "./stats";

const ATTACKER = "127.0.0.2";
const PROBER = "127.0.0.1";
const HELD_CONNECTIONS = 1_100;
const PROBES = 60;
const PROBE_INTERVAL_MS = 1_000;
/** A probe unanswered this long failed: the sandbox's front takes an instance out of rotation then. */
const PROBE_TIMEOUT_MS = 1_000;
const MAX_PROBE_FAILURES = 2;
/** How soon a closed attacking connection is reopened, and how many it may open in all. */
const REOPEN_DELAY_MS = 1_000;
const MAX_ATTACK_CONNECTIONS = 100_000;
const DRIP_INTERVAL_MS = 1_000;
const BODIES = 1_024;
const BODY_CHUNK_BYTES = 64 * 1024;
const MAX_GROWTH_BYTES = 64 * 1024 * 1024;
/** How long one burst of bodies may take before whatever is left is cut. */
const BURST_LIMIT_MS = 90_000;
const RSS_SAMPLE_MS = 50;
const MIN_OPEN_FILES = 4_096;

const WEBHOOK_HEADERS = [
  "Content-Type: application/json",
  "X-Shopify-Hmac-Sha256: Ym9ndXM=",
  "X-Shopify-Topic: app/uninstalled",
  "X-Shopify-Shop-Domain: demo.myshopify.com",
  "X-Shopify-API-Version: 2026-10",
];
const webhookHead = (contentLength: number, extra: string[] = []) =>
  [
    "POST /webhooks/app/uninstalled HTTP/1.1",
    "Host: 127.0.0.1",
    ...WEBHOOK_HEADERS,
    ...extra,
    `Content-Length: ${contentLength}`,
    "",
    "",
  ].join("\r\n");

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function checkOpenFiles(): void {
  const line = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync("/proc/self/limits", "utf8"));
  const limit = line?.[1] === "unlimited" ? Infinity : Number(line?.[1] ?? 0);
  if (limit < MIN_OPEN_FILES) {
    console.error(
      `bench:edge needs ulimit -n of at least ${MIN_OPEN_FILES} (it is ${limit}): run ulimit -n 8192 first`,
    );
    process.exit(1);
  }
}

interface RunningServer {
  port: number;
  pid: number;
  stop(): Promise<void>;
}

/** build/server.js as npm start runs it, on a free loopback port; resolves once it listens. */
async function startServer(env: Record<string, string>): Promise<RunningServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [...SERVER_NODE_FLAGS, path.join(repoRoot, "build/server.js")], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      SHOPIFY_API_KEY: SANDBOX_DEFAULTS.SHOPIFY_API_KEY,
      SHOPIFY_API_SECRET: SANDBOX_DEFAULTS.SHOPIFY_API_SECRET,
      DIRECT_API_JWT_SECRET: SANDBOX_DEFAULTS.DIRECT_API_JWT_SECRET,
      SHOPIFY_APP_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: "pglite:memory",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  // One access-log line per request: keep the tail to explain a failed start, and keep the pipes drained.
  let output = "";
  const keep = (chunk: Buffer) => (output = (output + chunk.toString("utf8")).slice(-64 * 1024));
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start:\n${output}`)), 60_000);
    const listening = () => {
      if (!output.includes('"msg":"listening"')) return;
      clearTimeout(timer);
      child.stdout!.off("data", listening);
      resolve();
    };
    child.stdout!.on("data", listening);
    void exited.then(() => reject(new Error(`the server exited:\n${output}`)));
  });
  return {
    port,
    pid: child.pid!,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      const killer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

type ProbeResult = { ok: true; ms: number } | { ok: false; reason: string };

/** GET /healthz from the prober's address on a fresh connection: 200 within PROBE_TIMEOUT_MS, or why not. */
function probe(port: number): Promise<ProbeResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    const request = http.get(
      { host: "127.0.0.1", port, path: "/healthz", localAddress: PROBER, agent: false, timeout: PROBE_TIMEOUT_MS },
      (response) => {
        response.resume();
        response.on("end", () => {
          const ms = performance.now() - started;
          if (response.statusCode !== 200) resolve({ ok: false, reason: String(response.statusCode) });
          else if (ms > PROBE_TIMEOUT_MS) resolve({ ok: false, reason: "slow" });
          else resolve({ ok: true, ms });
        });
      },
    );
    request.on("timeout", () => request.destroy(new Error("timeout")));
    request.on("error", (error) => resolve({ ok: false, reason: error.message === "timeout" ? "timeout" : "error" }));
  });
}

async function probeSeries(port: number, count: number, intervalMs: number, beforeEach: () => void = () => {}) {
  const results: ProbeResult[] = [];
  for (let index = 0; index < count; index++) {
    const next = sleep(intervalMs);
    beforeEach();
    results.push(await probe(port));
    await next;
  }
  const failures = results.filter((result) => !result.ok).length;
  const latencies = results.flatMap((result) => (result.ok ? [result.ms] : [])).sort((a, b) => a - b);
  const reasons = results.flatMap((result) => (result.ok ? [] : [result.reason]));
  return { failures, p50: percentile(latencies, 0.5), max: latencies.at(-1) ?? NaN, reasons };
}

/**
 * The A1 attacker: HELD_CONNECTIONS sockets from ATTACKER, each sending a webhook's whole headers
 * and then its 8-byte body a byte a second, each reopened REOPEN_DELAY_MS after the server closes it.
 */
function holdSlowBodies(port: number) {
  const sockets = new Set<Socket>();
  let stopped = false;
  let opened = 0;
  let connected = 0;
  let maxConnected = 0;
  let answered = 0;
  const open = () => {
    if (stopped || opened >= MAX_ATTACK_CONNECTIONS) return;
    opened++;
    const socket = connect({ port, host: "127.0.0.1", localAddress: ATTACKER });
    sockets.add(socket);
    let drip: NodeJS.Timeout | undefined;
    let live = false;
    socket.on("error", () => {});
    socket.once("connect", () => {
      live = true;
      maxConnected = Math.max(maxConnected, ++connected);
      socket.write(`${webhookHead(8)}{`);
      drip = setInterval(() => socket.write(" "), DRIP_INTERVAL_MS);
    });
    socket.once("data", () => answered++);
    socket.once("close", () => {
      clearInterval(drip);
      if (live) connected--;
      sockets.delete(socket);
      setTimeout(open, REOPEN_DELAY_MS);
    });
  };
  for (let index = 0; index < HELD_CONNECTIONS; index++) open();
  return {
    stats: () => ({ opened, connected, maxConnected, answered }),
    stop() {
      stopped = true;
      for (const socket of sockets) socket.destroy();
    },
  };
}

type BodyOutcome = "401" | "503" | "408" | "413" | "other" | "closed unanswered" | "refused at connect";

/**
 * One bogus 4 MiB webhook body: headers, then the body in chunks as fast as the socket takes them,
 * stopping at the first byte of the answer (the server answers a refused one before reading it).
 */
function sendBogusBody(port: number, forwardedFor: string | undefined): Promise<BodyOutcome> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: "127.0.0.1", localAddress: ATTACKER });
    let sent = 0;
    let answer = "";
    let connected = false;
    let done = false;
    const chunk = Buffer.alloc(BODY_CHUNK_BYTES, 0x20);
    const finish = (outcome: BodyOutcome) => {
      if (done) return;
      done = true;
      socket.destroy();
      resolve(outcome);
    };
    const pump = () => {
      while (!done && answer === "" && sent < MAX_WEBHOOK_BODY_BYTES) {
        sent += BODY_CHUNK_BYTES;
        if (!socket.write(chunk)) {
          socket.once("drain", pump);
          return;
        }
      }
    };
    socket.on("error", () => {});
    socket.once("connect", () => {
      connected = true;
      const extra = forwardedFor === undefined ? [] : [`X-Forwarded-For: ${forwardedFor}`];
      socket.write(webhookHead(MAX_WEBHOOK_BODY_BYTES, extra));
      pump();
    });
    socket.on("data", (data: Buffer) => {
      answer += data.toString("latin1");
      const status = /^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1];
      if (status === undefined) return;
      finish(["401", "503", "408", "413"].includes(status) ? (status as BodyOutcome) : "other");
    });
    // A connection past MAX_CONNECTIONS_PER_CLIENT is accepted and closed at once: "closed unanswered".
    socket.once("close", () => finish(connected ? "closed unanswered" : "refused at connect"));
  });
}

/** BODIES bogus bodies at once, RSS sampled meanwhile: before, the peak and 2 s after the last answer. */
async function burst(server: RunningServer, forwardedFor: (index: number) => string | undefined) {
  const before = rssBytes(server.pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(server.pid))), RSS_SAMPLE_MS);
  const outcomes: Record<string, number> = {};
  const started = performance.now();
  const all = Promise.all(
    Array.from({ length: BODIES }, (_, index) =>
      sendBogusBody(server.port, forwardedFor(index)).then((outcome) => {
        outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
      }),
    ),
  );
  const limit = sleep(BURST_LIMIT_MS).then(() => "cut");
  const cut = (await Promise.race([all.then(() => "done"), limit])) === "cut";
  const seconds = (performance.now() - started) / 1000;
  await sleep(2_000);
  clearInterval(sampler);
  peak = Math.max(peak, rssBytes(server.pid));
  return { before, peak, after: rssBytes(server.pid), seconds, outcomes, cut };
}

function formatOutcomes(outcomes: Record<string, number>): string {
  return Object.entries(outcomes)
    .sort(([, a], [, b]) => b - a)
    .map(([key, count]) => `${key}×${count}`)
    .join(", ");
}

checkOpenFiles();
console.error("building (npm run build) and starting build/server.js with TRUST_PROXY=0...");
// The build empties build/ while another run may be starting from it: build and start under the lock.
const direct = await withBuildLock(async () => {
  try {
    execFileSync("npm", ["run", "-s", "build"], { cwd: repoRoot, stdio: "pipe" });
  } catch (error) {
    console.error(String((error as { stderr?: Buffer }).stderr ?? error));
    throw error;
  }
  return startServer({ TRUST_PROXY: "0" });
});
const stops: (() => Promise<void>)[] = [direct.stop];
const stopAll = async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
};
process.once("SIGINT", () => void stopAll().then(() => process.exit(130)));
process.once("SIGTERM", () => void stopAll().then(() => process.exit(143)));

try {
  console.error(`A1 baseline: ${PROBES} probes of /healthz from ${PROBER}, no attack...`);
  const quiet = await probeSeries(direct.port, PROBES, 100);

  console.error(`A1: ${HELD_CONNECTIONS} slow-body connections from ${ATTACKER}, ${PROBES} probes over ${PROBES} s...`);
  const attacker = holdSlowBodies(direct.port);
  await sleep(2_000);
  // How many of its connections the attacker holds, seen at each probe (one it has just opened and
  // the server is about to close counts too, so this is an upper bound).
  const held: number[] = [];
  const attacked = await probeSeries(direct.port, PROBES, PROBE_INTERVAL_MS, () =>
    held.push(attacker.stats().connected),
  );
  const attack = attacker.stats();
  attacker.stop();
  await sleep(3_000);

  console.error(`A2: ${BODIES} concurrent ${mib(MAX_WEBHOOK_BODY_BYTES)} bogus bodies from ${ATTACKER}...`);
  const fromOne = await burst(direct, () => undefined);

  console.error("A2 behind a trusted proxy: build/server.js with TRUST_PROXY=1, each body its own X-Forwarded-For...");
  const proxied = await startServer({ TRUST_PROXY: "1" });
  stops.push(proxied.stop);
  const fromMany = await burst(proxied, (index) => `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`);

  console.log(`\nbench:edge, production server (build/server.js, default limits), over loopback\n`);
  console.log(`A1: /healthz from ${PROBER} while ${ATTACKER} holds ${HELD_CONNECTIONS} slow-body connections`);
  printTable([
    {
      run: "baseline (no attack)",
      probes: String(PROBES),
      failed: String(quiet.failures),
      "p50 ms": fixed(quiet.p50),
      "max ms": fixed(quiet.max),
      target: "",
    },
    {
      run: "under attack",
      probes: String(PROBES),
      failed: `${attacked.failures}${attacked.reasons.length ? ` (${attacked.reasons.join(", ")})` : ""}`,
      "p50 ms": fixed(attacked.p50),
      "max ms": fixed(attacked.max),
      target: `≤ ${MAX_PROBE_FAILURES} failed: ${attacked.failures <= MAX_PROBE_FAILURES ? "met" : "MISSED"}`,
    },
  ]);
  console.log(
    `attacker: ${attack.opened} connections opened, ${fixed(
      percentile(
        held.sort((a, b) => a - b),
        0.5,
      ),
      0,
    )} connected at the median probe (at most ${attack.maxConnected}), ${attack.answered} answered`,
  );
  console.log(
    `\nA2: ${BODIES} concurrent ${mib(MAX_WEBHOOK_BODY_BYTES)} bodies with bogus HMACs (unbounded: ${mib(BODIES * MAX_WEBHOOK_BODY_BYTES)})`,
  );
  const growthRow = (run: string, result: Awaited<ReturnType<typeof burst>>) => ({
    run,
    "RSS before": mib(result.before),
    "RSS peak": mib(result.peak),
    "RSS after": mib(result.after),
    growth: mib(result.peak - result.before),
    seconds: fixed(result.seconds),
    target: `≤ ${mib(MAX_GROWTH_BYTES)}: ${result.peak - result.before <= MAX_GROWTH_BYTES ? "met" : "MISSED"}${result.cut ? " (cut at the time limit)" : ""}`,
  });
  printTable([
    growthRow(`one address, TRUST_PROXY=0`, fromOne),
    growthRow(`${BODIES} forwarded addresses, TRUST_PROXY=1`, fromMany),
  ]);
  console.log(`answers, one address: ${formatOutcomes(fromOne.outcomes)}`);
  console.log(`answers, forwarded addresses: ${formatOutcomes(fromMany.outcomes)}`);
} finally {
  await stopAll();
}
