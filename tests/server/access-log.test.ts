// The access log of the real app end to end: the sandbox (packages/sandbox/src/start.ts serves through
// server/http-server.ts) answering signed proxy requests from a seeded shop, its stdout read back.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { SANDBOX_DEFAULTS } from "@saved-items/sandbox/config";
import { startSandbox, type RunningSandbox } from "@saved-items/sandbox/sandbox-process";
import { platformServer } from "../support/platform";
import { signedProxyUrl } from "@saved-items/sandbox/proxy-signature";
import { send, type LogLine } from "../support/server";

let sandbox: RunningSandbox;
beforeAll(async () => {
  platformServer.close();
  sandbox = await startSandbox();
}, 300_000);
afterAll(async () => {
  await sandbox?.stop();
});

function requestLines(): LogLine[] {
  return sandbox
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as LogLine)
    .filter((line) => line.msg === "request");
}

/** The request's access-log line, once the sandbox has written it (after its answer). */
async function lineFor(requestId: string): Promise<LogLine | undefined> {
  const find = () => requestLines().find((entry) => entry.requestId === requestId);
  await expect.poll(find).toBeDefined();
  return find();
}

describe("a signed proxy request's access-log line", () => {
  test("has the route and path, never the query, signature, timestamp or customer; and the app's shop, operation and code", async () => {
    const url = signedProxyUrl(sandbox.url, "/proxy/api/remove", SANDBOX_DEFAULTS.SHOPIFY_API_SECRET, {
      shop: "demo.myshopify.com",
      customerId: "1001",
    });
    const signature = url.searchParams.get("signature")!;
    const timestamp = url.searchParams.get("timestamp")!;
    const response = await send(url.href, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "X-Request-Id": "signed-remove-1",
        Cookie: "_secure_session=cookie-secret",
      },
      body: JSON.stringify({ context: "wishlist", entityType: "product", entityGid: "gid://shopify/Product/987654" }),
    });
    expect(response.status).toBe(404);
    expect(JSON.parse(response.body).error.code).toBe("ITEM_NOT_FOUND");
    expect(response.headers["x-request-id"]).toBe("signed-remove-1");

    const line = await lineFor("signed-remove-1");
    expect(line).toEqual({
      t: expect.any(String),
      level: "info",
      msg: "request",
      requestId: "signed-remove-1",
      method: "POST",
      route: "/proxy/api/:operation",
      path: "/proxy/api/remove",
      status: 404,
      durationMs: expect.any(Number),
      clientAddress: "127.0.0.1",
      shop: "demo.myshopify.com",
      channel: "online-store",
      operation: "remove",
      code: "ITEM_NOT_FOUND",
      // The list state could not say whether the item exists: it was read by handle.
      cache: "miss",
      platformPoints: expect.any(Number),
      platformRequests: 1,
    });
    const raw = sandbox.output();
    expect(raw).not.toContain(signature);
    expect(raw).not.toContain(timestamp);
    expect(raw).not.toContain("logged_in_customer_id");
    expect(raw).not.toContain("cookie-secret");
    expect(raw).not.toContain("987654"); // nothing of the request body either
  });

  test("a successful read carries shop and operation and no code; the admin's id_token never appears", async () => {
    const url = signedProxyUrl(sandbox.url, "/proxy/api/is-saved", SANDBOX_DEFAULTS.SHOPIFY_API_SECRET, {
      shop: "demo.myshopify.com",
      customerId: "1001",
      query: { context: "wishlist", entityType: "product", entityGid: "gid://shopify/Product/1" },
    });
    const read = await send(url.href, { headers: { "X-Request-Id": "signed-read-1" } });
    expect(read.status).toBe(200);
    const line = await lineFor("signed-read-1");
    expect(line).toMatchObject({
      route: "/proxy/api/:operation",
      path: "/proxy/api/is-saved",
      shop: "demo.myshopify.com",
      operation: "is-saved",
    });
    expect(line).not.toHaveProperty("code");

    const idToken = "eyJhbGciOiJIUzI1NiJ9.eyJkZXN0IjoiaHR0cHM6Ly9kZW1vIn0.admin-id-token-signature";
    await send(`${sandbox.url}/app?embedded=1&shop=demo.myshopify.com&host=YWRtaW4&id_token=${idToken}`, {
      headers: { "X-Request-Id": "admin-1", Authorization: `Bearer ${idToken}` },
    });
    expect(await lineFor("admin-1")).toMatchObject({ path: "/app", route: "/app" });
    expect(sandbox.output()).not.toContain("admin-id-token-signature");
    expect(sandbox.output()).not.toContain("eyJkZXN0IjoiaHR0cHM6Ly9kZW1vIn0");
  });

  test("no request line anywhere carries a query string", () => {
    const lines = requestLines();
    expect(lines.length).toBeGreaterThanOrEqual(3);
    for (const line of lines) {
      expect(String(line.path)).not.toContain("?");
      expect(String(line.route)).not.toContain("?");
    }
  });
});
