import type { AppLoadContext } from "@remix-run/node";
import type { z } from "zod";
import { ServiceError } from "~/lib/errors";
import { isSingleLineText, SINGLE_LINE_MESSAGE } from "~/services/saved-items/schemas";

/** Large enough for a batch of 50 with full snapshots, small enough that no body can exhaust memory. */
export const MAX_BODY_BYTES = 256 * 1024;

/**
 * No request shape nests deeper than a few levels (a snapshot at most 8 inside a batch). Refused
 * before JSON.parse, so nothing that walks a parsed body recursively can overflow the stack.
 */
export const MAX_BODY_DEPTH = 64;

/** A client that sent hundreds of wrong fields learns enough from the first few. */
const MAX_REPORTED_ISSUES = 10;

export async function parseJsonBody<Schema extends z.ZodType>(
  request: Request,
  schema: Schema,
): Promise<z.infer<Schema>> {
  // A JSON content type makes a cross-site form post impossible without a CORS preflight,
  // which the storefront proxy never grants.
  const contentType = request.headers.get("Content-Type") ?? "";
  if (!/^application\/json\s*(;|$)/i.test(contentType)) {
    throw new ServiceError("VALIDATION_ERROR", "Content-Type must be application/json", { status: 415 });
  }
  const text = await readBodyText(request);
  if (nestsDeeperThan(text, MAX_BODY_DEPTH)) {
    throw new ServiceError("VALIDATION_ERROR", `body: nested too deeply (at most ${MAX_BODY_DEPTH} levels)`);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ServiceError("VALIDATION_ERROR", "Body is not valid JSON");
  }
  return parseWith(schema, body);
}

const parsedUrls = new WeakMap<Request, URL>();

/**
 * The request's URL as the client sent it (the load context's, when the server gave one), parsed
 * once however many steps read it (the front door, then the query).
 */
export function requestUrl(request: Request, context: AppLoadContext | undefined): URL {
  let url = parsedUrls.get(request);
  if (!url) parsedUrls.set(request, (url = new URL(context?.requestUrl ?? request.url)));
  return url;
}

export function parseQuery<Schema extends z.ZodType>(
  request: Request,
  context: AppLoadContext | undefined,
  schema: Schema,
): z.infer<Schema> {
  return parseQueryOf(requestUrl(request, context), schema);
}

/** A GET operation's input from its URL's query: each parameter the schema takes, once, on one line. */
export function parseQueryOf<Schema extends z.ZodType>(url: URL, schema: Schema): z.infer<Schema> {
  assertQueryEncoding(url.search);
  const params = url.searchParams;
  const query: Record<string, string> = {};
  for (const key of new Set(params.keys())) {
    // Parameters the route does not take (the platform's own proxy parameters among them) are ignored.
    if (!isSchemaKey(schema, key)) continue;
    const [value, ...repeated] = params.getAll(key);
    if (repeated.length) throw new ServiceError("VALIDATION_ERROR", `${key}: must be given once`);
    // Checked here for every parameter, numbers included: coercion would read "5\n" as 5.
    if (!isSingleLineText(value!)) throw new ServiceError("VALIDATION_ERROR", `${key}: ${SINGLE_LINE_MESSAGE}`);
    query[key] = value!;
  }
  return parseWith(schema, query);
}

/** A form post's fields (the embedded admin's fetcher submissions), checked like a JSON body. */
export async function parseFormBody<Schema extends z.ZodType>(
  request: Request,
  schema: Schema,
): Promise<z.infer<Schema>> {
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw new ServiceError("VALIDATION_ERROR", "Body is not a form");
  }
  return parseWith(schema, Object.fromEntries([...form].filter(([, value]) => typeof value === "string")));
}

/**
 * The client's network address, as the production server puts it in the Remix load context.
 * Loaders called without one (tests, tools) share the address "unknown".
 */
export function clientAddressInContext(context: unknown): string {
  const address = (context as { clientAddress?: unknown } | undefined)?.clientAddress;
  return typeof address === "string" && address ? address : "unknown";
}

/**
 * The shopper's address on a request the platform's app proxy signed: what the proxy reported in
 * X-Forwarded-For, one hop beyond the server's trusted proxies (behind the proxy every shopper
 * would otherwise share the platform's few addresses). Only for requests whose signature holds.
 */
export function proxiedClientAddressInContext(context: unknown): string {
  const address = (context as { proxiedClientAddress?: unknown } | undefined)?.proxiedClientAddress;
  return typeof address === "string" && address ? address : clientAddressInContext(context);
}

/**
 * URLSearchParams reads malformed percent-encoding ("%zz", or escaped bytes that are not UTF-8)
 * as literal text or U+FFFD without a word; the client meant something else, so it is refused,
 * as a body that is not UTF-8 is. One decode of the whole query judges every parameter: an
 * escape sequence never spans a "&", and only "%" can make a decode fail.
 */
function assertQueryEncoding(search: string): void {
  if (!search.includes("%")) return;
  try {
    decodeURIComponent(search.slice(1));
  } catch {
    throw new ServiceError("VALIDATION_ERROR", "query: not valid percent-encoded UTF-8");
  }
}

function isSchemaKey(schema: z.ZodType, key: string): boolean {
  const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape;
  return Boolean(shape && Object.hasOwn(shape, key));
}

function parseWith<Schema extends z.ZodType>(schema: Schema, value: unknown): z.infer<Schema> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const { issues } = result.error;
  const named = issues
    .slice(0, MAX_REPORTED_ISSUES)
    .map((issue) => `${issue.path.length ? issue.path.join(".") : "body"}: ${issue.message}`);
  if (issues.length > MAX_REPORTED_ISSUES) named.push(`and ${issues.length - MAX_REPORTED_ISSUES} more`);
  throw new ServiceError("VALIDATION_ERROR", named.join("; "));
}

/**
 * Whether JSON text opens more than `limit` arrays or objects at once. One pass with no recursion
 * and no allocation; brackets inside strings (escapes included) do not count. Text that is not
 * JSON gets some answer here and is refused by JSON.parse either way.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === 0x5c /* \ */) index++;
      else if (char === 0x22 /* " */) inString = false;
    } else if (char === 0x22) {
      inString = true;
    } else if (char === 0x5b /* [ */ || char === 0x7b /* { */) {
      if (++depth > limit) return true;
    } else if (char === 0x5d /* ] */ || char === 0x7d /* } */) {
      depth--;
    }
  }
  return false;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The body as UTF-8 text, refused (413) once it passes `maxBytes`: read chunk by chunk, never
 * buffered whole, whatever Content-Length claims.
 */
export async function readBodyText(request: Request, maxBytes = MAX_BODY_BYTES): Promise<string> {
  const declared = Number(request.headers.get("Content-Length") ?? 0);
  if (declared > maxBytes) throw bodyTooLarge(maxBytes);
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw bodyTooLarge(maxBytes);
    }
    chunks.push(value);
  }
  // JSON is UTF-8 (RFC 8259); decoding leniently would turn invalid bytes into U+FFFD silently.
  try {
    return utf8.decode(Buffer.concat(chunks));
  } catch {
    throw new ServiceError("VALIDATION_ERROR", "Body is not valid UTF-8");
  }
}

function bodyTooLarge(maxBytes: number): ServiceError {
  return new ServiceError("VALIDATION_ERROR", `Body is larger than ${maxBytes} bytes`, { status: 413 });
}
