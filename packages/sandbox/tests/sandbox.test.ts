import { once } from "node:events";
import http from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { descendantsOf, isAlive } from "@saved-items/platform-emulator/processes";
import { signedProxyUrl } from "../src/proxy-signature";
import { SANDBOX_DEFAULTS } from "../src/config";
import { startSandbox, type RunningSandbox } from "../src/sandbox-process";

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
}, 300_000);
afterAll(async () => {
  await sandbox?.stop();
});

function signed(path: string, options: { customer?: string; shop?: string; query?: Record<string, string> } = {}) {
  return signedProxyUrl(sandbox.url, path, SANDBOX_DEFAULTS.SHOPIFY_API_SECRET, {
    shop: options.shop ?? "demo.myshopify.com",
    customerId: options.customer ?? "1001",
    query: options.query,
  });
}

async function post(url: URL, body: unknown) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

const item = {
  context: "wishlist",
  entityType: "product",
  entityGid: "gid://shopify/Product/42",
  source: "sandbox-test",
};

/** Where a shopper's POST enters: signed for the app proxy, or the storefront's path the front signs itself. */
const ENTRANCES = {
  "the app proxy": () => signed("/proxy/api/save"),
  "the storefront": () => new URL("/apps/saved-items/api/save", sandbox.url),
};

describe("npm run sandbox, over real HTTP", () => {
  test("prints its URL, the seeded shops and how to sign a URL", () => {
    expect(sandbox.output()).toContain("demo.myshopify.com");
    expect(sandbox.output()).toContain("npm run -s sign");
  });

  test("the platform's usage of one shop says what it was charged this billing cycle", async () => {
    const usage = await (await fetch(`${sandbox.url}/__sandbox/platform-usage?shop=demo.myshopify.com`)).json();
    expect(usage).toMatchObject({
      shop: "demo.myshopify.com",
      billing: { cycleStart: expect.any(String), cycleEnd: expect.any(String), chargedCents: 0, events: [] },
    });
  });

  test("a seeded customer saves, lists, checks and removes through signed proxy URLs", async () => {
    expect(await post(signed("/proxy/api/save"), item)).toEqual({
      status: 200,
      body: { ok: true, data: { id: expect.any(String), state: "active" } },
    });
    const list = await fetch(signed("/proxy/api/list", { query: { context: "wishlist" } }));
    expect(list.status).toBe(200);
    expect((await list.json()).data.items).toEqual([expect.objectContaining({ entityGid: item.entityGid })]);
    const isSaved = await fetch(
      signed("/proxy/api/is-saved", {
        query: { context: item.context, entityType: item.entityType, entityGid: item.entityGid },
      }),
    );
    expect(await isSaved.json()).toEqual({ ok: true, data: { saved: true } });
    const { source: _source, ...identity } = item;
    expect((await post(signed("/proxy/api/remove"), identity)).body.data.state).toBe("removed");
  });

  test("an answer under 1 KiB goes out whole with its length; a longer one is compressed for clients that accept it", async () => {
    const shopper = { customer: "7001" };
    const gids = Array.from({ length: 8 }, (_, n) => `gid://shopify/Product/${9001 + n}`);
    for (const entityGid of gids) {
      expect((await post(signed("/proxy/api/save", shopper), { ...item, entityGid })).status).toBe(200);
    }
    const gzip = { "Accept-Encoding": "gzip" };
    const small = await fetch(
      signed("/proxy/api/is-saved", {
        ...shopper,
        query: { context: "wishlist", entityType: "product", entityGid: gids[0]! },
      }),
      { headers: gzip },
    );
    const smallBody = await small.text();
    expect(JSON.parse(smallBody)).toEqual({ ok: true, data: { saved: true } });
    expect(small.headers.get("content-encoding")).toBeNull();
    expect(small.headers.get("content-length")).toBe(String(Buffer.byteLength(smallBody)));
    const large = await fetch(signed("/proxy/api/list", { ...shopper, query: { context: "wishlist" } }), {
      headers: gzip,
    });
    expect(large.headers.get("content-encoding")).toBe("gzip");
    expect((await large.json()).data.items).toHaveLength(gids.length);
    for (const entityGid of gids) {
      expect(
        (await post(signed("/proxy/api/remove", shopper), { context: "wishlist", entityType: "product", entityGid }))
          .status,
      ).toBe(200);
    }
  });

  test("Remix routing answers the wrong method with the 405 envelope", async () => {
    const response = await fetch(signed("/proxy/api/save"));
    expect(response.status).toBe(405);
    expect((await response.json()).error.code).toBe("VALIDATION_ERROR");
    const listPost = await post(signed("/proxy/api/list"), {});
    expect(listPost.status).toBe(405);
  });

  test("an unsigned request is INVALID_PROXY_SIGNATURE and an uninstalled seed shop is SHOP_NOT_INSTALLED", async () => {
    const unsigned = await fetch(`${sandbox.url}/proxy/api/list?shop=demo.myshopify.com&context=w`);
    expect(unsigned.status).toBe(401);
    expect((await unsigned.json()).error.code).toBe("INVALID_PROXY_SIGNATURE");
    const gone = await fetch(
      signed("/proxy/api/list", { shop: "gone-demo.myshopify.com", customer: "3001", query: { context: "w" } }),
    );
    expect(gone.status).toBe(403);
    expect((await gone.json()).error.code).toBe("SHOP_NOT_INSTALLED");
  });

  test("a headless backend exchanges a seeded token, then saves, lists and removes", async () => {
    const exchange = await post(new URL("/api/headless/auth/exchange", sandbox.url), {
      shop: "demo.myshopify.com",
      customerAccountAccessToken: "sandbox-cat-1002",
    });
    expect(exchange.status).toBe(200);
    const authorization = exchange.body.data.authorization as string;
    const call = async (path: string, body?: unknown) => {
      const response = await fetch(new URL(path, sandbox.url), {
        method: body ? "POST" : "GET",
        headers: { Authorization: authorization, ...(body ? { "Content-Type": "application/json" } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: response.status, body: await response.json() };
    };
    expect((await call("/api/headless/save", item)).body.data.state).toBe("active");
    const list = await call("/api/headless/list?context=wishlist");
    expect(list.body.data.items).toEqual([expect.objectContaining({ entityGid: item.entityGid })]);
    const { source: _source, ...identity } = item;
    expect((await call("/api/headless/remove", identity)).body.data.state).toBe("removed");
    // The same customer's Online Store view is the same list.
    const viaProxy = await fetch(signed("/proxy/api/list", { customer: "1002", query: { context: "wishlist" } }));
    expect((await viaProxy.json()).data.items).toEqual([]);
  });

  test("the seed's plan applies: batch is refused on the free seed shop", async () => {
    const response = await post(signed("/proxy/api/batch", { shop: "free-demo.myshopify.com", customer: "2001" }), {
      operations: [{ action: "save", ...item }],
    });
    expect(response.status).toBe(402);
    expect(response.body.error.code).toBe("PLAN_LIMIT_REACHED");
  });

  test.each([
    ["the app proxy", "just over 1 MiB", 1024 * 1024 + 1],
    ["the app proxy", "5 MiB", 5 * 1024 * 1024],
    ["the storefront", "just over 1 MiB", 1024 * 1024 + 1],
    ["the storefront", "5 MiB", 5 * 1024 * 1024],
  ] as const)(
    "through %s, a body of %s is refused with the 413 envelope, and the sandbox goes on answering",
    async (entrance, _, size) => {
      const answer = await postOverSocket(ENTRANCES[entrance](), Buffer.alloc(size, "a"));
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toEqual({
        ok: false,
        error: { code: "VALIDATION_ERROR", message: expect.any(String), retryable: false },
      });
      await expectStillAnswering();
    },
  );

  test.each([
    ["the app proxy", "held by the front", 100_000],
    ["the app proxy", "streamed past the held MiB", 3 * 1024 * 1024],
    ["the storefront", "held by the front", 100_000],
    ["the storefront", "past the held MiB", 3 * 1024 * 1024],
  ] as const)(
    "through %s, a client that drops its connection mid-body (%s) leaves the sandbox answering",
    async (entrance, _, size) => {
      const url = ENTRANCES[entrance]();
      const socket = connect(Number(url.port), url.hostname);
      socket.on("error", () => {});
      await once(socket, "connect");
      socket.write(
        `POST ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${size}\r\n\r\n`,
      );
      socket.end(Buffer.alloc(size / 2, "a"));
      socket.resume();
      // Closed from the front's side too: it has given up on the request (or died, before the fix).
      await once(socket, "close");
      await expectStillAnswering();
      expect(sandbox.output()).not.toMatch(/Error: aborted|TypeError/);
    },
  );

  // Last: it stops the sandbox.
  test("SIGTERM to npm, as `npm run sandbox` was started, stops every process it started", async () => {
    const family = descendantsOf(sandbox.pid);
    // The server, the emulator and at least one app instance.
    expect(family.length).toBeGreaterThanOrEqual(3);
    await sandbox.stop();
    await expect.poll(() => family.filter(isAlive), { timeout: 15_000 }).toEqual([]);
  });
});

/** A POST over a socket of its own, with node's client: it sends the whole body, and reads an answer that comes early. */
function postOverSocket(url: URL, body: Buffer): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method: "POST", agent: false, headers: { "Content-Type": "application/json", "Content-Length": body.length } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode!, body: Buffer.concat(chunks).toString("utf8") }),
        );
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

/** The sandbox's process is there, and an app proxy call through its front is answered. */
async function expectStillAnswering(): Promise<void> {
  const list = await fetch(signed("/proxy/api/list", { query: { context: "wishlist" } }));
  expect(list.status).toBe(200);
  expect(isAlive(sandbox.pid)).toBe(true);
}
