// Requests are matched against a build narrowed to the routes their first path segment can reach
// (server/app-build.ts narrowedBuilds): which routes each narrowed build keeps, and that the server
// answers every kind of path exactly as Remix does on the whole build.
import path from "node:path";
import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { appEntryOf, firstSegmentOf, narrowedBuilds } from "../../server/app-build";
import { signedProxyUrl } from "@saved-items/sandbox/proxy-signature";
import { platformServer } from "../support/platform";
import { TEST_ENV } from "../support/test-env";
import { loadBuild, send, serverBuildDir, startInProcess, type InProcessServer } from "../support/server";

type RouteSpec = { parentId?: string; path?: string; index?: boolean; document?: boolean };

function buildOf(routes: Record<string, RouteSpec>): ServerBuild {
  const all: Record<string, RouteSpec> = { root: { path: "", document: true }, ...routes };
  const entries = Object.entries(all).map(([id, spec]) => [
    id,
    {
      id,
      parentId: id === "root" ? undefined : (spec.parentId ?? "root"),
      path: spec.path,
      index: spec.index,
      caseSensitive: undefined,
      module: spec.document ? { default: () => null } : { loader: () => null },
    },
  ]);
  return { routes: Object.fromEntries(entries) } as unknown as ServerBuild;
}

const routeIds = (builds: Map<string, ServerBuild>) =>
  Object.fromEntries([...builds].map(([segment, build]) => [segment, Object.keys(build.routes).sort()]));

describe("narrowedBuilds", () => {
  test("a segment whose routes are all resource routes keeps them and their ancestors; one with a page is not narrowed", () => {
    const build = buildOf({
      index: { index: true, document: true },
      proxyApi: { path: "proxy/api/:operation" },
      proxyShared: { path: "proxy/shared/:token" },
      api: { path: "api" },
      headless: { parentId: "api", path: "headless/:operation" },
      app: { path: "app", document: true },
      appExport: { parentId: "app", path: "export" },
    });
    expect(routeIds(narrowedBuilds(build))).toEqual({
      proxy: ["proxyApi", "proxyShared", "root"],
      api: ["api", "headless", "root"],
    });
  });

  test("a route with a dynamic, optional or splat first segment belongs to every segment, and a page of that kind stops all narrowing", () => {
    const withLocale = buildOf({ proxyApi: { path: "proxy/api/:op" }, locale: { path: ":locale/feed" } });
    expect(routeIds(narrowedBuilds(withLocale))).toEqual({ proxy: ["locale", "proxyApi", "root"] });
    const withSplatPage = buildOf({ proxyApi: { path: "proxy/api/:op" }, pages: { path: "*", document: true } });
    expect(narrowedBuilds(withSplatPage).size).toBe(0);
  });

  test("segments that differ only in case share one narrowed build, keyed in lower case", () => {
    const build = buildOf({ upper: { path: "Proxy/a" }, lower: { path: "proxy/b" } });
    expect(routeIds(narrowedBuilds(build))).toEqual({ proxy: ["lower", "root", "upper"] });
  });

  test("a request's first segment is its key in lower case; an encoded one has none (Remix decodes before matching)", () => {
    expect(firstSegmentOf("/PROXY/api/is-saved")).toBe("proxy");
    expect(firstSegmentOf("/")).toBe("");
    expect(firstSegmentOf("//proxy/api")).toBe("");
    expect(firstSegmentOf("/pr%6Fxy/api/is-saved")).toBeUndefined();
  });
});

/** A storefront is-saved as the platform's app proxy signs it (path and query), for a shop with no install here. */
function signedIsSaved(path = "/proxy/api/is-saved"): string {
  const url = signedProxyUrl("http://proxy.test", path, TEST_ENV.SHOPIFY_API_SECRET, {
    shop: "not-installed.myshopify.com",
    customerId: "1001",
    query: { context: "wishlist", entityType: "product", entityGid: "gid://shopify/Product/1" },
  });
  return `${url.pathname}${url.search}`;
}

describe("the server on the app's build", () => {
  let build: ServerBuild;
  let server: InProcessServer;

  beforeAll(async () => {
    platformServer.close();
    const dir = await serverBuildDir();
    build = await loadBuild(dir);
    server = await startInProcess(build, path.join(dir, "client"));
  }, 240_000);

  afterAll(async () => {
    await server?.stop();
  });

  test("narrows the resource-only segments (proxy, api, webhooks, flow) and leaves the admin's pages whole", () => {
    const segments = [...narrowedBuilds(build).keys()].sort();
    expect(segments).toEqual(["api", "flow", "proxy", "webhooks"]);
    expect(Object.keys(narrowedBuilds(build).get("proxy")!.routes).sort()).toEqual([
      "root",
      "routes/proxy.api.$operation",
      "routes/proxy.shared.$token",
    ]);
  });

  test.each([
    ["GET", "/proxy/api/is-saved?shop=demo.myshopify.com"],
    ["GET", "/PROXY/API/is-saved?shop=demo.myshopify.com"],
    ["GET", "/pr%6Fxy/api/is-saved?shop=demo.myshopify.com"],
    ["GET", "/proxy/api/no-such-operation"],
    ["GET", "/proxy/nothing-here"],
    ["GET", "/proxy/api/is-saved?_data=root"],
    ["GET", "/api/headless/list"],
    ["GET", "/api/openapi.json"],
    ["POST", "/webhooks/no-such-topic"],
    ["GET", "/flow/lifecycle"],
    // is-saved's fast path (server/remix-dispatch.ts serveProxyQuery): a signature that holds, then the
    // install check; a signature that does not; a method it does not take.
    ["GET", signedIsSaved()],
    ["GET", signedIsSaved().replace(/signature=[0-9a-f]{4}/, "signature=0000")],
    ["POST", signedIsSaved()],
  ])("%s %s answers as Remix does on the whole build", async (method, target) => {
    // The whole build as the server serves it: its resource routes answer a method they do not take
    // with 405 and Allow (app/edge/resource-methods.server.ts).
    const whole = createRequestHandler(appEntryOf(build).withResourceMethods(build), "production");
    const expected = await whole(new Request(`${server.url}${target}`, { method }), {
      requestId: "whole-build",
      clientAddress: "127.0.0.1",
      log: {},
    });
    const actual = await send(`${server.url}${target}`, { method });
    expect({ status: actual.status, body: actual.body }).toEqual({
      status: expected.status,
      body: await expected.text(),
    });
  });
  test("is-saved on the fast path answers with the status, headers and body of the same request through Remix", async () => {
    // The same route spelt in capitals is matched by Remix (case-insensitively) and not by the fast path.
    const comparable = ({ status, headers, body }: Awaited<ReturnType<typeof send>>) => {
      const { date: _date, "x-request-id": _id, ...rest } = headers;
      return { status, headers: rest, body };
    };
    for (const target of [signedIsSaved(), signedIsSaved().replace(/signature=[0-9a-f]{4}/, "signature=0000")]) {
      const viaRemix = comparable(await send(`${server.url}${target.replace("/proxy/api/", "/PROXY/API/")}`));
      expect(comparable(await send(`${server.url}${target}`))).toEqual(viaRemix);
      expect(viaRemix.headers).toMatchObject({ vary: "Accept-Encoding", "cache-control": "no-store" });
    }
  });
});
