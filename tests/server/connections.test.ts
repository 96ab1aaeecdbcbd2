// Deadlines, the connection cap and early refusals, over real connections to the server module
// running the production build. The server's own deadlines (the body's, the linger) run on
// setTimeout, which these tests fake and advance themselves; the headers deadline is node's own
// timer, so it is configured short, with every other bound far beyond the test's timeout.
import http from "node:http";
import type { Socket } from "node:net";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { platformServer } from "../support/platform";
import {
  loadBuild,
  rawConnection,
  send,
  serverBuildDir,
  startInProcess,
  type InProcessServer,
} from "../support/server";

// Past the app's 256 KiB for operation bodies, within the server's 1 MiB bound (which hostile-requests.test.ts tests).
const BIG = Buffer.alloc(768 * 1024, 0x20);
let server: InProcessServer;
let capped: InProcessServer;

beforeAll(async () => {
  // These tests are about connections: node's own client, without the platform mock in the way.
  platformServer.close();
  const dir = await serverBuildDir();
  const build = await loadBuild(dir);
  server = await startInProcess(build, path.join(dir, "client"), {
    HEADERS_TIMEOUT_SECONDS: "1",
    BODY_TIMEOUT_SECONDS: "1",
    REQUEST_TIMEOUT_SECONDS: "3600",
    LINGER_SECONDS: "1",
  });
  capped = await startInProcess(build, path.join(dir, "client"), {
    MAX_CONNECTIONS: "2",
    METRICS_TOKEN: "metrics-token-0123456789",
  });
}, 240_000);

afterAll(async () => {
  await server?.stop();
  await capped?.stop();
});

afterEach(() => {
  vi.useRealTimers();
});

/**
 * The server's own timers from here on run only when the test advances them; the test's other
 * timers (setInterval) and node's socket and HTTP timers stay real.
 */
const holdServerTimers = () => vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });

/** The server's side of the next connection it accepts: what it has written, whether it has let go. */
const nextAccepted = () => new Promise<Socket>((resolve) => server.appServer.server.once("connection", resolve));

const envelopeOf = (body: string) =>
  JSON.parse(body) as { ok: boolean; error: { code: string; message: string; retryable: boolean } };

describe("a response sent before the request body was read", () => {
  const refusals = [
    {
      name: "413 on the declared length of a 768 KiB JSON body",
      path: "/api/headless/auth/exchange",
      headers: { "Content-Type": "application/json", "Content-Length": BIG.length },
      status: 413,
    },
    {
      name: "413 while reading a 768 KiB chunked body (no length declared)",
      path: "/api/headless/auth/exchange",
      headers: { "Content-Type": "application/json", "Transfer-Encoding": "chunked" },
      status: 413,
    },
    {
      name: "415 for a 768 KiB body that is not JSON",
      path: "/api/headless/auth/exchange",
      headers: { "Content-Type": "text/plain", "Content-Length": BIG.length },
      status: 415,
    },
    {
      name: "401 for an unsigned proxy POST with a 768 KiB body",
      path: "/proxy/api/save?shop=demo.myshopify.com",
      headers: { "Content-Type": "application/json", "Content-Length": BIG.length },
      status: 401,
    },
    {
      name: "405 for a 768 KiB POST to a GET operation",
      path: "/proxy/api/list",
      headers: { "Content-Type": "application/json", "Content-Length": BIG.length },
      status: 405,
    },
  ];

  test.each(refusals)(
    "$name: Connection: close, and the next request on the same keep-alive agent goes out on a fresh connection",
    async (refusal) => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const refused = await send(`${server.url}${refusal.path}`, {
          method: "POST",
          headers: refusal.headers,
          body: BIG,
          agent,
        });
        expect(refused.status).toBe(refusal.status);
        expect(envelopeOf(refused.body).ok).toBe(false);
        expect(refused.headers.connection).toBe("close");

        const next = await send(`${server.url}/api/openapi.json`, { agent });
        expect(next.status).toBe(200);
        expect(next.localPort, "not behind the upload nobody reads").not.toBe(refused.localPort);
      } finally {
        agent.destroy();
      }
    },
  );

  test("the rest of a body still arriving is not read, and the connection closes LINGER_SECONDS after the answer", async () => {
    holdServerTimers();
    const accepted = nextAccepted();
    const { socket, received, closed, gone } = await rawConnection(server.port);
    const serverSide = await accepted;
    socket.write(
      "POST /proxy/api/save?shop=demo.myshopify.com HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{",
    );
    const trickle = setInterval(() => socket.writable && socket.write(" "), 50);
    try {
      // The 401 at once (no timer of the server's has run), with the server's half of the connection closed after it...
      await closed;
      expect(received()).toMatch(/^HTTP\/1\.1 401 /);
      expect(received()).toMatch(/\r\nconnection: close\r\n/i);
      expect(received()).toContain('"code":"INVALID_PROXY_SIGNATURE"');
      // ...then what the client goes on sending is left unread (node would dump it at full speed,
      // a garbage buffer for every piece read)...
      const readBefore = serverSide.bytesRead;
      // setInterval is real here (setTimeout is the server's, held): time for a few more bytes to arrive.
      await new Promise<void>((resolve) => {
        const wait = setInterval(() => {
          clearInterval(wait);
          resolve();
        }, 200);
      });
      expect(serverSide.bytesRead, "nothing read after the answer").toBe(readBefore);
      await vi.advanceTimersByTimeAsync(999);
      expect(serverSide.destroyed, "still open 999 ms after the answer").toBe(false);
      // ...and the connection dropped once LINGER_SECONDS (1 s) have passed (the client learns it at its next write).
      await vi.advanceTimersByTimeAsync(1);
      expect(serverSide.destroyed).toBe(true);
      await gone;
    } finally {
      clearInterval(trickle);
      socket.destroy();
    }
  });
});

describe("deadlines", () => {
  test("a body trickled one byte at a time is answered 408 with the envelope when BODY_TIMEOUT_SECONDS runs out, and closed", async () => {
    holdServerTimers();
    const accepted = nextAccepted();
    const { socket, received, closed } = await rawConnection(server.port);
    const serverSide = await accepted;
    socket.write(
      "POST /api/headless/auth/exchange HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\nX-Request-Id: trickle-1\r\n\r\n{",
    );
    const trickle = setInterval(() => socket.writable && socket.write(" "), 200);
    try {
      // The request has begun once the server holds its body deadline.
      await expect.poll(() => vi.getTimerCount()).toBe(1);
      await vi.advanceTimersByTimeAsync(999);
      expect(serverSide.bytesWritten, "nothing answered 999 ms in").toBe(0);
      await vi.advanceTimersByTimeAsync(1);
      await closed;
      const [head, body] = received().split("\r\n\r\n");
      expect(head).toMatch(/^HTTP\/1\.1 408 /);
      expect(head).toMatch(/\r\nconnection: close/i);
      expect(envelopeOf(body!)).toEqual({
        ok: false,
        error: { code: "VALIDATION_ERROR", message: "Request body not received within 1 s", retryable: false },
      });
    } finally {
      clearInterval(trickle);
      socket.destroy();
    }
    await expect
      .poll(() => server.requestLines().find((entry) => entry.requestId === "trickle-1"))
      .toMatchObject({ status: 408, bodyTimeout: true, route: "/api/headless/auth/exchange" });
    // The app's abandoned read of the truncated body is no error of the server's.
    expect(server.lines().filter((entry) => entry.level === "error")).toEqual([]);
  });

  // Node's own timer: with REQUEST_TIMEOUT_SECONDS an hour, only HEADERS_TIMEOUT_SECONDS (1 s) can
  // close the connection within the test's timeout.
  test("headers that never finish are answered 408 and closed after HEADERS_TIMEOUT_SECONDS", async () => {
    const { socket, received, closed } = await rawConnection(server.port);
    socket.write("GET /api/openapi.json HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    await closed;
    expect(received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(received()).toContain('"code":"VALIDATION_ERROR"');
    expect(server.lines()).toContainEqual(
      expect.objectContaining({ msg: "client error", status: 408, code: "ERR_HTTP_REQUEST_TIMEOUT" }),
    );
  });
});

/** The connections the server holds open now, as node counts them for its maxConnections. */
const openConnections = ({ appServer }: InProcessServer) =>
  new Promise<number>((resolve, reject) =>
    appServer.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
  );

describe("MAX_CONNECTIONS", () => {
  test("connections beyond the cap are closed on arrival and counted; a freed slot serves again", async () => {
    const first = await rawConnection(capped.port);
    const second = await rawConnection(capped.port);
    // The cap is node's (server.maxConnections), counted as the server accepts: both taken first.
    await vi.waitFor(async () => expect(await openConnections(capped)).toBe(2));
    const third = await rawConnection(capped.port);
    // Closed with nothing sent: a connection closed for its missing headers would have had a 408.
    await third.closed;
    expect(third.received()).toBe("");

    first.socket.destroy();
    second.socket.destroy();
    await Promise.all([first.closed, second.closed]);
    await vi.waitFor(async () => expect(await openConnections(capped)).toBe(0));
    const metrics = await send(`${capped.url}/metrics`, {
      headers: { Authorization: "Bearer metrics-token-0123456789" },
    });
    expect(metrics.status).toBe(200);
    expect(metrics.body).toMatch(/^http_connections_dropped_total 1$/m);
    expect(capped.lines()).toContainEqual(expect.objectContaining({ msg: "connection dropped", maxConnections: 2 }));
  });
});
