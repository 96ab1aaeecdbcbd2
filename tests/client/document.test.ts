// The client package against the OpenAPI document the app serves: its generated sources are what
// the generator writes from that document today (regenerated in memory, nothing written), and every
// operation the document lists on a direct channel is callable through the client, at its path and
// with its method. A new operation in the document fails both until `npm run generate -w
// @saved-items/client` is run and the result committed.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, expectTypeOf, test } from "vitest";
import type { OpenApiDocument } from "~/edge/openapi/document.server";
import {
  createCustomerAccountClient,
  createHeadlessClient,
  operationNames,
  type Channel,
  type OperationInput,
  type OperationName,
  type OperationOutput,
} from "../../packages/client/src/index";
import { generatedSources } from "../../packages/client/scripts/generate";
import { APP_URL, sendToApp } from "../support/app";
import { FakeClock, FakeService, ok } from "../support/extensions/service";

const PACKAGE_ROOT = path.resolve(__dirname, "../../packages/client");
const CHANNELS = ["headless", "customer-account"] as const satisfies readonly Channel[];

async function servedDocument(): Promise<OpenApiDocument> {
  const response = await sendToApp(new Request(new URL("/api/openapi.json", APP_URL)));
  expect(response.status).toBe(200);
  return (await response.json()) as OpenApiDocument;
}

/** The document's operations on one channel: every path under it but the exchange, with its method. */
function documentedOperations(document: OpenApiDocument, channel: Channel) {
  const prefix = `/api/${channel}/`;
  return Object.entries(document.paths)
    .filter(([route]) => route.startsWith(prefix) && route !== `${prefix}auth/exchange`)
    .map(([route, item]) => ({ name: route.slice(prefix.length), path: route, methods: Object.keys(item) }));
}

/** A client of the channel on a service that grants a token and answers every call with empty data. */
function clientOn(channel: Channel) {
  const clock = new FakeClock();
  const service = new FakeService().on(
    `/api/${channel}/auth/exchange`,
    ok({ authorization: "Bearer t", expiresInSeconds: 300, expiresAt: new Date(clock.time + 300_000).toISOString() }),
  );
  const common = { baseUrl: "https://app.example", fetch: service.fetch, now: clock.now, sleep: clock.sleep };
  const client =
    channel === "headless"
      ? createHeadlessClient({
          ...common,
          credentials: () => ({ shop: "a.myshopify.com", customerAccountAccessToken: "c" }),
        })
      : createCustomerAccountClient({ ...common, getSessionToken: async () => "session" });
  // Names come from the served document here, not from the types: reach the client untyped.
  const untyped = client as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  return { call: untyped.call!, method: (name: string) => untyped[name], service };
}

describe("the generated sources", () => {
  test("are what the generator writes from the served document (npm run generate -w @saved-items/client)", async () => {
    const sources = await generatedSources(await servedDocument());
    for (const [file, contents] of Object.entries(sources)) {
      expect(await readFile(path.join(PACKAGE_ROOT, file), "utf8"), `stale ${file}`).toBe(contents);
    }
  }, 60_000);
});

describe.each(CHANNELS)("on /api/%s, the client's typed surface", (channel) => {
  test("covers every operation of the served document, at its path with its method", async () => {
    const documented = documentedOperations(await servedDocument(), channel);
    expect(documented.length).toBeGreaterThan(0);
    expect(operationNames(channel)).toEqual(documented.map((operation) => operation.name));

    for (const { name, path: route, methods } of documented) {
      const camelCase = name.replace(/-(.)/g, (_, letter: string) => letter.toUpperCase());
      const { call, method, service } = clientOn(channel);
      service.on(route, ok({}));
      await call(name, {});
      expect(method(camelCase), `${name} as a method`).toBeTypeOf("function");
      await method(camelCase)!({});
      expect(
        service.to(route).map((request) => request.method.toLowerCase()),
        name,
      ).toEqual([methods[0], methods[0]]);
    }
  });

  test("types each operation's input and output (none falls through to never)", () => {
    type Untyped<C extends Channel> = {
      [Name in OperationName<C>]: [OperationInput<C, Name>] extends [never]
        ? Name
        : [OperationOutput<C, Name>] extends [never]
          ? Name
          : never;
    }[OperationName<C>];
    expectTypeOf<Untyped<"headless">>().toEqualTypeOf<never>();
    expectTypeOf<Untyped<"customer-account">>().toEqualTypeOf<never>();
    expectTypeOf<OperationName<"headless">>().toEqualTypeOf<OperationName<"customer-account">>();
  });
});
