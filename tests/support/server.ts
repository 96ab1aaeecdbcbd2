// Shared by the tests of the production HTTP server (server/): one production build per test run,
// copied out of build/ so other test files rebuilding it meanwhile cannot pull files from under a
// running server; the server started in-process on that build, or as `node build/server.js`.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, cpSync, existsSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { connect, type Socket } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "@remix-run/node";
import { afterAll, inject } from "vitest";
import { SERVER_NODE_FLAGS, serverConfigOf } from "../../server/config";
import { createAppServer, type AppServer } from "../../server/http-server";
import { createTestDatabase } from "@saved-items/sandbox/test-databases";
import { builtThisRun, withBuildLock } from "@saved-items/sandbox/build-lock";
import { freePort } from "@saved-items/sandbox/ports";
import { TEST_ENV, testEnv } from "./test-env";
import { isAlive } from "@saved-items/platform-emulator/processes";
import { repoRoot } from "@saved-items/sandbox/config";

/** The parent's environment minus what vitest sets, which would switch the Remix build plugin off. */
function buildEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.startsWith("VITEST") && key !== "TEST" && key !== "NODE_ENV"),
  ) as NodeJS.ProcessEnv;
}

/**
 * `npm run build` (the Remix build, then the server bundle) once per test run, keyed by the vitest
 * process (the parent of every worker), copied to .cache/server-test-builds/<pid>/build/ next to a
 * copy of package.json, so `npm start` can run there too. Returns that build/ directory, which holds
 * server.js, server/index.js and client/; packages resolve from the repository's node_modules.
 */
export async function serverBuildDir(): Promise<string> {
  const root = path.join(repoRoot, ".cache/server-test-builds");
  const dir = path.join(root, String(process.ppid), "build");
  const done = path.join(dir, "..", "done");
  if (existsSync(done)) return dir;
  return withBuildLock(() => {
    if (existsSync(done)) return dir;
    for (const stale of existsSync(root) ? readdirSync(root) : []) {
      if (!isAlive(Number(stale))) rmSync(path.join(root, stale), { recursive: true, force: true });
    }
    // The run's sandbox build when there is one: sandboxes may be running on build/.
    if (!builtThisRun()) execFileSync("npm", ["run", "-s", "build"], { cwd: repoRoot, stdio: "pipe", env: buildEnv() });
    rmSync(path.dirname(dir), { recursive: true, force: true });
    cpSync(path.join(repoRoot, "build"), dir, { recursive: true });
    copyFileSync(path.join(repoRoot, "package.json"), path.join(dir, "../package.json"));
    writeFileSync(done, "");
    return dir;
  });
}

export async function loadBuild(dir: string): Promise<ServerBuild> {
  return (await import(/* @vite-ignore */ pathToFileURL(path.join(dir, "server/index.js")).href)) as ServerBuild;
}

type Loader = (args: { request: Request; context: Record<string, unknown> }) => unknown;

/** The build with extra resource routes (test-only, added here, never in the app): path → loader. */
export function withTestRoutes(build: ServerBuild, loaders: Record<string, Loader>): ServerBuild {
  const routes = { ...build.routes };
  for (const [routePath, loader] of Object.entries(loaders)) {
    const id = `test-routes/${routePath}`;
    routes[id] = {
      id,
      parentId: "root",
      path: routePath,
      index: undefined,
      caseSensitive: undefined,
      module: { loader },
    } as never;
  }
  return { ...build, routes };
}

export interface LogLine {
  t: string;
  level: string;
  msg: string;
  [key: string]: unknown;
}

export interface InProcessServer {
  url: string;
  port: number;
  appServer: AppServer;
  /** Every line written so far, raw. */
  output: () => string;
  lines: () => LogLine[];
  requestLines: () => LogLine[];
  stop: () => Promise<void>;
}

/** The server module on a build, in this process, on 127.0.0.1 and a free port; env overrides its config. */
export async function startInProcess(
  build: ServerBuild,
  clientDir: string,
  env: Record<string, string> = {},
): Promise<InProcessServer> {
  let output = "";
  const appServer = createAppServer({
    build,
    clientDir,
    config: serverConfigOf(testEnv({ PORT: "0", HOST: "127.0.0.1", ...env })),
    writeLine: (line) => (output += line),
  });
  const { port } = await appServer.listen();
  const lines = () =>
    output
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as LogLine);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    appServer,
    output: () => output,
    lines,
    requestLines: () => lines().filter((line) => line.msg === "request"),
    stop: async () => {
      if (appServer.server.listening) await appServer.shutdown();
    },
  };
}

const databaseDrops: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(databaseDrops.splice(0).map((drop) => drop()));
});

/** A migrated database of its own (a copy of the run's template) for a child server, as a DATABASE_URL. */
export async function freshDatabaseUrl(): Promise<string> {
  const database = await createTestDatabase(inject("testDatabases"));
  databaseDrops.push(database.drop);
  return database.url;
}

export interface ChildServer {
  url: string;
  port: number;
  child: ChildProcess;
  output: () => string;
  lines: () => LogLine[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop: () => Promise<void>;
}

/**
 * The app's own variables for a child server (the values the tests use), plus env. The suite's
 * Redis command bound goes along: with production's 1 s, a child on a loaded test machine reads a
 * slow command as Redis being away.
 */
export function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: "production",
    ...TEST_ENV,
    ...(process.env.REDIS_COMMAND_TIMEOUT_MS && { REDIS_COMMAND_TIMEOUT_MS: process.env.REDIS_COMMAND_TIMEOUT_MS }),
    HOST: "127.0.0.1",
    ...env,
  };
}

/**
 * `node build/server.js` of the test build (from the repository root), or with `npmStart` the
 * package's `npm start` itself (from the copy's root); resolves once it listens (or exits).
 */
export async function startBuiltServer(
  dir: string,
  env: Record<string, string>,
  options: { npmStart?: boolean } = {},
): Promise<ChildServer> {
  const port = await freePort();
  const child = options.npmStart
    ? spawn("npm", ["start", "--silent"], {
        cwd: path.dirname(dir),
        env: childEnv({ PORT: String(port), ...env }),
        stdio: ["ignore", "pipe", "pipe"],
      })
    : spawn(process.execPath, [...SERVER_NODE_FLAGS, path.join(dir, "server.js")], {
        cwd: repoRoot,
        env: childEnv({ PORT: String(port), ...env }),
        stdio: ["ignore", "pipe", "pipe"],
      });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  await new Promise<void>((resolve, reject) => {
    // A bound for a start that hangs: beside another run of the suite a start (node, the build, the
    // migrations) printed nothing for 30 s.
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 120_000);
    const check = () => {
      if (output.includes('"msg":"listening"')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", check);
    void exited.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    child,
    output: () => output,
    lines: () =>
      output
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as LogLine),
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The client's port of the connection it was answered on: another port, another connection. */
  localPort: number;
}

/** One request with node's http client (an agent of the caller's choosing). */
export function send(
  url: string,
  options: {
    method?: string;
    headers?: http.OutgoingHttpHeaders;
    body?: string | Buffer;
    agent?: http.Agent | false;
  } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method: options.method ?? "GET", headers: options.headers, agent: options.agent ?? false },
      (response) => {
        // Read now: the socket is detached from the response by its end.
        const localPort = response.socket.localPort!;
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode!,
            headers: response.headers,
            body: Buffer.concat(chunks).toString("utf8"),
            localPort,
          }),
        );
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(options.body);
  });
}

/** A raw connection to the server, for what an HTTP client library would not do (trickling, stalling). */
/**
 * `closed` resolves when the server ends or resets the connection: the client's side
 * stays open after the server's FIN, so a test can go on sending as an uploading client would;
 * `gone` when the socket is closed for good (for a client still sending: the server reset it).
 */
export function rawConnection(
  port: number,
): Promise<{ socket: Socket; received: () => string; closed: Promise<void>; gone: Promise<void> }> {
  return new Promise((resolve, reject) => {
    // Half-open allowed, as an HTTP client still uploading keeps sending after the server's FIN.
    const socket = connect({ port, host: "127.0.0.1", allowHalfOpen: true });
    let received = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (received += chunk));
    const closed = new Promise<void>((done) => {
      socket.once("end", () => done());
      socket.once("close", () => done());
    });
    socket.on("error", () => {});
    const gone = new Promise<void>((done) => socket.once("close", () => done()));
    socket.once("connect", () => resolve({ socket, received: () => received, closed, gone }));
    socket.once("error", reject);
  });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Status line, headers (lower-cased names) and body of a raw HTTP/1.1 response, chunked or not. */
export function parseRawResponse(raw: string): { status: number; headers: Record<string, string>; body: string } {
  const split = raw.indexOf("\r\n\r\n");
  const [statusLine, ...headerLines] = raw.slice(0, split).split("\r\n");
  const headers = Object.fromEntries(
    headerLines.map((line) => [
      line.slice(0, line.indexOf(":")).toLowerCase(),
      line.slice(line.indexOf(":") + 1).trim(),
    ]),
  );
  let body = raw.slice(split + 4);
  if (headers["transfer-encoding"] === "chunked") {
    let decoded = "";
    for (;;) {
      const end = body.indexOf("\r\n");
      const size = parseInt(body.slice(0, end), 16);
      if (!size) break;
      decoded += body.slice(end + 2, end + 2 + size);
      body = body.slice(end + 2 + size + 2);
    }
    body = decoded;
  }
  return { status: Number(statusLine!.split(" ")[1]), headers, body };
}
