// Graceful shutdown: in-process with a route held open by the test (the shutdown deadline, a
// setTimeout, faked and advanced by the test), and the built server (`node build/server.js`, as
// `npm start` runs it) receiving SIGTERM while a real request is in flight. Keep-alive and other
// bounds are set far beyond the test's timeout, so only the shutdown can close what closes.
import http from "node:http";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { platformServer } from "../support/platform";
import {
  freshDatabaseUrl,
  loadBuild,
  parseRawResponse,
  rawConnection,
  send,
  serverBuildDir,
  startBuiltServer,
  startInProcess,
  withTestRoutes,
  type ChildServer,
} from "../support/server";

let dir: string;
const children: ChildServer[] = [];

beforeAll(async () => {
  platformServer.close();
  dir = await serverBuildDir();
}, 240_000);

afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(children.splice(0).map((child) => child.stop()));
});

const HOUR = "3600";
const DEADLINE_LOG = "shutdown deadline reached; closing connections still open";

const EXCHANGE_BODY = JSON.stringify({ shop: "demo.myshopify.com", customerAccountAccessToken: "cat-1001" });

const CONTINUE = "HTTP/1.1 100 Continue\r\n\r\n";

/**
 * The exchange request in flight: its head sent with Expect: 100-continue, and its body held until
 * `finish`. Resolves once the server's "100 Continue" says it took the request in, so a signal sent
 * after finds it in flight, however late the server reads on a loaded machine.
 */
async function heldExchange(port: number) {
  const connection = await rawConnection(port);
  connection.socket.write(
    `POST /api/headless/auth/exchange HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${EXCHANGE_BODY.length}\r\nExpect: 100-continue\r\nX-Request-Id: in-flight\r\n\r\n`,
  );
  await expect.poll(connection.received).toBe(CONTINUE);
  return {
    ...connection,
    /** What came after the 100 Continue: the request's answer. */
    answer: () => connection.received().slice(CONTINUE.length),
    finish: () => connection.socket.write(EXCHANGE_BODY),
  };
}

/** A test route held open until the test releases it. */
async function buildWithHeldRoute() {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let arrived!: () => void;
  const inFlight = new Promise<void>((resolve) => (arrived = resolve));
  const build = withTestRoutes(await loadBuild(dir), {
    "test/slow": async () => {
      arrived();
      await held;
      return new Response("done");
    },
  });
  return { build, release, inFlight };
}

describe("in process: shutdown()", () => {
  test("closes idle keep-alive connections at once, refuses new ones, lets the request in flight finish with Connection: close", async () => {
    const { build, release, inFlight } = await buildWithHeldRoute();
    const server = await startInProcess(build, path.join(dir, "client"), {
      SHUTDOWN_TIMEOUT_SECONDS: HOUR,
      KEEP_ALIVE_TIMEOUT_SECONDS: HOUR,
    });

    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    expect((await send(`${server.url}/healthz`, { agent })).status).toBe(200);
    const [idleSocket] = Object.values(agent.freeSockets).flat();
    const idleClosed = new Promise<void>((resolve) => idleSocket!.once("close", () => resolve()));

    const slow = send(`${server.url}/test/slow`);
    await inFlight;
    let stoppedYet = false;
    const stopped = server.appServer.shutdown().finally(() => (stoppedYet = true));

    // Closed while the request in flight is still held: nothing but the shutdown closes it within the hour.
    await idleClosed;
    await expect(send(`${server.url}/healthz`)).rejects.toMatchObject({ code: "ECONNREFUSED" });
    expect(stoppedYet, "the shutdown waits for the request in flight").toBe(false);
    release();
    const answer = await slow;
    expect(answer.status).toBe(200);
    expect(answer.body).toBe("done");
    expect(answer.headers.connection).toBe("close");
    expect(await stopped).toEqual({ forced: false });
    expect(server.lines().map((line) => line.msg)).toEqual(expect.arrayContaining(["shutting down", "stopped"]));
    agent.destroy();
  });

  test("a request outlasting SHUTDOWN_TIMEOUT_SECONDS is cut when it runs out, not before", async () => {
    const { build, release, inFlight } = await buildWithHeldRoute();
    const server = await startInProcess(build, path.join(dir, "client"), { SHUTDOWN_TIMEOUT_SECONDS: "1" });
    try {
      const slow = send(`${server.url}/test/slow`).catch((error: unknown) => error);
      await inFlight;
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
      const stopped = server.appServer.shutdown();
      const deadlineLogged = () => server.lines().some((line) => line.msg === DEADLINE_LOG);

      await vi.advanceTimersByTimeAsync(999);
      expect(deadlineLogged(), "999 ms in").toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(deadlineLogged()).toBe(true);
      expect(await slow, "the request, cut").toMatchObject({ code: "ECONNRESET" });
      expect(await stopped).toEqual({ forced: true });
    } finally {
      release();
    }
  });
});

describe("node build/server.js and SIGTERM", () => {
  test("a request in flight completes, then the process exits 0 within the bound", async () => {
    const child = await startBuiltServer(dir, {
      DATABASE_URL: await freshDatabaseUrl(),
      // Far beyond what the request takes on a loaded machine: what is tested is that it finishes
      // (the deadline is tested in process above).
      SHUTDOWN_TIMEOUT_SECONDS: "60",
      REQUEST_TIMEOUT_SECONDS: "60",
      BODY_TIMEOUT_SECONDS: "60",
      KEEP_ALIVE_TIMEOUT_SECONDS: HOUR,
    });
    children.push(child);
    const idle = await rawConnection(child.port);
    idle.socket.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    await expect.poll(idle.received).toMatch(/^HTTP\/1\.1 200 /);

    const request = await heldExchange(child.port);
    child.child.kill("SIGTERM");

    // Only the shutdown closes it within the hour, and before the request in flight is answered.
    await idle.closed;
    expect(request.answer(), "the request in flight, still unanswered").toBe("");
    await expect
      .poll(() =>
        send(`${child.url}/healthz`).then(
          () => "answered",
          (error: NodeJS.ErrnoException) => error.code,
        ),
      )
      .toBe("ECONNREFUSED");

    request.finish();
    await request.closed;
    const answer = parseRawResponse(request.answer());
    expect(answer.status).toBe(403);
    expect(answer.headers.connection).toBe("close");
    expect(JSON.parse(answer.body).error.code).toBe("SHOP_NOT_INSTALLED");

    const { code } = await child.exited;
    expect(code).toBe(0);
    const lines = child.lines();
    expect(lines.find((line) => line.requestId === "in-flight")).toMatchObject({
      status: 403,
      code: "SHOP_NOT_INSTALLED",
    });
    expect(lines.map((line) => line.msg)).toEqual(
      expect.arrayContaining(["signal received", "shutting down", "stopped"]),
    );
    // Within the bound: its deadline never ran out.
    expect(lines.find((line) => line.msg === "stopped")).toMatchObject({ forced: false });
    expect(lines.map((line) => line.msg)).not.toContain(DEADLINE_LOG);
  });

  test("npm start hands SIGTERM to the server itself (its script execs node), which stops gracefully and exits 0", async () => {
    const child = await startBuiltServer(dir, { DATABASE_URL: await freshDatabaseUrl() }, { npmStart: true });
    children.push(child);
    expect((await send(`${child.url}/healthz`)).status).toBe(200);
    child.child.kill("SIGTERM");
    const { code } = await child.exited;
    expect(child.lines().map((line) => line.msg)).toEqual(expect.arrayContaining(["signal received", "stopped"]));
    expect(code).toBe(0);
  });

  test("a request outlasting SHUTDOWN_TIMEOUT_SECONDS is cut at the deadline and the process exits 1", async () => {
    const child = await startBuiltServer(dir, {
      DATABASE_URL: await freshDatabaseUrl(),
      SHUTDOWN_TIMEOUT_SECONDS: "1",
      BODY_TIMEOUT_SECONDS: "20",
    });
    children.push(child);
    const request = await heldExchange(child.port);
    child.child.kill("SIGTERM");
    const { code } = await child.exited;
    expect(code).toBe(1);
    // The deadline cut it (the in-process test above times the deadline itself), not the request's
    // end: its body was never sent, and it was never answered.
    expect(child.lines().map((line) => line.msg)).toContain(DEADLINE_LOG);
    expect(request.answer()).toBe("");
    request.socket.destroy();
  });
});
