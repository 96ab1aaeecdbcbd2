import { createHmac } from "node:crypto";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { EXCHANGE_PATHS, operationPath } from "~/edge/route-table";
import { ERROR_CODES } from "~/lib/errors";
import { CHANNELS, type Channel } from "~/services/channels";
import { OPERATION_NAMES, OPERATIONS, type OperationName } from "~/operations/operations";
import { SNAPSHOT_LIMITS } from "~/services/saved-items/schemas";
import { TEST_ENV } from "../support/test-env";
import { DEMO_SHOP, sendToApp } from "../support/app";
import {
  CUSTOMER,
  STOREFRONT_TOKEN,
  aServiceToken,
  aSessionToken,
  givenDirectShop,
  serviceClaims,
  signHs256,
  unsignedToken,
} from "../support/direct";
import { aSaveRequest, anIdentity } from "../support/fixtures";
import { emulator } from "../support/platform";
import { FUZZ_SEED, seededRandom, type Random } from "../support/fuzz/random";
import { rawDirectRequest, rawProxyRequest, type RawCall } from "../support/fuzz/requests";
import { loggedLines } from "../support/logs";

/**
 * Malformed input of every kind, thrown at every operation on all three channels and at both
 * exchanges: each answer must be a 4xx error envelope, no request may reach the platform, and
 * nothing may be logged as an error (a stack trace means the service thought it was its fault).
 * Cases come from a seeded generator: a failure names its seed, FUZZ_SEED=<seed> replays it.
 */

const CASES_PER_OPERATION = 60;
const CASES_PER_EXCHANGE = 150;

interface Case extends RawCall {
  label: string;
}

// ---- the inputs -------------------------------------------------------------------------------

/** Characters no single-line field may hold, unpaired surrogate halves included. */
const BAD_CHARACTERS = [
  "\n",
  "\r",
  "\u0000",
  "\u0001",
  "\u0008",
  "\t",
  "\u000b",
  "\u001b",
  "\u001f",
  "\u007f",
  "\u0080",
  "\u0085",
  "\u009f",
  "\u2028",
  "\u2029",
  "\ud800",
  "\udfff",
];
const WRONG_TYPES: unknown[] = [0, -1, 1.5, 1e308, true, false, null, [], ["wishlist"], {}, { value: "wishlist" }];
const JUNK_WORDS = [
  "",
  " ",
  "null",
  "undefined",
  "PRODUCT",
  "Product",
  "products",
  "product ",
  "💖",
  "../../etc/passwd",
  "<script>",
  "' OR 1=1 --",
  "%00",
  "\\u0000",
];
const NOT_A_GID = [
  "",
  "Product/1",
  "gid://shopify/Product/",
  "gid://shopify/Product/1/2",
  "gid://shopify//1",
  "gid://other/Product/1",
  "gid://shopify/Pro duct/1",
  "gid://shopify/Product/1 2",
  "https://shop/products/1",
];
const REJECTED_CONTENT_TYPES = [
  null,
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/jsonp",
  "application/json-patch+json",
  "text/json",
  "json",
  "application/xml",
  "*/*",
];
const INVALID_UTF8 = [
  [0xc3, 0x28],
  [0xff],
  [0xed, 0xa0, 0x80],
  [0xc0, 0xaf],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0xe2, 0x82],
];
const MALFORMED_ESCAPES = ["%", "%z", "%zz", "%C3%28", "%ED%A0%80", "%FF", "%E2%82", "abc%"];

/** A value of a single-line field that breaks one of its rules. */
function badString(random: Random, field: string, valid: string): string {
  const kind = random.int(0, 2);
  if (kind === 0) {
    const at = random.int(0, valid.length);
    return valid.slice(0, at) + random.pick(BAD_CHARACTERS) + valid.slice(at);
  }
  if (kind === 1) return valid + "x".repeat(random.int(256, 20_000));
  if (field === "entityGid") return random.pick(NOT_A_GID);
  if (field === "entityType" || field === "action") return random.pick(JUNK_WORDS);
  if (field === "context") return "";
  return valid + random.pick(BAD_CHARACTERS);
}

/** Object and array values that no snapshot may be: too deep, too wide, too long, not text. */
function badSnapshot(random: Random): unknown {
  switch (random.int(0, 5)) {
    case 0: {
      let value: unknown = "leaf";
      for (let level = random.int(SNAPSHOT_LIMITS.depth, 60); level > 0; level--)
        value = random.chance(0.5) ? [value] : { a: value };
      return { nested: value };
    }
    case 1:
      return Object.fromEntries(
        Array.from({ length: random.int(SNAPSHOT_LIMITS.values + 1, 5_000) }, (_, index) => [`k${index}`, index]),
      );
    case 2:
      return { list: Array.from({ length: random.int(SNAPSHOT_LIMITS.values + 1, 20_000) }, (_, index) => index) };
    case 3:
      return { title: "x".repeat(random.int(SNAPSHOT_LIMITS.stringLength + 1, 100_000)) };
    case 4:
      return { title: `a${random.pick(["\u0000", "\ud800", "\udc00"])}b` };
    default:
      return random.pick(["a string", 42, true, null, ["an", "array"]]);
  }
}

/** The fields a body's schema reads (others are ignored, so breaking them proves nothing). */
const BODY_FIELDS: Record<string, readonly string[]> = {
  save: ["context", "entityType", "entityGid", "source", "snapshot"],
  toggle: ["context", "entityType", "entityGid", "source", "snapshot"],
  remove: ["context", "entityType", "entityGid"],
  batch: ["action", "context", "entityType", "entityGid", "source", "snapshot"],
  "share-create": ["context", "displayName"],
  "share-revoke": ["context"],
  "create-list": ["name", "context"],
  "rename-list": ["context", "name"],
  "delete-list": ["context"],
};

function validBody(operation: OperationName): Record<string, unknown> {
  if (operation === "remove") return anIdentity();
  if (operation === "batch") return { operations: [{ action: "save", ...aSaveRequest() }] };
  if (operation === "share-create") return { context: "wishlist", displayName: "Ana" };
  if (operation === "share-revoke" || operation === "delete-list") return { context: "wishlist" };
  if (operation === "create-list") return { name: "Gifts", context: "gifts" };
  if (operation === "rename-list") return { context: "wishlist", name: "Gifts" };
  return aSaveRequest();
}

/** One field of a valid body broken: a wrong type, a bad string, a bad snapshot, or taken away. */
function brokenBody(random: Random, operation: OperationName): { label: string; value: unknown } {
  const body = validBody(operation);
  const target =
    operation === "batch" ? ((body.operations as Record<string, unknown>[])[0] as Record<string, unknown>) : body;
  const field = random.pick(BODY_FIELDS[operation]!);
  const optional =
    field === "snapshot" ||
    field === "displayName" ||
    (operation === "batch" && field === "source") ||
    (operation === "create-list" && field === "context");
  const kind = random.int(0, optional ? 1 : 2);
  if (field === "snapshot")
    target.snapshot =
      kind === 0 ? badSnapshot(random) : random.pick(WRONG_TYPES.filter((value) => !isPlainObject(value)));
  else if (kind === 0) target[field] = badString(random, field, String(target[field] ?? "label"));
  else if (kind === 1) target[field] = random.pick(WRONG_TYPES);
  else delete target[field];
  return { label: `${field} broken`, value: body };
}

function isPlainObject(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Malformed bodies for a POST operation: each case is wrong in at least one way the edge must catch. */
function bodyCase(random: Random, operation: OperationName): Case {
  const valid = JSON.stringify(validBody(operation));
  switch (random.int(0, 11)) {
    case 0:
      return { label: "random bytes", method: "POST", body: random.bytes(random.int(0, 2_000)) };
    case 1:
      return { label: "truncated JSON", method: "POST", body: valid.slice(0, random.int(0, valid.length - 1)) };
    case 2: {
      const depth = random.int(65, 150_000);
      const open = random.pick(["[", '{"a":', '[{"b":']);
      return {
        label: `nested ${depth} deep`,
        method: "POST",
        body: `{"context":"wishlist","snapshot":${open.repeat(depth)}`,
      };
    }
    case 3: {
      const depth = random.int(65, 150_000);
      return {
        label: `balanced, nested ${depth} deep`,
        method: "POST",
        body: valid.replace(/}$/, `,"snapshot":{"a":${"[".repeat(depth)}${"]".repeat(depth)}}}`),
      };
    }
    case 4:
      if (operation === "batch") {
        const count = random.pick([0, 51, random.int(52, 20_000)]);
        return {
          label: `${count} operations`,
          method: "POST",
          body: JSON.stringify({
            operations: Array.from({ length: count }, () => ({ action: "save", ...aSaveRequest() })),
          }),
        };
      }
      return {
        label: "an array for a body",
        method: "POST",
        body: JSON.stringify(Array.from({ length: random.int(0, 20_000) }, () => validBody(operation))),
      };
    case 5:
      return {
        label: "over 256 KiB",
        method: "POST",
        body: valid.replace(/}$/, `,"pad":"${"x".repeat(random.int(256 * 1024, 400 * 1024))}"}`),
      };
    case 6:
      return {
        label: "a body that lies about its length",
        method: "POST",
        body: valid,
        headers: { "Content-Length": String(random.int(256 * 1024 + 1, 2 ** 40)) },
      };
    case 7: {
      const contentType = random.pick(REJECTED_CONTENT_TYPES);
      return { label: `Content-Type ${contentType}`, method: "POST", body: valid, contentType };
    }
    case 8: {
      const bytes = Buffer.from(valid);
      const at = bytes.indexOf("wishlist") + random.int(0, 8);
      const body = Uint8Array.from(
        Buffer.concat([bytes.subarray(0, at), Buffer.from(random.pick(INVALID_UTF8)), bytes.subarray(at)]),
      );
      return { label: "invalid UTF-8", method: "POST", body };
    }
    case 9:
      return {
        label: "JSON that is not an object",
        method: "POST",
        body: JSON.stringify(random.pick([null, 0, "save", true, [], [validBody(operation)]])),
      };
    case 10:
      return { label: "a byte-order mark before broken JSON", method: "POST", body: `\ufeff${valid.slice(0, -1)}` };
    default: {
      const { label, value } = brokenBody(random, operation);
      return { label, method: "POST", body: JSON.stringify(value) };
    }
  }
}

const QUERY_FIELDS: Record<string, Record<string, string>> = {
  list: { context: "wishlist", limit: "20", cursor: "abc" },
  "is-saved": { context: "wishlist", entityType: "product", entityGid: "gid://shopify/Product/1" },
  "shared-list": { token: "A".repeat(43), limit: "20" },
  lists: { limit: "20", cursor: "abc" },
};
const REQUIRED_QUERY_FIELDS: Record<string, readonly string[]> = {
  list: ["context"],
  "is-saved": ["context", "entityType", "entityGid"],
  "shared-list": ["token"],
  lists: [],
};
const BAD_LIMITS = ["0", "-1", "101", "abc", "1.5", "", "NaN", "Infinity", "1e3", "5\n", "２０"];

const encodeQuery = (fields: [string, string][]) =>
  fields.map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`).join("&");

/** Malformed queries for a GET operation. */
function queryCase(random: Random, operation: OperationName): Case {
  const fields = Object.entries(QUERY_FIELDS[operation]!);
  const field = random.pick(fields.map(([key]) => key));
  const set = (value: string) =>
    fields.map(([key, current]): [string, string] => [key, key === field ? value : current]);
  // An operation without required fields has no "field missing" case.
  switch (random.int(REQUIRED_QUERY_FIELDS[operation]!.length === 0 ? 1 : 0, 5)) {
    case 0: {
      const missing = random.pick(REQUIRED_QUERY_FIELDS[operation]!);
      const junk: [string, string][] = Array.from({ length: random.int(0, 5) }, () => [
        random.text(random.int(1, 8), "abcxyz_"),
        random.text(random.int(0, 20), "abc%20\u00e9"),
      ]);
      return {
        label: `no ${missing}`,
        method: "GET",
        rawQuery: encodeQuery([...fields.filter(([key]) => key !== missing), ...junk]),
      };
    }
    case 1:
      return {
        label: `${field} twice`,
        method: "GET",
        rawQuery: encodeQuery([...fields, [field, random.pick(["wishlist", "other", ""])]]),
      };
    case 2: {
      const escape = random.pick(MALFORMED_ESCAPES);
      return {
        label: `${field} escaped as ${escape}`,
        method: "GET",
        rawQuery: `${encodeQuery(fields.filter(([key]) => key !== field))}&${field}=wish${escape}list`,
      };
    }
    case 3:
      if (field === "limit")
        return { label: "limit out of range", method: "GET", rawQuery: encodeQuery(set(random.pick(BAD_LIMITS))) };
      return {
        label: `${field} too long`,
        method: "GET",
        rawQuery: encodeQuery(set("x".repeat(random.int(1_025, 50_000)))),
      };
    case 4:
      return {
        label: `${field} with a control character`,
        method: "GET",
        rawQuery: encodeQuery(
          set(`wish${random.pick(BAD_CHARACTERS.filter((char) => !/[\ud800-\udfff]/.test(char)))}list`),
        ),
      };
    default: {
      const value =
        field === "entityGid"
          ? random.pick(NOT_A_GID)
          : field === "limit"
            ? random.pick(BAD_LIMITS)
            : field === "context"
              ? ""
              : random.pick(JUNK_WORDS);
      if (field === "cursor" && value !== "")
        return { label: "cursor empty", method: "GET", rawQuery: encodeQuery(set("")) };
      return { label: `${field} = ${JSON.stringify(value)}`, method: "GET", rawQuery: encodeQuery(set(value)) };
    }
  }
}

/** A case for any operation: its body or query broken, or a method it does not take. */
function operationCase(random: Random, operation: OperationName): Case {
  const { method } = OPERATIONS[operation];
  if (random.chance(0.1)) {
    const wrong = random.pick(["PUT", "PATCH", "DELETE", "HEAD", method === "GET" ? "POST" : "GET"]);
    const withBody = !["GET", "HEAD"].includes(wrong);
    return {
      label: `method ${wrong}`,
      method: wrong,
      ...(withBody ? { body: JSON.stringify(validBody(operation)) } : {}),
    };
  }
  return method === "GET" ? queryCase(random, operation) : bodyCase(random, operation);
}

const MODERN = { shop: DEMO_SHOP, customerAccountAccessToken: CUSTOMER.customerAccountAccessToken };
const LEGACY = {
  shop: DEMO_SHOP,
  storefrontCustomerAccessToken: CUSTOMER.storefrontCustomerAccessToken,
  storefrontAccessToken: STOREFRONT_TOKEN,
};
const BAD_SHOPS = [
  "",
  "demo",
  "DEMO.myshopify.com",
  "demo.myshopify.com.",
  "demo.myshopify.com\n",
  "https://demo.myshopify.com",
  "demo.myshopify.com:443",
  "127.0.0.1",
  "localhost",
  "demo.myshopify.com/admin",
  "☃.myshopify.com",
  "a".repeat(300) + ".myshopify.com",
];
const BAD_TOKENS = [
  "",
  " ",
  "cat 1001",
  "cat-1001\n",
  "cat-1001\r\nX-Injected: 1",
  "cat-\u00e91001",
  "cat-1001\u0000",
  "💖",
  "x".repeat(8_193),
];

/** Malformed bodies for the headless exchange: every one is refused before any platform request. */
function headlessExchangeCase(random: Random): Case {
  if (random.chance(0.5)) return { ...bodyCase(random, "save"), label: `exchange: ${bodyCase(random, "save").label}` };
  const base: Record<string, unknown> = { ...(random.chance(0.5) ? MODERN : LEGACY) };
  const field = random.pick(Object.keys(base));
  switch (random.int(0, 4)) {
    case 0:
      base[field] = field === "shop" ? random.pick(BAD_SHOPS) : random.pick(BAD_TOKENS);
      return {
        label: `exchange: ${field} = ${JSON.stringify(base[field]).slice(0, 40)}`,
        method: "POST",
        body: JSON.stringify(base),
      };
    case 1:
      base[field] = random.pick(WRONG_TYPES);
      return { label: `exchange: ${field} of the wrong type`, method: "POST", body: JSON.stringify(base) };
    case 2:
      delete base[field];
      return { label: `exchange: no ${field}`, method: "POST", body: JSON.stringify(base) };
    case 3:
      return {
        label: "exchange: both field sets, or extra fields",
        method: "POST",
        body: JSON.stringify({ ...MODERN, ...(random.chance(0.5) ? LEGACY : { customerId: CUSTOMER.id }) }),
      };
    default:
      return { label: "exchange: wrong method", method: random.pick(["GET", "PUT", "DELETE", "PATCH"]) };
  }
}

/** Customer-account exchange attempts whose session token is missing, forged, or names nothing usable. */
async function customerAccountExchangeCase(random: Random): Promise<Case> {
  const body = random.chance(0.3) ? random.bytes(random.int(0, 500)) : undefined;
  const bearer = (token: string): Case => ({
    label: `session token: ${token.slice(0, 40)}`,
    method: "POST",
    body,
    contentType: null,
    headers: { Authorization: `Bearer ${token}` },
  });
  const latin1 = [
    ...Array.from({ length: 95 }, (_, index) => String.fromCharCode(0x20 + index)),
    ...Array.from({ length: 96 }, (_, index) => String.fromCharCode(0xa0 + index)),
  ];
  switch (random.int(0, 9)) {
    case 0:
      return { label: "no Authorization", method: "POST", body, contentType: null };
    case 1:
      return {
        label: "Authorization junk",
        method: "POST",
        headers: { Authorization: random.text(random.int(1, 300), latin1).trim() || "x" },
      };
    case 2:
      return bearer(
        `${random.text(20, "abcXYZ019-_")}.${random.text(40, "abcXYZ019-_")}.${random.text(20, "abcXYZ019-_")}`,
      );
    case 3:
      return bearer(unsignedToken({ dest: DEMO_SHOP, aud: TEST_ENV.SHOPIFY_API_KEY, sub: CUSTOMER.id }));
    case 4:
      return bearer(await aSessionToken({}, "not-the-app-secret"));
    case 5:
      return bearer(
        await aSessionToken(random.pick([{ aud: "another-app" }, { exp: 1 }, { nbf: 2 ** 40 }, { aud: undefined }])),
      );
    case 6:
      return bearer(
        await aSessionToken({
          dest: random.pick([...BAD_SHOPS, 42, null, ["demo.myshopify.com"], "gone.myshopify.com"]),
        }),
      );
    case 7:
      return bearer(
        await aSessionToken({
          sub: random.pick([
            "",
            null,
            1001,
            "1001",
            "gid://shopify/StaffMember/1",
            "gid://shopify/Customer/abc",
            "gid://shopify/Customer/1\n",
          ]),
        }),
      );
    case 8: {
      // Signed with the app's secret, so the verifier parses it; no JSON encoder would build it.
      const depth = random.int(100, 200_000);
      const claims = `{"dest":"${DEMO_SHOP}","aud":"${TEST_ENV.SHOPIFY_API_KEY}","extra":${"[".repeat(depth)}${"]".repeat(depth)}}`;
      return bearer(hs256Compact(claims, TEST_ENV.SHOPIFY_API_SECRET));
    }
    default:
      return {
        label: "wrong method",
        method: random.pick(["GET", "PUT", "DELETE", "PATCH"]),
        headers: { Authorization: `Bearer ${await aSessionToken()}` },
      };
  }
}

function hs256Compact(claimsJson: string, secret: string): string {
  const signingInput = `${Buffer.from('{"alg":"HS256","typ":"JWT"}').toString("base64url")}.${Buffer.from(claimsJson).toString("base64url")}`;
  return `${signingInput}.${createHmac("sha256", secret).update(signingInput).digest("base64url")}`;
}

// ---- the checks -------------------------------------------------------------------------------

interface Failure {
  label: string;
  problem: string;
}

/** Sends each case and collects every way its answer breaks the rules; the platform must hear nothing. */
async function refusedEverywhere(send: (call: RawCall) => Request, cases: Case[]): Promise<Failure[]> {
  const failures: Failure[] = [];
  for (const call of cases) {
    let problem: string | undefined;
    try {
      const request = send(call);
      problem = await envelopeProblem(await sendToApp(request), request.method);
    } catch (error) {
      problem = `threw ${error instanceof Error ? error.stack : String(error)}`;
    }
    if (!problem && emulator.requests.length) problem = `reached the platform (${emulator.requests.length} requests)`;
    if (problem) failures.push({ label: call.label, problem });
    emulator.clearRequests();
  }
  return failures;
}

async function envelopeProblem(response: Response, method: string): Promise<string | undefined> {
  const text = await response.text();
  if (response.status < 400 || response.status >= 500) return `answered ${response.status}: ${text.slice(0, 200)}`;
  // An answer to HEAD has no body (Remix drops it, as HTTP requires): its status is all there is.
  if (method === "HEAD") return text === "" ? undefined : `answered HEAD with a body: ${text.slice(0, 200)}`;
  let body: { ok?: unknown; error?: { code?: unknown; message?: unknown; retryable?: unknown } };
  try {
    body = JSON.parse(text);
  } catch {
    return `answered ${response.status} with a body that is not JSON: ${text.slice(0, 200)}`;
  }
  const error = body.error;
  const known = typeof error?.code === "string" && error.code in ERROR_CODES;
  if (body.ok !== false || !known || typeof error?.message !== "string" || typeof error.retryable !== "boolean") {
    return `answered ${response.status} with something other than the error envelope: ${text.slice(0, 200)}`;
  }
  const expected = ERROR_CODES[error.code as keyof typeof ERROR_CODES].retryable;
  if (error.retryable !== expected) return `${String(error.code)} says retryable ${String(error.retryable)}`;
  return undefined;
}

function report(name: string, failures: Failure[], total: number): string {
  const shown = failures.slice(0, 8).map((failure) => `  - ${failure.label}: ${failure.problem}`);
  return `${failures.length} of ${total} cases of "${name}" failed (replay with FUZZ_SEED=${FUZZ_SEED}):\n${shown.join("\n")}`;
}

let logged: ReturnType<typeof loggedLines>;
beforeEach(async () => {
  // Refused exchanges are logged on purpose (sampled warnings); checked below for stack traces.
  logged = loggedLines();
  await givenDirectShop({ plan: "scale" });
});
afterEach(() => {
  expect(logged({ level: "error" }), "nothing a client sends is logged as the service's error").toEqual([]);
  const traces = logged({ level: "warn" }).filter((line) => JSON.stringify(line).includes('"stack":'));
  expect(traces, "no stack trace in the warnings").toEqual([]);
  vi.restoreAllMocks();
});

// ---- the targets ------------------------------------------------------------------------------

async function senderFor(channel: Channel, path: string): Promise<(call: RawCall) => Request> {
  if (channel === "online-store") return (call) => rawProxyRequest(path, call);
  const token = await aServiceToken({ channel });
  return (call) => rawDirectRequest(path, { ...call, headers: { Authorization: `Bearer ${token}`, ...call.headers } });
}

describe("malformed input on every operation of every channel is a 4xx, never reaches the platform, never logs an error", () => {
  test.each(CHANNELS.flatMap((channel) => OPERATION_NAMES.map((operation) => [channel, operation] as const)))(
    "%s %s",
    async (channel, operation) => {
      const random = seededRandom(`${channel} ${operation}`);
      const cases = Array.from({ length: CASES_PER_OPERATION }, () => operationCase(random, operation));
      const failures = await refusedEverywhere(await senderFor(channel, operationPath(channel, operation)), cases);
      expect(failures, report(`${channel} ${operation}`, failures, cases.length)).toEqual([]);
    },
  );

  test.each(["headless", "customer-account"] as const)(
    "%s operations with a missing, forged or foreign service token",
    async (channel) => {
      const other = channel === "headless" ? "customer-account" : "headless";
      const tokens = [
        "",
        "Bearer",
        "Basic dXNlcjpwYXNz",
        `Bearer ${await aServiceToken({ channel: other })}`,
        `Bearer ${await signHs256(serviceClaims({ channel }), "another-secret-of-enough-length-0123456789")}`,
        `Bearer ${unsignedToken(serviceClaims({ channel }))}`,
        `Bearer ${await signHs256(serviceClaims({ channel, exp: 1, iat: 0 }))}`,
        `Bearer ${await signHs256(serviceClaims({ channel, shop: "gone.myshopify.com" }))}`,
        `Bearer ${await signHs256(serviceClaims({ channel, sub: "gid://shopify/Customer/1\n" }))}`,
      ];
      const cases = OPERATION_NAMES.flatMap((operation) =>
        tokens.map((authorization): Case & { operation: OperationName } => {
          const { method } = OPERATIONS[operation];
          const valid = method === "GET" ? encodeQuery(Object.entries(QUERY_FIELDS[operation]!)) : undefined;
          return {
            label: `${operation} with "${authorization.slice(0, 30)}"`,
            operation,
            method,
            rawQuery: valid,
            ...(method === "POST" ? { body: JSON.stringify(validBody(operation)) } : {}),
            headers: authorization ? { Authorization: authorization } : {},
          };
        }),
      );
      const failures: Failure[] = [];
      for (const call of cases) {
        failures.push(
          ...(await refusedEverywhere((raw) => rawDirectRequest(operationPath(channel, call.operation), raw), [call])),
        );
      }
      expect(failures, report(`${channel} tokens`, failures, cases.length)).toEqual([]);
    },
  );

  test("online-store operations with a missing, stale or forged proxy signature, or no customer", async () => {
    const now = Math.floor(Date.now() / 1000);
    const cases = OPERATION_NAMES.flatMap((operation) => {
      const { method } = OPERATIONS[operation];
      const body = method === "POST" ? JSON.stringify(validBody(operation)) : undefined;
      const valid = method === "GET" ? `${encodeQuery(Object.entries(QUERY_FIELDS[operation]!))}&` : "";
      const path = operationPath("online-store", operation);
      return [
        `${valid}shop=${DEMO_SHOP}&logged_in_customer_id=1001&path_prefix=%2Fapps%2Fsaved-items&timestamp=${now}`,
        `${valid}shop=${DEMO_SHOP}&logged_in_customer_id=1001&path_prefix=%2Fapps%2Fsaved-items&timestamp=${now}&signature=${"0".repeat(64)}`,
        `${valid}shop=${DEMO_SHOP}&shop=other.myshopify.com&logged_in_customer_id=1001&path_prefix=x&timestamp=${now}&signature=zz`,
      ].map((rawQuery) => ({ label: `${operation}: ${rawQuery.slice(-60)}`, path, method, rawQuery, body }));
    });
    const failures: Failure[] = [];
    for (const { path, ...call } of cases) {
      failures.push(
        ...(await refusedEverywhere(
          (raw) =>
            new Request(`${TEST_ENV.SHOPIFY_APP_URL}${path}?${raw.rawQuery}`, {
              method: raw.method,
              body: raw.body,
              headers: { "Content-Type": "application/json" },
            }),
          [call],
        )),
      );
      // A stale signature and a logged-out shopper, signed properly.
      failures.push(
        ...(await refusedEverywhere(
          (raw) => rawProxyRequest(path, raw, ""),
          [{ ...call, rawQuery: undefined, label: `${call.label} (logged out)` }],
        )),
      );
    }
    expect(failures, report("proxy signatures", failures, cases.length * 2)).toEqual([]);
  });
});

describe("malformed exchanges are a 4xx before any platform request", () => {
  test("POST /api/headless/auth/exchange", async () => {
    const random = seededRandom("headless exchange");
    const cases = Array.from({ length: CASES_PER_EXCHANGE }, () => headlessExchangeCase(random));
    const failures = await refusedEverywhere((call) => rawDirectRequest(EXCHANGE_PATHS.headless, call), cases);
    expect(failures, report("headless exchange", failures, cases.length)).toEqual([]);
  });

  test("POST /api/customer-account/auth/exchange", async () => {
    const random = seededRandom("customer-account exchange");
    const cases: Case[] = [];
    for (let index = 0; index < CASES_PER_EXCHANGE; index++) cases.push(await customerAccountExchangeCase(random));
    const failures = await refusedEverywhere(
      (call) => rawDirectRequest(EXCHANGE_PATHS["customer-account"], call),
      cases,
    );
    expect(failures, report("customer-account exchange", failures, cases.length)).toEqual([]);
  });
});

describe("unusual but valid text is stored and found again, on every channel", () => {
  const ODD_BUT_VALID = [
    "💖 wish list",
    "👩‍👩‍👧 family",
    "e\u0301te\u0301",
    "\u202eevil",
    "a\u00a0b",
    "\ufeffbom",
    "zero\u200bwidth",
    "\uffff",
    "日本語のリスト",
    "Ω".repeat(255),
    "😀".repeat(127),
    "tab-free  spaces",
    'quote"s and \\back\\slashes',
    "<b>html</b>",
    "%00 not a nul",
  ];

  test.each(CHANNELS)("%s", async (channel) => {
    const random = seededRandom(`${channel} odd text`);
    const send = await senderFor(channel, operationPath(channel, "save"));
    const list = await senderFor(channel, operationPath(channel, "list"));
    for (const context of ODD_BUT_VALID) {
      const source = random.pick(ODD_BUT_VALID);
      const saved = await sendToApp(
        send({ method: "POST", body: JSON.stringify(aSaveRequest({ context, source, snapshot: { title: context } })) }),
      );
      expect(saved.status, `save ${JSON.stringify(context)}`).toBe(200);
      const listed = await (
        await sendToApp(list({ method: "GET", rawQuery: encodeQuery([["context", context]]) }))
      ).json();
      expect(
        listed.data?.items?.map((item: { snapshot: unknown }) => item.snapshot),
        `list ${JSON.stringify(context)}`,
      ).toEqual([{ title: context }]);
    }
  });
});
