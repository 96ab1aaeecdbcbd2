import { describe, expect, test } from "vitest";
import { SavedItemsError } from "../../extensions/shared/errors";
import { createSavedItemsClient } from "../../extensions/saved-items-account/src/lib/service-client";
import { TOKEN_REFRESH_MARGIN_MS } from "../../packages/client/src/index";
import {
  APP,
  CREATE_LIST,
  DELETE_LIST,
  EXCHANGE,
  FakeClock,
  FakeService,
  LIST,
  LISTS,
  REMOVE,
  RENAME_LIST,
  deferred,
  fail,
  grant,
  ok,
  page,
} from "../support/extensions/service";

/** A client on a fake service and a fake clock; jitter off (random = 1 gives the full delay). */
function setup() {
  const clock = new FakeClock();
  const service = new FakeService();
  let sessionTokens = 0;
  const client = createSavedItemsClient({
    appUrl: APP,
    getSessionToken: async () => `session-token-${++sessionTokens}`,
    fetch: service.fetch,
    now: clock.now,
    sleep: clock.sleep,
    random: () => 1,
  });
  const exchanges = () => service.to(EXCHANGE).length;
  const tokensUsed = () =>
    service.requests.filter((r) => r.url.pathname !== EXCHANGE).map((r) => r.headers.get("authorization"));
  return { clock, service, client, exchanges, tokensUsed };
}

const LIST_QUERY = { context: "wishlist", limit: 20 };

describe("the exchange", () => {
  test("sends the session token, then calls with the service token it got", async () => {
    const { clock, service, client } = setup();
    service.on(EXCHANGE, grant(clock.time)).on(LIST, ok(page(["1"])));

    expect(await client.list({ context: "wishlist", limit: 20, cursor: "abc" })).toEqual(page(["1"]));

    const [exchange, list] = service.requests;
    expect(exchange!.url.toString()).toBe(`${APP}${EXCHANGE}`);
    expect(exchange!.method).toBe("POST");
    expect(exchange!.headers.get("authorization")).toBe("Bearer session-token-1");
    expect(list!.method).toBe("GET");
    expect(list!.url.pathname).toBe(LIST);
    expect(Object.fromEntries(list!.url.searchParams)).toEqual({ context: "wishlist", limit: "20", cursor: "abc" });
    expect(list!.headers.get("authorization")).toMatch(/^Bearer service-token-\d+$/);
  });

  test("the service token is cached until 30 s before it expires, then exchanged again", async () => {
    const { clock, service, client, exchanges, tokensUsed } = setup();
    const issuedAt = clock.time;
    service.on(EXCHANGE, grant(issuedAt), grant(issuedAt + 270_000)).on(LIST, ok(page([])));
    expect(TOKEN_REFRESH_MARGIN_MS).toBe(30_000);

    await client.list(LIST_QUERY);
    clock.advance(270_000 - 1); // 30 s and 1 ms before expiry
    await client.list(LIST_QUERY);
    expect(exchanges()).toBe(1);

    clock.advance(1); // exactly 30 s before expiry
    await client.list(LIST_QUERY);
    expect(exchanges()).toBe(2);
    const [first, second, third] = tokensUsed();
    expect(second).toBe(first);
    expect(third).not.toBe(first);
  });

  test("expiry is the earlier of expiresAt and expiresInSeconds counted from the request (clock skew either way)", async () => {
    // The server's expiresAt lies 2 min later than our clock thinks: the local lifetime decides.
    const ahead = setup();
    ahead.service.on(EXCHANGE, grant(ahead.clock.time, 300, 120_000), grant(0)).on(LIST, ok(page([])));
    await ahead.client.list(LIST_QUERY);
    ahead.clock.advance(270_000);
    await ahead.client.list(LIST_QUERY);
    expect(ahead.exchanges()).toBe(2);

    // expiresAt 2 min earlier than the lifetime says: expiresAt decides.
    const behind = setup();
    behind.service.on(EXCHANGE, grant(behind.clock.time, 300, -120_000), grant(0)).on(LIST, ok(page([])));
    await behind.client.list(LIST_QUERY);
    behind.clock.advance(150_000);
    await behind.client.list(LIST_QUERY);
    expect(behind.exchanges()).toBe(2);
  });

  test("concurrent callers share one exchange in flight", async () => {
    const { clock, service, client, exchanges, tokensUsed } = setup();
    const answer = deferred<Response>();
    service.on(EXCHANGE, () => answer.promise).on(LIST, ok(page([])));

    const calls = [client.list(LIST_QUERY), client.list(LIST_QUERY), client.list({ context: "gifts" })];
    await Promise.resolve();
    answer.resolve(grant(clock.time));
    await Promise.all(calls);

    expect(exchanges()).toBe(1);
    expect(new Set(tokensUsed()).size).toBe(1);
    expect(tokensUsed()).toHaveLength(3);
  });

  test("a failed exchange fails every caller waiting on it and is not cached", async () => {
    const { clock, service, client, exchanges } = setup();
    service.on(EXCHANGE, fail(401, "CUSTOMER_REQUIRED"), grant(clock.time)).on(LIST, ok(page([])));

    const results = await Promise.allSettled([client.list(LIST_QUERY), client.list(LIST_QUERY)]);
    expect(results.map((result) => result.status)).toEqual(["rejected", "rejected"]);
    expect((results[0] as PromiseRejectedResult).reason).toMatchObject({ code: "CUSTOMER_REQUIRED", status: 401 });
    expect(exchanges()).toBe(1);
    expect(clock.sleeps).toEqual([]);

    await client.list(LIST_QUERY);
    expect(exchanges()).toBe(2);
  });

  test("an exchange answer without a usable token is BAD_RESPONSE, not retried", async () => {
    const { service, client, clock } = setup();
    service.on(EXCHANGE, ok({ authorization: "service-token", expiresInSeconds: 300 }));
    await expect(client.list(LIST_QUERY)).rejects.toMatchObject({ code: "BAD_RESPONSE", retryable: false });
    expect(clock.sleeps).toEqual([]);
  });
});

describe("TOKEN_EXPIRED", () => {
  test("drops the token, exchanges once more and repeats the call with the new token", async () => {
    const { clock, service, client, exchanges, tokensUsed } = setup();
    service.on(EXCHANGE, grant(clock.time), grant(clock.time)).on(LIST, fail(401, "TOKEN_EXPIRED"), ok(page(["1"])));

    expect(await client.list(LIST_QUERY)).toEqual(page(["1"]));
    expect(exchanges()).toBe(2);
    const [expired, fresh] = tokensUsed();
    expect(fresh).not.toBe(expired);
    expect(clock.sleeps).toEqual([]);

    // The new token is the cached one now.
    service.reset(LIST, ok(page([])));
    await client.list(LIST_QUERY);
    expect(exchanges()).toBe(2);
    expect(tokensUsed().at(-1)).toBe(fresh);
  });

  test("is recovered from once per call: a second TOKEN_EXPIRED is the caller's error", async () => {
    const { clock, service, client, exchanges } = setup();
    service.on(EXCHANGE, grant(clock.time)).on(LIST, fail(401, "TOKEN_EXPIRED"));

    await expect(client.list(LIST_QUERY)).rejects.toMatchObject({ code: "TOKEN_EXPIRED", status: 401 });
    expect(exchanges()).toBe(2);
    expect(service.to(LIST)).toHaveLength(2);
    expect(clock.sleeps).toEqual([]);
  });

  test("concurrent calls that meet the same expired token share one re-exchange", async () => {
    const { clock, service, client, exchanges } = setup();
    service
      .on(EXCHANGE, grant(clock.time), grant(clock.time))
      .on(LIST, (request) =>
        request.headers.get("authorization") ===
        service.requests.find((r) => r.url.pathname === LIST)!.headers.get("authorization")
          ? fail(401, "TOKEN_EXPIRED")
          : ok(page([])),
      );

    await Promise.all([client.list(LIST_QUERY), client.list(LIST_QUERY), client.list(LIST_QUERY)]);
    expect(exchanges()).toBe(2);
  });
});

describe("retry rules", () => {
  test("a retryable 5xx is retried with exponential backoff, at most 3 attempts", async () => {
    const { clock, service, client } = setup();
    service.on(EXCHANGE, grant(clock.time)).on(LIST, fail(502, "PLATFORM_UPSTREAM_ERROR", true));

    const error = await client.list(LIST_QUERY).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(SavedItemsError);
    expect(error).toMatchObject({ code: "PLATFORM_UPSTREAM_ERROR", status: 502, retryable: true });
    expect(service.to(LIST)).toHaveLength(3);
    expect(clock.sleeps).toEqual([500, 1000]);
  });

  test("succeeds when a retry does", async () => {
    const { clock, service, client } = setup();
    service
      .on(EXCHANGE, grant(clock.time))
      .on(LIST, fail(500, "INTERNAL_ERROR", true), fail(502, "PLATFORM_UPSTREAM_ERROR", true), ok(page(["9"])));
    expect(await client.list(LIST_QUERY)).toEqual(page(["9"]));
    expect(clock.sleeps).toEqual([500, 1000]);
  });

  test.each([
    [400, "VALIDATION_ERROR", false],
    [404, "ITEM_NOT_FOUND", false],
    [403, "CHANNEL_NOT_ENTITLED", false],
    [401, "INVALID_TOKEN", false],
    [402, "PLAN_LIMIT_REACHED", false],
    // a 5xx the service says repeating will not fix
    [500, "SOME_PERMANENT_FAILURE", false],
  ] as const)("HTTP %i %s (retryable: %s) is not retried", async (status, code, retryable) => {
    const { clock, service, client } = setup();
    service.on(EXCHANGE, grant(clock.time)).on(LIST, fail(status, code, retryable));
    await expect(client.list(LIST_QUERY)).rejects.toMatchObject({ code, status, retryable });
    expect(service.to(LIST)).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  test("RATE_LIMITED is retried with backoff, as its retryable flag says", async () => {
    const { clock, service, client } = setup();
    service.on(EXCHANGE, grant(clock.time)).on(LIST, fail(429, "RATE_LIMITED", true), ok(page(["1"])));
    expect(await client.list(LIST_QUERY)).toEqual(page(["1"]));
    expect(clock.sleeps).toEqual([500]);
  });

  test("no answer at all is NETWORK_ERROR and retried", async () => {
    const { clock, service, client } = setup();
    service.on(EXCHANGE, grant(clock.time)).on(LIST, new TypeError("Failed to fetch"), ok(page([])));
    expect(await client.list(LIST_QUERY)).toEqual(page([]));
    expect(clock.sleeps).toEqual([500]);
  });

  test("an answer without the envelope is BAD_RESPONSE: retried for a 5xx, not for a 4xx", async () => {
    const gateway = setup();
    gateway.service
      .on(EXCHANGE, grant(gateway.clock.time))
      .on(LIST, new Response("<html>Bad gateway</html>", { status: 502 }), ok(page([])));
    expect(await gateway.client.list(LIST_QUERY)).toEqual(page([]));
    expect(gateway.clock.sleeps).toEqual([500]);

    const missing = setup();
    missing.service.on(EXCHANGE, grant(missing.clock.time)).on(LIST, new Response("Not Found", { status: 404 }));
    await expect(missing.client.list(LIST_QUERY)).rejects.toMatchObject({
      code: "BAD_RESPONSE",
      status: 404,
      retryable: false,
    });
    expect(missing.clock.sleeps).toEqual([]);
  });

  test("the exchange follows the same rules, in the same attempt budget", async () => {
    const { clock, service, client } = setup();
    service.on(EXCHANGE, fail(502, "PLATFORM_UPSTREAM_ERROR", true), grant(clock.time)).on(LIST, ok(page([])));
    expect(await client.list(LIST_QUERY)).toEqual(page([]));
    expect(clock.sleeps).toEqual([500]);

    const down = setup();
    down.service.on(EXCHANGE, new TypeError("offline"));
    await expect(down.client.list(LIST_QUERY)).rejects.toMatchObject({ code: "NETWORK_ERROR", status: 0 });
    expect(down.service.to(EXCHANGE)).toHaveLength(3);
    expect(down.clock.sleeps).toEqual([500, 1000]);
  });
});

describe("remove", () => {
  test("POSTs only the item's identity as JSON", async () => {
    const { clock, service, client } = setup();
    service.on(EXCHANGE, grant(clock.time)).on(REMOVE, ok({ id: "gid://shopify/Metaobject/1", state: "removed" }));
    const item = {
      context: "wishlist",
      entityType: "product",
      entityGid: "gid://shopify/Product/1",
      id: "x",
      status: "active",
    };

    expect(await client.remove(item)).toEqual({ id: "gid://shopify/Metaobject/1", state: "removed" });
    const [request] = service.to(REMOVE);
    expect(request!.method).toBe("POST");
    expect(request!.headers.get("content-type")).toBe("application/json");
    expect(request!.body).toEqual({ context: "wishlist", entityType: "product", entityGid: "gid://shopify/Product/1" });
  });
});

describe("the list operations", () => {
  test("lists pages with limit and cursor; create, rename and delete post their bodies", async () => {
    const { clock, service, client } = setup();
    const list = { context: "gifts", name: "Gifts", itemCount: 0, createdAt: "x", updatedAt: "x" };
    service
      .on(EXCHANGE, grant(clock.time))
      .on(LISTS, ok({ lists: [list], pageInfo: { hasNextPage: false, endCursor: "c" } }))
      .on(CREATE_LIST, ok(list))
      .on(RENAME_LIST, ok({ ...list, name: "Presents" }))
      .on(DELETE_LIST, ok({ context: "gifts", deleted: true, removedItems: 0 }));

    expect((await client.lists({ limit: 100, cursor: "abc" })).lists).toEqual([list]);
    expect(await client.createList({ name: "Gifts" })).toEqual(list);
    await client.createList({ name: "Gifts", context: "gifts" });
    expect((await client.renameList({ context: "gifts", name: "Presents" })).name).toBe("Presents");
    expect((await client.deleteList({ context: "gifts" })).deleted).toBe(true);

    const [lists] = service.to(LISTS);
    expect(lists!.method).toBe("GET");
    expect(Object.fromEntries(lists!.url.searchParams)).toEqual({ limit: "100", cursor: "abc" });
    // Without a context the client picks the key, so the package's retries repeat the same create.
    expect(service.to(CREATE_LIST).map((request) => request.body)).toEqual([
      { name: "Gifts", context: expect.stringMatching(/^list-[0-9a-f]{16}$/) },
      { name: "Gifts", context: "gifts" },
    ]);
    expect(service.to(RENAME_LIST)[0]!.body).toEqual({ context: "gifts", name: "Presents" });
    expect(service.to(DELETE_LIST)[0]!.body).toEqual({ context: "gifts" });
  });
});
