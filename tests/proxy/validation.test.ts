import { afterEach, describe, expect, test, vi } from "vitest";
import { MAX_BODY_DEPTH, nestsDeeperThan } from "~/edge/request-input.server";
import { callProxy, givenShop, proxyRequest, sendToApp } from "../support/app";
import { aSaveRequest, identityQuery } from "../support/fixtures";
import { emulator } from "../support/platform";
import { rawProxyRequest } from "../support/fuzz/requests";
import { loggedLines } from "../support/logs";

const validationError = (status = 400) => ({
  status,
  body: { ok: false, error: { code: "VALIDATION_ERROR", message: expect.any(String), retryable: false } },
});

describe("edge validation (§4.1 rules 3-5)", () => {
  test.each([
    ["GET", "/proxy/api/save"],
    ["GET", "/proxy/api/remove"],
    ["GET", "/proxy/api/toggle"],
    ["GET", "/proxy/api/batch"],
    ["POST", "/proxy/api/list"],
    ["POST", "/proxy/api/is-saved"],
    ["PUT", "/proxy/api/save"],
    ["DELETE", "/proxy/api/list"],
  ])("%s %s is VALIDATION_ERROR 405", async (method, path) => {
    await givenShop();
    const body = method === "GET" ? undefined : aSaveRequest();
    expect(await callProxy(path, { method, body })).toEqual(validationError(405));
  });

  test("a 405 names the method the operation takes in Allow", async () => {
    await givenShop();
    const response = await sendToApp(proxyRequest("/proxy/api/save", { method: "GET" }));
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toBe("POST");
    expect((await sendToApp(proxyRequest("/proxy/api/list", { method: "POST", body: {} }))).headers.get("Allow")).toBe(
      "GET",
    );
  });

  test("invalid JSON is VALIDATION_ERROR 400", async () => {
    await givenShop();
    const result = await callProxy("/proxy/api/save", { rawBody: '{"context": "wishlist",' });
    expect(result).toEqual(validationError());
    expect(result.body.error.message).toMatch(/JSON/);
  });

  test.each([
    ["context", { context: "" }],
    ["entityType", { entityType: "blog" }],
    ["entityGid", { entityGid: "Product/1" }],
    ["source", { source: 7 }],
    ["snapshot", { snapshot: "a string" }],
    ["snapshot", { snapshot: { blob: "x".repeat(5000) } }],
  ])("a body failing the schema names the field (%s)", async (field, overrides) => {
    await givenShop();
    const result = await callProxy("/proxy/api/save", { body: aSaveRequest(overrides) });
    expect(result).toEqual(validationError());
    expect(result.body.error.message).toMatch(new RegExp(`^${field}:`));
    expect(emulator.countRequests({ api: "admin" })).toBe(0);
  });

  test("missing required fields are each named", async () => {
    await givenShop();
    const result = await callProxy("/proxy/api/save", { body: { context: "wishlist" } });
    expect(result.status).toBe(400);
    for (const field of ["entityType", "entityGid", "source"]) expect(result.body.error.message).toContain(`${field}:`);
  });

  test("a body that is not an object is refused", async () => {
    await givenShop();
    expect(await callProxy("/proxy/api/remove", { rawBody: "[1,2]" })).toEqual(validationError());
  });

  test("a query failing the schema names the field", async () => {
    await givenShop();
    const result = await callProxy("/proxy/api/is-saved", { query: identityQuery({ entityType: "nope" }) });
    expect(result).toEqual(validationError());
    expect(result.body.error.message).toMatch(/^entityType:/);
  });

  test("a repeated query field is refused rather than silently picking one", async () => {
    await givenShop();
    const result = await callProxy("/proxy/api/list", { query: { context: ["a", "b"] } });
    expect(result).toEqual(validationError());
    expect(result.body.error.message).toMatch(/^context:/);
  });

  test("a body over 256 KiB is refused with 413, never read whole", async () => {
    await givenShop();
    const result = await callProxy("/proxy/api/save", { rawBody: JSON.stringify({ pad: "x".repeat(300 * 1024) }) });
    expect(result).toEqual(validationError(413));
  });

  test("a POST without a JSON content type is refused with 415 (no cross-site form posts)", async () => {
    await givenShop();
    const result = await callProxy("/proxy/api/save", {
      rawBody: JSON.stringify(aSaveRequest()),
      contentType: "text/plain",
    });
    expect(result).toEqual(validationError(415));
  });

  test("validation failures do not count against the monthly budget", async () => {
    await givenShop();
    await callProxy("/proxy/api/save", { rawBody: "nope" });
    const { monthlyUsage } = await import("~/services/usage/monthly-budget.server");
    expect(await monthlyUsage("demo.myshopify.com")).toBe(0);
  });
});

afterEach(() => vi.restoreAllMocks());

const CONTROL_CHARACTERS = [
  "\n",
  "\r",
  "\r\n",
  "\u0000",
  "\u0007",
  "\t",
  "\u001b",
  "\u007f",
  "\u0085",
  "\u009f",
  "\u2028",
  "\u2029",
];

describe("single-line fields: control characters are the caller's error, refused before the platform", () => {
  const codePoints = (text: string) =>
    [...text].map((char) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`).join(" ");
  test.each(CONTROL_CHARACTERS.map((char) => [codePoints(char), char]))(
    "%s in context, source and entityGid",
    async (_name, char) => {
      await givenShop();
      for (const [field, value] of [
        ["context", `wish${char}list`],
        ["source", `${char}product-page`],
        ["entityGid", `gid://shopify/Product/1${char}`],
      ] as const) {
        const result = await callProxy("/proxy/api/save", { body: aSaveRequest({ [field]: value }) });
        expect(result).toEqual(validationError());
        expect(result.body.error.message).toMatch(new RegExp(`^${field}: must be a single line of text`));
      }
      expect(emulator.requests).toEqual([]);
    },
  );

  test("an unpaired surrogate (which the handle digest would read as U+FFFD) is refused; a paired one is text", async () => {
    await givenShop();
    const lone = await callProxy("/proxy/api/save", {
      rawBody: JSON.stringify(aSaveRequest()).replace("wishlist", "wish\\ud800list"),
    });
    expect(lone).toEqual(validationError());
    expect(lone.body.error.message).toMatch(/^context: /);
    expect(emulator.requests).toEqual([]);
    expect((await callProxy("/proxy/api/save", { body: aSaveRequest({ context: "wish 💖 list" }) })).status).toBe(200);
  });

  test("batch operations name the operation and field", async () => {
    await givenShop({ plan: "pro" });
    const operations = [
      { action: "save", ...aSaveRequest() },
      { action: "remove", ...aSaveRequest({ context: "a\u2028b" }) },
    ];
    const result = await callProxy("/proxy/api/batch", { body: { operations } });
    expect(result).toEqual(validationError());
    expect(result.body.error.message).toMatch(/^operations\.1\.context: must be a single line/);
    expect(emulator.requests).toEqual([]);
  });

  test.each([
    ["/proxy/api/list", { context: "wish\nlist" }, "context"],
    ["/proxy/api/list", { context: "wishlist", limit: "5\n" }, "limit"],
    ["/proxy/api/list", { context: "wishlist", cursor: "abc\u0000" }, "cursor"],
    ["/proxy/api/is-saved", identityQuery({ entityGid: "gid://shopify/Product/1\u2029" }), "entityGid"],
  ])("query parameters too: %s %j", async (path, query, field) => {
    await givenShop();
    const result = await callProxy(path, { query });
    expect(result).toEqual(validationError());
    expect(result.body.error.message).toBe(
      `${field}: must be a single line of text without control characters or unpaired surrogates`,
    );
    expect(emulator.requests).toEqual([]);
  });

  test.each(["%", "%zz", "%C3%28", "%ED%A0%80", "%FF"])(
    "a malformed escape (%s) is refused, not read as U+FFFD or literally",
    async (escape) => {
      await givenShop();
      const response = await sendToApp(
        rawProxyRequest("/proxy/api/list", { method: "GET", rawQuery: `context=wish${escape}list` }),
      );
      expect({ status: response.status, body: await response.json() }).toEqual(validationError());
      expect(emulator.requests).toEqual([]);
    },
  );

  test("parameters the route does not take are ignored, whatever they hold or however often they come", async () => {
    await givenShop();
    const result = await callProxy("/proxy/api/is-saved", {
      query: { ...identityQuery(), extra: ["a\nb", "c"], toString: ["1", "2"] },
    });
    expect(result).toMatchObject({ status: 200, body: { ok: true, data: { saved: false } } });
  });
});

describe("bounded shapes: nothing a client sends reaches recursion or an unbounded stringify", () => {
  test("a snapshot nested 120,000 arrays deep is refused before parsing, as the caller's error, with no log line", async () => {
    await givenShop();
    const logged = loggedLines();
    const deep = "[".repeat(120_000) + "]".repeat(120_000);
    const result = await callProxy("/proxy/api/save", {
      rawBody: JSON.stringify(aSaveRequest()).replace(/}$/, `,"snapshot":{"a":${deep}}}`),
    });
    expect(result).toEqual(validationError());
    expect(result.body.error.message).toBe(`body: nested too deeply (at most ${MAX_BODY_DEPTH} levels)`);
    expect(logged({ level: "error" })).toEqual([]);
    expect(emulator.requests).toEqual([]);
  });

  test("brackets inside strings do not count as nesting", async () => {
    await givenShop();
    const brackets = "[{".repeat(100);
    const result = await callProxy("/proxy/api/save", {
      body: aSaveRequest({ source: brackets, snapshot: { title: `\\"${brackets}` } }),
    });
    expect(result.status).toBe(200);
  });

  test.each([
    [
      "deeper than 8 levels",
      { a: { b: { c: { d: { e: { f: { g: { h: { i: 1 } } } } } } } } },
      "must be at most 8 levels deep",
    ],
    [
      "more than 200 values in all",
      { list: Array.from({ length: 120 }, (_, index) => [index]) },
      "must hold at most 200 values in all",
    ],
    ["a string over 1,024 characters", { title: "x".repeat(1025) }, "strings must be at most 1024 characters"],
    ["a key over 1,024 characters", { ["k".repeat(1025)]: 1 }, "strings must be at most 1024 characters"],
    ["a NUL character", { title: "a\u0000b" }, "strings must be valid Unicode text without NUL characters"],
    [
      "over 4 KB of JSON",
      { a: "x".repeat(1000), b: "x".repeat(1000), c: "x".repeat(1000), d: "x".repeat(1000), e: "x".repeat(200) },
      "must be at most 4096 bytes of JSON",
    ],
  ])("a snapshot %s is refused", async (_name, snapshot, message) => {
    await givenShop();
    const result = await callProxy("/proxy/api/save", { body: aSaveRequest({ snapshot }) });
    expect(result).toEqual(validationError());
    expect(result.body.error.message).toBe(`snapshot: ${message}`);
    expect(emulator.requests).toEqual([]);
  });

  test("a snapshot at every bound is accepted, line breaks in its strings included", async () => {
    await givenShop();
    const snapshot = {
      a: { b: { c: { d: { e: { f: { g: { h: "deepest" } } } } } } },
      title: "Line one\nline two",
      tags: Array.from({ length: 150 }, (_, index) => index),
    };
    const result = await callProxy("/proxy/api/save", { body: aSaveRequest({ snapshot }) });
    expect(result.status).toBe(200);
  });

  test("a body of invalid UTF-8 is refused rather than read with replacement characters", async () => {
    await givenShop();
    const bytes = Buffer.concat([Buffer.from('{"context":"wish'), Buffer.from([0xc3, 0x28]), Buffer.from('list"}')]);
    const request = proxyRequest("/proxy/api/save", { body: {} });
    const response = await sendToApp(
      new Request(request.url, { method: "POST", headers: request.headers, body: bytes }),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: { code: "VALIDATION_ERROR", message: "Body is not valid UTF-8" },
    });
  });

  test("a batch of thousands of wrong operations is answered with a short message", async () => {
    await givenShop({ plan: "pro" });
    const result = await callProxy("/proxy/api/batch", {
      body: { operations: Array.from({ length: 5000 }, () => ({ action: "x" })) },
    });
    expect(result).toEqual(validationError());
    expect(result.body.error.message.length).toBeLessThan(1000);
  });

  test("the nesting scan counts brackets outside strings only", () => {
    expect(nestsDeeperThan("[[[]]]", 3)).toBe(false);
    expect(nestsDeeperThan("[[[[]]]]", 3)).toBe(true);
    expect(nestsDeeperThan('["[[[[[[", {"a": "\\"[[[["}]', 2)).toBe(false);
    expect(nestsDeeperThan("[[], [], [], [[]]]", 3)).toBe(false);
    expect(nestsDeeperThan("[[], [], [], [[]]]", 2)).toBe(true);
  });
});
