// Share links against outsiders, over real connections to the production server (in this process,
// on the app's build, the platform emulated): tokens tried at random cost the shop nothing and
// cannot stop its real links from showing, no token reaches a log line, and a snapshot's link is
// kept only when a browser would stay on the shop's site.
import { createHash, randomBytes } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { SHARED_PAGE_VIEWER_RATE } from "~/services/usage/rate-limits.server";
import { TEST_ENV } from "../support/test-env";
import { DEMO_SHOP, callProxy, givenShop } from "../support/app";
import { aSaveRequest } from "../support/fixtures";
import { emulator } from "../support/platform";
import { signedProxyUrl } from "@saved-items/sandbox/proxy-signature";
import { loadBuild, send, serverBuildDir, startInProcess, type InProcessServer } from "../support/server";

let server: InProcessServer;

beforeAll(async () => {
  const dir = await serverBuildDir();
  server = await startInProcess(await loadBuild(dir), path.join(dir, "client"));
}, 240_000);

afterAll(async () => {
  await server?.stop();
});

/** The shared page as the platform's app proxy forwards it: signed, the shopper's address in X-Forwarded-For. */
function openPage(token: string, viewerAddress: string, requestId?: string) {
  const url = signedProxyUrl(server.url, `/proxy/shared/${token}`, TEST_ENV.SHOPIFY_API_SECRET, {
    shop: DEMO_SHOP,
    customerId: "",
  });
  return send(url.href, {
    headers: { "X-Forwarded-For": viewerAddress, ...(requestId ? { "X-Request-Id": requestId } : {}) },
  });
}

async function sharedList(snapshots: Record<string, unknown>[]): Promise<string> {
  await givenShop({ plan: "free" });
  for (const [index, snapshot] of snapshots.entries()) {
    const saved = await callProxy("/proxy/api/save", {
      // Collections have no product card: the page shows their snapshots, as filtered.
      body: aSaveRequest({ entityType: "collection", entityGid: `gid://shopify/Collection/${index + 1}`, snapshot }),
    });
    expect(saved.status).toBe(200);
  }
  const created = await callProxy("/proxy/api/share-create", { body: { context: "wishlist", displayName: "Ana" } });
  expect(created.status).toBe(200);
  return created.body.data.token as string;
}

const randomToken = () => randomBytes(32).toString("base64url");
const lookups = () => emulator.requests.filter((request) => request.operationName === "SavedItemsFindShared").length;

describe("tokens tried by an outsider", () => {
  test("70 random tokens from one address on a Free shop: 404 then 429, no budget spent; a real link still shows to everyone else", async () => {
    const token = await sharedList([{ title: "Linen shirt", url: "/products/linen-shirt" }]);
    const lookupsBefore = lookups();

    const statuses: number[] = [];
    for (let index = 0; index < 70; index++) statuses.push((await openPage(randomToken(), "203.0.113.7")).status);
    const burst = SHARED_PAGE_VIEWER_RATE.capacity;
    expect(statuses.slice(0, burst)).toEqual(Array(burst).fill(404));
    expect(statuses.slice(burst)).toEqual(Array(70 - burst).fill(429));
    // Only the tokens within the address's rate were looked up on the platform.
    expect(lookups() - lookupsBefore).toBe(burst);

    const refused = await openPage(randomToken(), "203.0.113.7");
    expect(refused.status).toBe(429);
    expect(refused.headers["retry-after"]).toBeDefined();
    expect(refused.body).toContain("This list cannot be shown right now");

    // Logged-out viewers elsewhere: the link shows, again and again, with nothing of the shop's spent on the 70.
    for (const viewer of ["198.51.100.9", "198.51.100.10", "2001:db8::1"]) {
      const page = await openPage(token, viewer);
      expect(page.status).toBe(200);
      expect(page.body).toContain("Saved by Ana");
      expect(page.body).toContain("Linen shirt");
    }
  });

  test("a revoked link is the 404 page and spends nothing; a logged-out viewer's other links keep showing", async () => {
    const token = await sharedList([{ title: "Linen shirt" }]);
    await callProxy("/proxy/api/share-revoke", { body: { context: "wishlist" } });
    for (let index = 0; index < 5; index++) expect((await openPage(token, "203.0.113.8")).status).toBe(404);
    const fresh = (await callProxy("/proxy/api/share-create", { body: { context: "wishlist" } })).body.data.token;
    expect((await openPage(fresh, "198.51.100.11")).status).toBe(200);
  });
});

describe("the access log", () => {
  test("never holds a share token: its path is /proxy/shared/h:<first 8 hex of the token's sha256>", async () => {
    const token = await sharedList([{ title: "Linen shirt" }]);
    expect((await openPage(token, "198.51.100.12", "shared-log-1")).status).toBe(200);
    const unknown = randomToken();
    expect((await openPage(unknown, "198.51.100.12", "shared-log-2")).status).toBe(404);
    // An encoded path Remix matches to the same route.
    const encoded = `${token.slice(0, 10)}%${token.charCodeAt(10).toString(16)}${token.slice(11)}`;
    expect((await openPage(encoded, "198.51.100.12", "shared-log-3")).status).toBe(200);
    const hashPrefix = (value: string) => createHash("sha256").update(value).digest("hex").slice(0, 8);
    const lineOf = (requestId: string) => server.requestLines().find((line) => line.requestId === requestId);
    // Each request's access-log line is written when its response closes, the last thing it logs.
    await vi.waitFor(() =>
      expect(["shared-log-1", "shared-log-2", "shared-log-3"].map(lineOf)).not.toContain(undefined),
    );
    expect(lineOf("shared-log-1")).toMatchObject({ path: `/proxy/shared/h:${hashPrefix(token)}`, status: 200 });
    expect(lineOf("shared-log-2")).toMatchObject({ path: `/proxy/shared/h:${hashPrefix(unknown)}`, status: 404 });
    expect(lineOf("shared-log-3")).toMatchObject({ path: `/proxy/shared/h:${hashPrefix(token)}`, status: 200 });
    expect(server.output()).not.toContain(token);
    expect(server.output()).not.toContain(token.slice(11));
    expect(server.output()).not.toContain(unknown);
  });
});

describe("a snapshot's link on the shared page", () => {
  test("is kept only when a browser resolving it stays on the shop's site", async () => {
    const token = await sharedList([
      { title: "backslash", url: "/\\evil.example/x" },
      { title: "tab", url: "/\t/evil.example" },
      { title: "newline", url: "/\n/evil.example" },
      { title: "protocol-relative", url: "//evil.example" },
      { title: "scheme", url: "javascript:alert(1)" },
      { title: "http", url: "http://evil.example/" },
      { title: "encoded backslash", url: "/%5Cevil" },
      { title: "product", url: "/products/linen-shirt?variant=1#top" },
      { title: "cdn", url: "https://cdn.example/a" },
    ]);
    const page = await openPage(token, "198.51.100.13");
    expect(page.status).toBe(200);
    const hrefs = [...new Set([...page.body.matchAll(/href="([^"]*)"/g)].map((match) => match[1]))];
    // An https link off the site is dropped too, however plain (issue #31 A12).
    expect(hrefs.sort()).toEqual(["/%5Cevil", "/products/linen-shirt?variant=1#top"].sort());
    expect(page.body).not.toContain("cdn.example");
    expect(page.body).not.toContain("evil.example");
  });
});
