// What a caller nobody has authenticated yet can hold of the server: connections from one address,
// bodies dripped in before their HMAC can be checked, bytes of bogus bodies in flight. Over real
// connections from two loopback addresses (127.0.0.0/8 is all this host's) to the server module on
// the production build, with its bounds configured small so the scaled-down attack runs in seconds.
import { createHmac } from "node:crypto";
import http from "node:http";
import { connect, type Socket } from "node:net";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { TEST_ENV } from "../support/test-env";
import { platformServer } from "../support/platform";
import {
  loadBuild,
  parseRawResponse,
  rawConnection,
  send,
  serverBuildDir,
  sleep,
  startInProcess,
  type InProcessServer,
} from "../support/server";

const BOGUS_WEBHOOK_HEADERS = [
  "Content-Type: application/json",
  "X-Shopify-Hmac-Sha256: Ym9ndXM=",
  "X-Shopify-Topic: app/uninstalled",
  "X-Shopify-Shop-Domain: demo.myshopify.com",
  "X-Shopify-Webhook-Id: bogus-1",
  "X-Shopify-API-Version: 2026-10",
].join("\r\n");

const webhookHead = (contentLength: number, extraHeaders = "") =>
  `POST /webhooks/app/uninstalled HTTP/1.1\r\nHost: 127.0.0.1\r\n${BOGUS_WEBHOOK_HEADERS}\r\n${extraHeaders}Content-Length: ${contentLength}\r\n\r\n`;

/** Scaled down from 1,024 connections and 1,100 held: the same proportions, in seconds. */
const MAX_CONNECTIONS = 40;
const MAX_CONNECTIONS_PER_CLIENT = 10;
const BUDGET_MIB = 16;
const HELD_BODY_BYTES = 1024 * 1024;

let server: InProcessServer;
let budgeted: InProcessServer;

beforeAll(async () => {
  platformServer.close();
  const dir = await serverBuildDir();
  const build = await loadBuild(dir);
  server = await startInProcess(build, path.join(dir, "client"), {
    MAX_CONNECTIONS: String(MAX_CONNECTIONS),
    MAX_CONNECTIONS_PER_CLIENT: String(MAX_CONNECTIONS_PER_CLIENT),
    BODY_TIMEOUT_SECONDS: "60",
    REQUEST_TIMEOUT_SECONDS: "3600",
  });
  // A rate of one byte a second: what is held here is held by the budget alone. Behind one trusted
  // proxy: a request without X-Forwarded-For is its peer's.
  budgeted = await startInProcess(build, path.join(dir, "client"), {
    TRUST_PROXY: "1",
    UNAUTHENTICATED_BODY_BUDGET_MIB: String(BUDGET_MIB),
    MIN_BODY_BYTES_PER_SECOND: "1",
    BODY_TIMEOUT_SECONDS: "60",
    REQUEST_TIMEOUT_SECONDS: "3600",
  });
}, 240_000);

afterAll(async () => {
  await server?.stop();
  await budgeted?.stop();
});

afterEach(() => {
  vi.useRealTimers();
});

/**
 * The server's own timers (its body deadline and rate checks) run only when a test advances them,
 * so bodies held on purpose stay held however slowly the test runs.
 */
const holdServerTimers = () => vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });

/** GET from a loopback address of the test's choosing: its status, or "failed" when the connection was refused or cut. */
function getFrom(localAddress: string, url: string): Promise<number | "failed"> {
  return new Promise((resolve) => {
    http
      .get(url, { localAddress, agent: false }, (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode!));
      })
      .on("error", () => resolve("failed"));
  });
}

describe("one address holding connections with bodies dripped in", () => {
  test("keeps MAX_CONNECTIONS_PER_CLIENT of them, and another address's /healthz fails at most 2 times in 60", async () => {
    const sockets = new Set<Socket>();
    let stopped = false;
    let opened = 0;
    // The attacker: as many connections as it can hold (1.5 × MAX_CONNECTIONS), each with a
    // webhook's full headers and a body that drips, reopened as the server closes them, until the
    // probes are done or it has tried 2,000 times.
    const open = () => {
      if (stopped || opened >= 2000) return;
      opened++;
      const socket = connect({ port: server.port, host: "127.0.0.1", localAddress: "127.0.0.2" });
      sockets.add(socket);
      socket.on("error", () => {});
      socket.once("connect", () => socket.write(`${webhookHead(8)}{`));
      socket.once("close", () => {
        sockets.delete(socket);
        setTimeout(open, 10);
      });
    };
    try {
      for (let index = 0; index < MAX_CONNECTIONS * 1.5; index++) open();
      await sleep(300);
      const answers: (number | "failed")[] = [];
      for (let probe = 0; probe < 60; probe++) {
        answers.push(await getFrom("127.0.0.1", `${server.url}/healthz`));
        await sleep(10);
      }
      expect(answers.filter((answer) => answer !== 200).length).toBeLessThanOrEqual(2);
      expect(server.lines()).toContainEqual(
        expect.objectContaining({
          msg: "connection dropped",
          reason: "MAX_CONNECTIONS_PER_CLIENT reached",
          clientAddress: "127.0.0.2",
        }),
      );
    } finally {
      stopped = true;
      for (const socket of sockets) socket.destroy();
    }
  }, 60_000);
});

describe("a body whose credential it is", () => {
  test("dripped below MIN_BODY_BYTES_PER_SECOND is answered 408 at the first check, long before BODY_TIMEOUT_SECONDS", async () => {
    holdServerTimers();
    const { socket, received, closed } = await rawConnection(server.port);
    try {
      socket.write(`${webhookHead(8)}{`);
      // The request has begun once the server holds its body deadline and its rate check.
      await expect.poll(() => vi.getTimerCount()).toBe(2);
      expect(server.appServer.unauthenticatedBodyBytes).toBe(8);
      await vi.advanceTimersByTimeAsync(999);
      expect(received()).toBe("");
      await vi.advanceTimersByTimeAsync(1);
      await closed;
      const answer = parseRawResponse(received());
      expect(answer.status).toBe(408);
      expect(answer.headers.connection).toBe("close");
      expect(JSON.parse(answer.body).error.message).toBe("Request body slower than 16384 bytes a second");
    } finally {
      socket.destroy();
    }
  });

  test("a body on an authenticated path is held to BODY_TIMEOUT_SECONDS only", async () => {
    holdServerTimers();
    const { socket, received } = await rawConnection(server.port);
    try {
      socket.write(
        "POST /api/headless/auth/exchange HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 8\r\n\r\n{",
      );
      await expect.poll(() => vi.getTimerCount()).toBe(1);
      await vi.advanceTimersByTimeAsync(5000);
      expect(received()).toBe("");
    } finally {
      socket.destroy();
    }
  });

  // The app's reading of a body (Remix's Request, the platform library's check) held a forged one
  // up to five times over; the server checks the signature as the bytes arrive and keeps them once.
  test("with a bogus HMAC is refused by the server as it ends, never given to the app: 401 with Connection: close, and the socket closed", async () => {
    const { socket, received, closed } = await rawConnection(server.port);
    socket.write(`${webhookHead(2)}{}`);
    await closed;
    const answer = parseRawResponse(received());
    expect(answer.status).toBe(401);
    expect(answer.headers.connection).toBe("close");
    expect(JSON.parse(answer.body).error).toEqual({
      code: "AUTH_REQUIRED",
      message: "Request body signature does not match",
      retryable: false,
    });
    socket.destroy();
  });

  test("without a signature is answered 401 at once, before any of it is read", async () => {
    holdServerTimers();
    const { socket, received, closed } = await rawConnection(server.port);
    try {
      socket.write(webhookHead(HELD_BODY_BYTES).replace("X-Shopify-Hmac-Sha256: Ym9ndXM=\r\n", ""));
      await closed;
      const answer = parseRawResponse(received());
      expect(answer.status).toBe(401);
      expect(answer.headers.connection).toBe("close");
      expect(JSON.parse(answer.body).error.message).toBe("Request body signature missing");
      expect(server.appServer.unauthenticatedBodyBytes).toBe(0);
    } finally {
      socket.destroy();
    }
  });

  test("signed with the app's secret still reaches the app whole and is verified there", async () => {
    const body = JSON.stringify({ id: 1, domain: "never-installed.myshopify.com", pad: "x".repeat(300_000) });
    const headers = Object.fromEntries(
      BOGUS_WEBHOOK_HEADERS.split("\r\n").map((line) => line.split(": ") as [string, string]),
    );
    headers["X-Shopify-Shop-Domain"] = "never-installed.myshopify.com";
    headers["X-Shopify-Hmac-Sha256"] = createHmac("sha256", TEST_ENV.SHOPIFY_API_SECRET).update(body).digest("base64");
    const delivered = await send(`${server.url}/webhooks/app/uninstalled`, { method: "POST", headers, body });
    expect(delivered.status).toBe(200);
    // One byte changed after signing: the server's check refuses it.
    const tampered = await send(`${server.url}/webhooks/app/uninstalled`, {
      method: "POST",
      headers,
      body: body.replace('"id":1', '"id":2'),
    });
    expect(tampered.status).toBe(401);
    expect(JSON.parse(tampered.body).error.code).toBe("AUTH_REQUIRED");
  });
});

/** A raw connection from a loopback address of the test's choosing, holding what it is sent. */
function connectFrom(localAddress: string, port: number): Promise<{ socket: Socket; received: () => string }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: "127.0.0.1", localAddress, allowHalfOpen: true });
    let received = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (received += chunk));
    socket.on("error", () => {});
    socket.once("connect", () => resolve({ socket, received: () => received }));
    socket.once("error", reject);
  });
}

describe("the budget of unauthenticated body bytes in flight", () => {
  test(`${BUDGET_MIB} MiB, a quarter per address: 4 bodies of 1 MiB held per address, 16 in all, the rest refused 503 with Retry-After before they are read; all released when they go`, async () => {
    holdServerTimers();
    // Six from each of four addresses, then one from a fifth.
    const senders = ["127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"];
    const held = await Promise.all(
      senders.flatMap((address) => Array.from({ length: 6 }, () => connectFrom(address, budgeted.port))),
    );
    const answered = (connections: typeof held) =>
      connections.filter((connection) => connection.received().includes("\r\n\r\n"));
    try {
      for (const connection of held) connection.socket.write(`${webhookHead(HELD_BODY_BYTES)}{"pad":"`);
      await expect.poll(() => answered(held).length, { interval: 20 }).toBe(8);
      expect(budgeted.appServer.unauthenticatedBodyBytes).toBe(16 * HELD_BODY_BYTES);
      // Each address got its quarter, however their bodies interleaved.
      for (let index = 0; index < senders.length; index++) {
        expect(answered(held.slice(index * 6, index * 6 + 6)).length, senders[index]).toBe(2);
      }
      const fifth = await connectFrom("127.0.0.6", budgeted.port);
      held.push(fifth);
      fifth.socket.write(`${webhookHead(HELD_BODY_BYTES)}{"pad":"`);
      await expect.poll(() => answered([fifth]).length, { interval: 20 }).toBe(1);
      for (const connection of answered(held)) {
        const answer = parseRawResponse(connection.received());
        expect(answer.status).toBe(503);
        expect(answer.headers["retry-after"]).toBe("1");
        expect(answer.headers.connection).toBe("close");
        expect(JSON.parse(answer.body).error).toMatchObject({ code: "RATE_LIMITED", retryable: true });
      }
      expect(answered(held).length).toBe(9);
      expect(budgeted.appServer.unauthenticatedBodyBytes).toBe(16 * HELD_BODY_BYTES);
    } finally {
      for (const connection of held) connection.socket.destroy();
    }
    await expect.poll(() => budgeted.appServer.unauthenticatedBodyBytes).toBe(0);
    const next = await send(`${budgeted.url}/webhooks/app/uninstalled`, {
      method: "POST",
      headers: Object.fromEntries(
        BOGUS_WEBHOOK_HEADERS.split("\r\n").map((line) => line.split(": ") as [string, string]),
      ),
      body: "{}",
    });
    expect(next.status).toBe(401);
  });
});

describe("the budget behind a trusted proxy", () => {
  test("each client X-Forwarded-For names has its own quarter, over the one address of the proxy", async () => {
    const from = (client: string) =>
      Array.from({ length: 6 }, async () => {
        const connection = await connectFrom("127.0.0.7", budgeted.port);
        connection.socket.write(`${webhookHead(HELD_BODY_BYTES, `X-Forwarded-For: ${client}\r\n`)}{"pad":"`);
        return connection;
      });
    holdServerTimers();
    const first = await Promise.all(from("203.0.113.7"));
    const second = await Promise.all(from("203.0.113.8"));
    const answered = (connections: typeof first) =>
      connections.filter((connection) => connection.received().includes("\r\n\r\n")).length;
    try {
      await expect.poll(() => answered(first) + answered(second), { interval: 20 }).toBe(4);
      expect([answered(first), answered(second)]).toEqual([2, 2]);
      expect(budgeted.appServer.unauthenticatedBodyBytes).toBe(8 * HELD_BODY_BYTES);
    } finally {
      for (const connection of [...first, ...second]) connection.socket.destroy();
    }
    await expect.poll(() => budgeted.appServer.unauthenticatedBodyBytes).toBe(0);
  });
});

describe("the access log", () => {
  test("never holds a token placed in a path: its segment is logged as its hash", async () => {
    const jwt = `${Buffer.from('{"alg":"HS256"}').toString("base64url")}.${Buffer.from('{"sub":"staff-1"}').toString("base64url")}.c2lnbmF0dXJlLXNpZ25hdHVyZQ`;
    await send(`${server.url}/app/${jwt}`, { headers: { "X-Request-Id": "token-in-path-1" } });
    await vi.waitFor(() =>
      expect(server.requestLines().find((line) => line.requestId === "token-in-path-1")).toBeDefined(),
    );
    const line = server.requestLines().find((entry) => entry.requestId === "token-in-path-1")!;
    expect(line.path).toMatch(/^\/app\/h:[0-9a-f]{8}$/);
    expect(server.output()).not.toContain(jwt.split(".")[1]);
  });
});
