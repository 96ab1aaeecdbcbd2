// turbo-stream@2.4.1 (under @remix-run/server-runtime and @remix-run/react 2.17.5) carries an
// advisory Remix 2 will not fix (docs/decisions/0007-turbo-stream-unreachable.md). The app runs
// without single fetch, and then no request reaches turbo-stream at all: its encode and decode are
// counted on the one copy every Remix package loads, while requests of every single-fetch shape go
// to the production server; the same count on a build with single fetch on shows the count sees
// the path when it is there.
import { createRequire } from "node:module";
import path from "node:path";
import type { ServerBuild } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { platformServer } from "../support/platform";
import { loadBuild, send, serverBuildDir, startInProcess, type InProcessServer } from "../support/server";

/** turbo-stream as @remix-run/server-runtime requires it (npm dedupes the one @remix-run/react uses). */
const turboStream = createRequire(createRequire(import.meta.url).resolve("@remix-run/server-runtime"))(
  "turbo-stream",
) as Record<"encode" | "decode", (...args: unknown[]) => unknown>;
const calls = { encode: 0, decode: 0 };

let build: ServerBuild;
let server: InProcessServer;
let singleFetchServer: InProcessServer;

beforeAll(async () => {
  platformServer.close();
  for (const name of ["encode", "decode"] as const) {
    const original = turboStream[name];
    turboStream[name] = (...args: unknown[]) => {
      calls[name]++;
      return original(...args);
    };
  }
  const dir = await serverBuildDir();
  build = await loadBuild(dir);
  server = await startInProcess(build, path.join(dir, "client"));
  singleFetchServer = await startInProcess(
    { ...build, future: { ...build.future, v3_singleFetch: true } },
    path.join(dir, "client"),
  );
}, 240_000);

afterAll(async () => {
  await server?.stop();
  await singleFetchServer?.stop();
});

/** A body as a single-fetch client would send turbo-stream data: what a decoder would be fed. */
const TURBO_BODY = '[{"_1":2},"__proto__",{"_3":4},"polluted",true]\n';

const requests: { name: string; path: string; method?: string; body?: string; headers?: Record<string, string> }[] = [
  { name: "a document", path: "/" },
  { name: "the root's single-fetch data", path: "/_root.data" },
  { name: "a route's single-fetch data", path: "/app.data" },
  { name: "single-fetch data with _routes", path: "/app/plans.data?_routes=routes%2Fapp.plans" },
  { name: "an operation's single-fetch data", path: "/proxy/api/list.data" },
  { name: "a Remix data request", path: "/app?_data=routes%2Fapp" },
  {
    name: "a single-fetch action with a turbo-stream body",
    path: "/app/plans.data",
    method: "POST",
    body: TURBO_BODY,
    headers: { "Content-Type": "text/x-script" },
  },
  {
    name: "a turbo-stream body to the Flow callback",
    path: "/flow/lifecycle",
    method: "POST",
    body: TURBO_BODY,
    headers: { "Content-Type": "text/x-script" },
  },
];

describe("with single fetch off (the app's build)", () => {
  test("the build says so", () => {
    expect(build.future.v3_singleFetch).toBe(false);
  });

  test("no request of any single-fetch shape reaches turbo-stream's encode or decode", async () => {
    for (const request of requests) {
      const answer = await send(`${server.url}${request.path}`, {
        method: request.method,
        body: request.body,
        headers: request.headers,
      });
      expect(answer.status, request.name).toBeLessThan(500);
      expect(answer.headers["content-type"] ?? "", request.name).not.toMatch(/x-script/);
    }
    expect(calls).toEqual({ encode: 0, decode: 0 });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("the count itself", () => {
  test("sees turbo-stream on a build with single fetch on", async () => {
    const answer = await send(`${singleFetchServer.url}/_root.data`);
    expect(answer.headers["content-type"]).toMatch(/x-script/);
    expect(calls.encode).toBeGreaterThan(0);
  });
});
