// The client package (packages/client) on a scripted service and a clock the test moves: the
// headless exchange, renewal before expiry, one exchange for concurrent callers, the retry rules
// and the typed errors. The customer-account side is tests/extensions/service-client.test.ts,
// through the extension that uses it.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, expectTypeOf, test } from "vitest";
import {
  createHeadlessClient,
  SavedItemsError,
  type OperationErrorCode,
  type OperationInput,
  type OperationOutput,
  type Schemas,
  type ServiceErrorCode,
} from "../../packages/client/src/index";
import { platformServer } from "../support/platform";
import { deferred, fail, FakeClock, FakeService, ok, page } from "../support/extensions/service";

const APP = "https://saved-items.example";
const EXCHANGE = "/api/headless/auth/exchange";
const SAVE = "/api/headless/save";
const TOGGLE = "/api/headless/toggle";
const BATCH = "/api/headless/batch";
const LIST = "/api/headless/list";
const CREDENTIALS = { shop: "demo.myshopify.com", customerAccountAccessToken: "cat-1001" };
const ITEM = {
  context: "wishlist",
  entityType: "product",
  entityGid: "gid://shopify/Product/1",
  source: "test",
} as const;

let minted = 0;
/** An exchange answer: a fresh token valid `seconds` from `issuedAt`. */
function grant(issuedAt: number, seconds = 300): Response {
  minted += 1;
  return ok({
    authorization: `Bearer headless-token-${minted}`,
    tokenType: "Bearer",
    expiresInSeconds: seconds,
    expiresAt: new Date(issuedAt + seconds * 1000).toISOString(),
    channel: "headless",
    shop: CREDENTIALS.shop,
  });
}

/** A headless client on a fake service and clock; jitter off (random = 1 gives the full delay). */
function setup() {
  const clock = new FakeClock();
  const service = new FakeService();
  const client = createHeadlessClient({
    baseUrl: APP,
    credentials: () => CREDENTIALS,
    fetch: service.fetch,
    now: clock.now,
    sleep: clock.sleep,
    random: () => 1,
  });
  const exchanges = () => service.to(EXCHANGE).length;
  return { clock, service, client, exchanges };
}

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail("resolved"),
    (reason: unknown) => reason,
  );

describe("the typed surface", () => {
  test("inputs and outputs are the document's schemas", () => {
    const { client } = setup();
    expectTypeOf(client.save).parameter(0).toEqualTypeOf<Schemas["SaveRequest"]>();
    expectTypeOf(client.save).returns.resolves.toEqualTypeOf<Schemas["SaveOperationResult"]>();
    expectTypeOf<OperationInput<"headless", "is-saved">>().toHaveProperty("entityGid");
    expectTypeOf<OperationOutput<"headless", "list">>().toEqualTypeOf<Schemas["ListResult"]>();
    expectTypeOf<Parameters<typeof client.call>[0]>().toEqualTypeOf<
      | "save"
      | "remove"
      | "toggle"
      | "batch"
      | "list"
      | "is-saved"
      | "share-create"
      | "share-revoke"
      | "shared-list"
      | "lists"
      | "create-list"
      | "rename-list"
      | "delete-list"
    >();
  });

  test("POSTs the input as JSON; GETs it as query parameters, leaving out what is undefined", async () => {
    const { clock, service, client } = setup();
    service.on(EXCHANGE, grant(clock.time)).on(SAVE, ok({ id: "gid://shopify/Metaobject/1", state: "active" }));
    service.on(LIST, ok(page([])));

    expect(await client.save({ ...ITEM, source: "headless" })).toEqual({
      id: "gid://shopify/Metaobject/1",
      state: "active",
    });
    await client.call("list", { context: "wishlist", limit: 5, cursor: undefined });

    const [exchange, save, list] = service.requests;
    expect(exchange).toMatchObject({ method: "POST", body: CREDENTIALS });
    expect(exchange!.headers.get("content-type")).toBe("application/json");
    expect(save).toMatchObject({ method: "POST", body: { ...ITEM, source: "headless" } });
    expect(save!.headers.get("authorization")).toMatch(/^Bearer headless-token-\d+$/);
    expect(list!.method).toBe("GET");
    expect(list!.url.search).toBe("?context=wishlist&limit=5");
  });
});

describe("the service token", () => {
  test("is exchanged again 30 s before it expires, not on its first use after expiry", async () => {
    const { clock, service, client, exchanges } = setup();
    service.on(EXCHANGE, grant(clock.time), grant(clock.time + 270_000)).on(LIST, ok(page([])));

    await client.list({ context: "wishlist" });
    clock.advance(269_999);
    await client.list({ context: "wishlist" });
    expect(exchanges()).toBe(1);
    clock.advance(1);
    await client.list({ context: "wishlist" });
    expect(exchanges()).toBe(2);
    const tokens = service.to(LIST).map((request) => request.headers.get("authorization"));
    expect(tokens[1]).toBe(tokens[0]);
    expect(tokens[2]).not.toBe(tokens[0]);
  });

  test("concurrent callers share one exchange (single flight)", async () => {
    const { clock, service, client, exchanges } = setup();
    const answer = deferred<Response>();
    service.on(EXCHANGE, () => answer.promise).on(LIST, ok(page([])));

    const calls = [1, 2, 3].map(() => client.list({ context: "wishlist" }));
    await Promise.resolve();
    answer.resolve(grant(clock.time));
    await Promise.all(calls);
    expect(exchanges()).toBe(1);
  });

  test("TOKEN_EXPIRED: one re-exchange and one repeat", async () => {
    const { clock, service, client, exchanges } = setup();
    service.on(EXCHANGE, grant(clock.time)).on(LIST, fail(401, "TOKEN_EXPIRED"), ok(page(["1"])));
    expect(await client.list({ context: "wishlist" })).toEqual(page(["1"]));
    expect(exchanges()).toBe(2);
  });
});

describe("retries", () => {
  test("a Retry-After within the policy is waited out, then the call repeated", async () => {
    const { clock, service, client } = setup();
    const limited = fail(429, "RATE_LIMITED", true);
    limited.headers.set("Retry-After", "3");
    service.on(EXCHANGE, grant(clock.time)).on(LIST, limited, ok(page(["1"])));

    expect(await client.list({ context: "wishlist" })).toEqual(page(["1"]));
    expect(clock.sleeps).toEqual([3000]);
  });

  test("a Retry-After beyond the policy's longest wait ends the retries with the typed error", async () => {
    const { clock, service, client } = setup();
    const limited = fail(429, "RATE_LIMITED", true);
    limited.headers.set("Retry-After", "60");
    service.on(EXCHANGE, grant(clock.time)).on(LIST, limited);

    expect(await rejection(client.list({ context: "wishlist" }))).toMatchObject({
      code: "RATE_LIMITED",
      retryAfterMs: 60_000,
    });
    expect(clock.sleeps).toEqual([]);
    expect(service.to(LIST)).toHaveLength(1);
  });

  test("a retryable error is retried with backoff, at most 3 attempts", async () => {
    const { clock, service, client } = setup();
    service.on(EXCHANGE, grant(clock.time)).on(LIST, fail(502, "PLATFORM_UPSTREAM_ERROR", true));
    await rejection(client.list({ context: "wishlist" }));
    expect(service.to(LIST)).toHaveLength(3);
    expect(clock.sleeps).toEqual([500, 1000]);
  });

  test("create-list without a context: the client picks the key once, so a retry repeats it", async () => {
    const { clock, service, client } = setup();
    const CREATE = "/api/headless/create-list";
    const made = { context: "list-0", name: "Gifts", itemCount: 0, createdAt: "", updatedAt: "" };
    service.on(EXCHANGE, grant(clock.time)).on(CREATE, fail(502, "PLATFORM_UPSTREAM_ERROR", true), ok(made));
    await client.createList({ name: "Gifts" });
    const bodies = service.to(CREATE).map((request) => request.body as { context: string });
    expect(bodies).toHaveLength(2);
    expect(bodies[0]!.context).toMatch(/^list-[0-9a-f]{16}$/);
    expect(bodies[1]!.context).toBe(bodies[0]!.context);
    await client.createList({ name: "Gifts" });
    expect((service.to(CREATE)[2]!.body as { context: string }).context).not.toBe(bodies[0]!.context);
    await client.createList({ name: "Mine", context: "mine" });
    expect(service.to(CREATE)[3]!.body).toEqual({ name: "Mine", context: "mine" });
  });

  test("a non-retryable error is not retried", async () => {
    const { clock, service, client } = setup();
    service.on(EXCHANGE, grant(clock.time)).on(SAVE, fail(409, "DUPLICATE_SAVE"));
    await rejection(client.save(ITEM));
    expect(service.to(SAVE)).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });
});

describe("an operation whose outcome is unknown", () => {
  test("a toggle answered 502 (it may have been applied) is not repeated: the typed error goes to the caller", async () => {
    const { clock, service, client } = setup();
    service.on(EXCHANGE, grant(clock.time)).on(TOGGLE, fail(502, "PLATFORM_UPSTREAM_ERROR", true), ok({}));
    expect(await rejection(client.toggle(ITEM))).toMatchObject({ code: "PLATFORM_UPSTREAM_ERROR" });
    expect(service.to(TOGGLE)).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  test("a toggle refused before it ran (RATE_LIMITED), or whose exchange failed, is repeated", async () => {
    const { clock, service, client } = setup();
    service
      .on(EXCHANGE, fail(502, "PLATFORM_UPSTREAM_ERROR", true), grant(clock.time))
      .on(TOGGLE, fail(429, "RATE_LIMITED", true), ok({ state: "active" }));
    expect(await client.toggle(ITEM)).toEqual({ state: "active" });
    expect(service.to(EXCHANGE)).toHaveLength(2);
    expect(service.to(TOGGLE)).toHaveLength(2);
  });

  test("a batch holding a toggle is not repeated after a 500; one of saves and removes is", async () => {
    const { clock, service, client } = setup();
    service
      .on(EXCHANGE, grant(clock.time))
      .on(BATCH, fail(500, "INTERNAL_ERROR", true), fail(500, "INTERNAL_ERROR", true), ok({ results: [] }));
    const withToggle = { operations: [{ action: "toggle" as const, ...ITEM }] };
    expect(await rejection(client.batch(withToggle))).toMatchObject({ code: "INTERNAL_ERROR" });
    expect(service.to(BATCH)).toHaveLength(1);
    const saves = { operations: [{ action: "save" as const, ...ITEM }] };
    expect(await client.batch(saves)).toEqual({ results: [] });
    expect(service.to(BATCH)).toHaveLength(3);
  });

  test("a save answered 502 is repeated: saving twice leaves the same state", async () => {
    const { clock, service, client } = setup();
    service
      .on(EXCHANGE, grant(clock.time))
      .on(SAVE, fail(502, "PLATFORM_UPSTREAM_ERROR", true), ok({ state: "active" }));
    expect(await client.save(ITEM)).toEqual({ state: "active" });
    expect(service.to(SAVE)).toHaveLength(2);
  });
});

describe("where the client sends tokens", () => {
  test("baseUrl must be https, or http on localhost", () => {
    const make = (baseUrl: string) => () => createHeadlessClient({ baseUrl, credentials: () => CREDENTIALS });
    expect(make("http://saved-items.example")).toThrow(TypeError);
    expect(make("ftp://saved-items.example")).toThrow(TypeError);
    expect(make("not a url")).toThrow(TypeError);
    for (const allowed of [
      "https://saved-items.example",
      "http://localhost:3000",
      "http://127.0.0.1:3000",
      "http://[::1]:3000",
    ]) {
      expect(make(allowed)).not.toThrow();
    }
  });

  test("a redirect from the base URL is refused, over real sockets: the exchange's body never reaches where it points", async () => {
    // node's own fetch: the platform mock's interception of fetch never settles a manual redirect.
    platformServer.close();
    const elsewhere: string[] = [];
    const target = http.createServer((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString()));
      request.on("end", () => {
        elsewhere.push(body);
        response.writeHead(200, { "Content-Type": "application/json" }).end('{"ok":true,"data":{}}');
      });
    });
    await new Promise<void>((resolve) => target.listen(0, "127.0.0.2", resolve));
    const targetPort = (target.address() as AddressInfo).port;
    const redirecting = http.createServer((request, response) => {
      request.resume();
      response.writeHead(307, { Location: `http://127.0.0.2:${targetPort}${request.url}` }).end();
    });
    await new Promise<void>((resolve) => redirecting.listen(0, "127.0.0.1", resolve));
    try {
      const client = createHeadlessClient({
        baseUrl: `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}`,
        credentials: () => CREDENTIALS,
      });
      expect(await rejection(client.list({ context: "wishlist" }))).toMatchObject({
        code: "REDIRECT_REFUSED",
        status: 307,
        retryable: false,
      });
      expect(elsewhere).toEqual([]);
    } finally {
      redirecting.close();
      target.close();
    }
  });
});

describe("errors", () => {
  test("the error envelope becomes a SavedItemsError with code, status, retryable and retryAfterMs", async () => {
    const { clock, service, client } = setup();
    service.on(EXCHANGE, grant(clock.time)).on(SAVE, fail(409, "DUPLICATE_SAVE"));

    const reason = await rejection(client.save(ITEM));
    expect(reason).toBeInstanceOf(SavedItemsError);
    expect(reason).toMatchObject({ code: "DUPLICATE_SAVE", status: 409, retryable: false, retryAfterMs: undefined });
    expectTypeOf<"DUPLICATE_SAVE">().toExtend<ServiceErrorCode>();
    expectTypeOf<"INVALID_PROXY_SIGNATURE">().not.toExtend<ServiceErrorCode>();
    // Each operation's own codes, from the statuses the document lists for it.
    expectTypeOf<"DUPLICATE_SAVE">().toExtend<OperationErrorCode<"headless", "save">>();
    expectTypeOf<"TOKEN_EXPIRED">().toExtend<OperationErrorCode<"headless", "save">>();
    expectTypeOf<"DUPLICATE_SAVE">().not.toExtend<OperationErrorCode<"headless", "remove">>();
    expectTypeOf<"ITEM_NOT_FOUND">().toExtend<OperationErrorCode<"customer-account", "remove">>();
  });

  test("a failed exchange is the caller's error, its code from the envelope", async () => {
    const { service, client } = setup();
    service.on(EXCHANGE, fail(401, "INVALID_HEADLESS_SIGNATURE"));
    expect(await rejection(client.list({ context: "wishlist" }))).toMatchObject({
      code: "INVALID_HEADLESS_SIGNATURE",
      status: 401,
    });
  });
});

test("a name that is no operation of the channel is refused before any request", async () => {
  const { service, client } = setup();
  const untyped = client.call as (name: string, input: unknown) => Promise<unknown>;
  await expect(untyped("auth/exchange", {})).rejects.toThrow(TypeError);
  await expect(untyped("nothing", {})).rejects.toThrow("nothing is no operation of the headless channel");
  expect(service.requests).toEqual([]);
});
