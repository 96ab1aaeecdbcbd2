// What an unauthenticated caller can send the production server (`node build/server.js`, a child
// process whose memory is read from /proc): bodies far past the bound, Hosts no URL can be built
// from, paths and queries built to make a pattern backtrack. Asserted on answers, log lines and the
// server's resident memory, never on time.
import { readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { MAX_BODY_BYTES, MAX_WEBHOOK_BODY_BYTES } from "~/config/body-bounds";
import { serverConfigOf } from "../../server/config";
import { testEnv } from "../support/test-env";
import { platformServer } from "../support/platform";
import { customerAccountSessionToken } from "../support/session-token";
import { TEST_ENV } from "../support/test-env";
import {
  freshDatabaseUrl,
  parseRawResponse,
  rawConnection,
  send,
  serverBuildDir,
  startBuiltServer,
  type ChildServer,
} from "../support/server";

const MiB = 1024 * 1024;
/** What a refused request may add to the server's resident memory at its peak. */
const RSS_ALLOWANCE = 16 * MiB;
/** Sent in pieces of one reused buffer: the test never holds the body either. */
const HOSTILE_BODY_BYTES = 64 * MiB;
const PIECE = Buffer.alloc(64 * 1024, 0x61);

let server: ChildServer;

const signedHeaders = () => Object.fromEntries(SIGNED_HEADERS.map((line) => line.split(": ") as [string, string]));

beforeAll(async () => {
  platformServer.close();
  const dir = await serverBuildDir();
  server = await startBuiltServer(dir, { DATABASE_URL: await freshDatabaseUrl() });
  // Warm, as a serving instance is: the routes' modules loaded and their code run, and the young
  // generation (two 64 MiB semi-spaces, SERVER_NODE_FLAGS) resident after a few hundred MiB of
  // bodies just under the bounds, so a peak measured later is what the hostile request added.
  for (let index = 0; index < 40; index++) {
    for (const [path, bound] of [
      ["/webhooks/app/uninstalled", MAX_WEBHOOK_BODY_BYTES],
      ["/flow/lifecycle", MAX_BODY_BYTES],
    ] as const) {
      const warm = await send(`${server.url}${path}`, {
        method: "POST",
        headers: signedHeaders(),
        body: `{"pad":"${"x".repeat(bound - 100)}"}`,
      });
      expect(warm.status).toBe(401);
    }
  }
}, 240_000);

afterAll(async () => {
  await server?.stop();
});

function statusField(name: "VmRSS" | "VmHWM"): number {
  const status = readFileSync(`/proc/${server.child.pid}/status`, "utf8");
  return Number(new RegExp(`^${name}:\\s+(\\d+) kB$`, "m").exec(status)![1]) * 1024;
}

/** The server's resident memory now; its peak is reset to it, so statusField("VmHWM") is the peak since. */
function resetPeakRss(): number {
  writeFileSync(`/proc/${server.child.pid}/clear_refs`, "5");
  return statusField("VmRSS");
}

/** GET on a connection from a local address of the caller's choosing (127.0.0.0/8 is all this host's). */
function getFrom(localAddress: string, url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { localAddress, agent: false }, (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode!));
      })
      .on("error", reject);
  });
}

const SIGNED_HEADERS = [
  "Content-Type: application/json",
  "X-Shopify-Hmac-Sha256: Ym9ndXM=",
  "X-Shopify-Topic: app/uninstalled",
  "X-Shopify-Shop-Domain: demo.myshopify.com",
  "X-Shopify-Webhook-Id: hostile-1",
  "X-Shopify-API-Version: 2026-10",
];

/**
 * POSTs HOSTILE_BODY_BYTES to path on a raw connection, chunked or with its length declared, until
 * the server answers or stops reading; resolves with the parsed answer and how much was sent.
 */
async function postHostileBody(path: string, framing: "chunked" | "declared") {
  const { socket, received, gone } = await rawConnection(server.port);
  const length = framing === "chunked" ? "Transfer-Encoding: chunked" : `Content-Length: ${HOSTILE_BODY_BYTES}`;
  socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${[...SIGNED_HEADERS, length].join("\r\n")}\r\n\r\n`);
  const chunkHead = `${PIECE.length.toString(16)}\r\n`;
  let sent = 0;
  let closed = false;
  void gone.then(() => (closed = true));
  while (sent < HOSTILE_BODY_BYTES && !closed && !received().includes("\r\n\r\n")) {
    if (framing === "chunked") socket.write(chunkHead);
    let flushed = socket.write(PIECE);
    if (framing === "chunked") flushed = socket.write("\r\n");
    sent += PIECE.length;
    if (!flushed) await Promise.race([new Promise((resolve) => socket.once("drain", resolve)), gone]);
  }
  // The answer may still be on its way after the last write; the server closes the connection
  // once it went out (after its linger).
  await gone;
  socket.destroy();
  return { answer: parseRawResponse(received()), sent };
}

describe("a body past the bound, before any signature is checked", () => {
  test.each([
    ["/webhooks/app/uninstalled", "chunked", MAX_WEBHOOK_BODY_BYTES],
    ["/webhooks/app/uninstalled", "declared", MAX_WEBHOOK_BODY_BYTES],
    ["/flow/lifecycle", "chunked", MAX_BODY_BYTES],
    ["/flow/lifecycle", "declared", MAX_BODY_BYTES],
  ] as const)(
    "%s, 64 MiB %s with a bogus HMAC: 413, and the server's RSS peaks within 16 MiB of where it was",
    async (path, framing, bound) => {
      const before = resetPeakRss();
      const { answer, sent } = await postHostileBody(path, framing);
      const peak = statusField("VmHWM");
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toEqual({
        ok: false,
        error: { code: "VALIDATION_ERROR", message: `Body is larger than ${bound} bytes`, retryable: false },
      });
      expect(answer.headers.connection).toBe("close");
      console.log(
        `[hostile] ${path} ${framing}: ${(sent / MiB).toFixed(1)} MiB sent, RSS ${(before / MiB).toFixed(1)} MiB before, peak +${((peak - before) / MiB).toFixed(1)} MiB`,
      );
      expect(peak - before).toBeLessThan(RSS_ALLOWANCE);
      // A body just under the bound is still read: the bogus HMAC is what refuses it.
      const next = await send(`${server.url}${path}`, {
        method: "POST",
        headers: signedHeaders(),
        body: `{"pad":"${"x".repeat(bound - 100)}"}`,
      });
      expect(next.status).toBe(401);
    },
    60_000,
  );
});

describe("bodies at the bound with bogus HMACs, as many at once as the budget takes", () => {
  // The default budget, a quarter of it per address (server/admission.ts): two 4 MiB bodies from each of four addresses.
  const budget = serverConfigOf(testEnv()).unauthenticatedBodyBudgetBytes;
  const senders = ["127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"];
  const perSender = budget / senders.length / MAX_WEBHOOK_BODY_BYTES;
  const BODY = Buffer.alloc(MAX_WEBHOOK_BODY_BYTES, 0x20);

  function postFrom(localAddress: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const request = http.request(
        `${server.url}/webhooks/app/uninstalled`,
        { method: "POST", headers: signedHeaders(), localAddress, agent: false },
        (response) => {
          response.resume();
          response.on("end", () => resolve(response.statusCode!));
        },
      );
      request.on("error", reject);
      request.end(BODY);
    });
  }

  // Read by the app, each was held up to five times over (Remix's Request, the platform library's
  // string, its encoding and signing copy): +45 MiB here, past the budget that was to bound them.
  test("each is held once: all 401, and the server's RSS peaks within the budget of where it was", async () => {
    const before = resetPeakRss();
    const statuses = await Promise.all(
      senders.flatMap((address) => Array.from({ length: perSender }, () => postFrom(address))),
    );
    const peak = statusField("VmHWM");
    expect(statuses).toEqual(Array.from({ length: budget / MAX_WEBHOOK_BODY_BYTES }, () => 401));
    console.log(
      `[hostile] ${statuses.length} concurrent ${MAX_WEBHOOK_BODY_BYTES / MiB} MiB bogus bodies: peak +${((peak - before) / MiB).toFixed(1)} MiB`,
    );
    expect(peak - before).toBeLessThan(budget);
  }, 60_000);
});

describe("a request no URL can be built from", () => {
  test("an invalid Host with a path of 15,000 slashes: 400 at once, and nothing but a bounded access-log line", async () => {
    const { socket, received, closed } = await rawConnection(server.port);
    const path = `/app${"/".repeat(15_000)}`;
    socket.write(`GET ${path} HTTP/1.1\r\nHost: a b\r\nX-Request-Id: bad-host-1\r\n\r\n`);
    await closed;
    const answer = parseRawResponse(received());
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({
      ok: false,
      error: { code: "VALIDATION_ERROR", message: "Malformed request: invalid Host", retryable: false },
    });
    // The access-log line is the last a request writes (when its response closes): anything else
    // it logged is there once the line is.
    const lines = await vi.waitFor(() => {
      const written = server.lines().filter((line) => line.requestId === "bad-host-1");
      expect(written.some((line) => line.msg === "request")).toBe(true);
      return written;
    });
    expect(lines).toEqual([expect.objectContaining({ msg: "request", status: 400, route: "other" })]);
    expect(JSON.stringify(lines[0]).length).toBeLessThan(1024);
    expect(server.lines().filter((line) => line.level === "error")).toEqual([]);
  });

  test.each(["a b", "evil.example/x", "x\u00e9.example", "[::1", `${"a".repeat(300)}.example`])(
    "Host %j is refused with 400",
    async (host) => {
      const { socket, received, closed } = await rawConnection(server.port);
      socket.write(`GET /healthz HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
      await closed;
      expect(parseRawResponse(received()).status).toBe(400);
    },
  );

  test.each(["127.0.0.1:3000", "saved-items.example.com", "[::1]:3000", "app_1:8080"])(
    "Host %j is served",
    async (host) => {
      const answer = await send(`${server.url}/healthz`, { headers: { Host: host } });
      expect(answer.status).toBe(200);
    },
  );

  test("a long query string and a path of slashes with a valid Host: answered, and no log line carries them", async () => {
    // Within node's 16 KiB of headers, so the app sees it.
    const query = `?${"signature=x&".repeat(300)}${"/".repeat(2000)}?${"a".repeat(2000)}`;
    const answer = await send(`${server.url}/app${"/".repeat(3000)}${query}`, {
      headers: { "X-Request-Id": "long-query-1" },
    });
    expect(answer.status).toBeLessThan(500);
    // The access-log line is the last a request writes (when its response closes).
    const lines = await vi.waitFor(() => {
      const written = server.lines().filter((line) => line.requestId === "long-query-1");
      expect(written.some((line) => line.msg === "request")).toBe(true);
      return written;
    });
    for (const line of lines) expect(JSON.stringify(line)).not.toContain("signature=x");
    for (const line of lines) expect(JSON.stringify(line).length).toBeLessThan(10_000);
  });
});

describe("slow clients", () => {
  test("1,030 connections from one address holding unfinished headers: the address keeps 64, /healthz answers another client", async () => {
    // Headers that may take a minute: what stops the flood here is the per-client share, not the deadline.
    const slow = await startBuiltServer(await serverBuildDir(), {
      DATABASE_URL: await freshDatabaseUrl(),
      HEADERS_TIMEOUT_SECONDS: "60",
      REQUEST_TIMEOUT_SECONDS: "120",
    });
    const sockets: Socket[] = [];
    let closedByServer = 0;
    try {
      await Promise.all(
        Array.from(
          { length: 1030 },
          () =>
            new Promise<void>((resolve) => {
              const socket = connect({ port: slow.port, host: "127.0.0.1" });
              sockets.push(socket);
              socket.on("error", () => {});
              socket.once("close", () => {
                closedByServer++;
                resolve();
              });
              socket.once("connect", () => {
                socket.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ");
                resolve();
              });
            }),
        ),
      );
      // Every connection past the address's share is closed by the server as it arrives.
      await expect.poll(() => closedByServer, { timeout: 30_000 }).toBe(1030 - 64);

      expect(await getFrom("127.0.0.2", `${slow.url}/healthz`)).toBe(200);
      expect(await getFrom("127.0.0.3", `${slow.url}/readyz`)).toBe(200);
      expect(closedByServer).toBe(1030 - 64);
      expect(slow.lines()).toContainEqual(
        expect.objectContaining({
          msg: "connection dropped",
          reason: "MAX_PENDING_PER_CLIENT reached",
          clientAddress: "127.0.0.1",
        }),
      );
    } finally {
      for (const socket of sockets) socket.destroy();
      await slow.stop();
    }
  }, 60_000);
});

describe("customer-account session tokens", () => {
  const exchange = async (overrides: Record<string, unknown>) => {
    const token = await customerAccountSessionToken({
      shop: "demo.myshopify.com",
      apiKey: TEST_ENV.SHOPIFY_API_KEY,
      apiSecret: TEST_ENV.SHOPIFY_API_SECRET,
      customerGid: "gid://shopify/Customer/1001",
      overrides,
    });
    const response = await send(`${server.url}/api/customer-account/auth/exchange`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${token}`,
        "Content-Type": "application/json",
        Origin: "https://extensions.shopifycdn.com",
      },
      body: "{}",
    });
    return { status: response.status, code: JSON.parse(response.body).error?.code };
  };

  test("one without exp, or issued a year ago, is refused before anything else", async () => {
    const yearAgo = Math.floor(Date.now() / 1000) - 365 * 24 * 3600;
    expect(await exchange({ exp: undefined })).toEqual({ status: 401, code: "INVALID_TOKEN" });
    expect(await exchange({ iat: yearAgo, nbf: yearAgo, exp: yearAgo + 2 * 365 * 24 * 3600 })).toEqual({
      status: 401,
      code: "INVALID_TOKEN",
    });
  });
});
