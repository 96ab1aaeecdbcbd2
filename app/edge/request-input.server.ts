import type { z } from "zod";
import { ServiceError } from "~/lib/errors";

/** Large enough for a batch of 50 with full snapshots, small enough that no body can exhaust memory. */
export const MAX_BODY_BYTES = 256 * 1024;

export async function parseJsonBody<Schema extends z.ZodType>(request: Request, schema: Schema): Promise<z.infer<Schema>> {
  // A JSON content type makes a cross-site form post impossible without a CORS preflight,
  // which the storefront proxy never grants.
  const contentType = request.headers.get("Content-Type") ?? "";
  if (!/^application\/json\s*(;|$)/i.test(contentType)) {
    throw new ServiceError("VALIDATION_ERROR", "Content-Type must be application/json", { status: 415 });
  }
  const text = await readBodyText(request);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ServiceError("VALIDATION_ERROR", "Body is not valid JSON");
  }
  return parseWith(schema, body);
}

export function parseQuery<Schema extends z.ZodType>(request: Request, schema: Schema): z.infer<Schema> {
  const params = new URL(request.url).searchParams;
  const query: Record<string, string> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    query[key] = values[0]!;
    if (values.length > 1 && isSchemaKey(schema, key)) {
      throw new ServiceError("VALIDATION_ERROR", `${key}: must be given once`);
    }
  }
  return parseWith(schema, query);
}

function isSchemaKey(schema: z.ZodType, key: string): boolean {
  const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape;
  return Boolean(shape && key in shape);
}

function parseWith<Schema extends z.ZodType>(schema: Schema, value: unknown): z.infer<Schema> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const message = result.error.issues
    .map((issue) => `${issue.path.length ? issue.path.join(".") : "body"}: ${issue.message}`)
    .join("; ");
  throw new ServiceError("VALIDATION_ERROR", message);
}

async function readBodyText(request: Request): Promise<string> {
  const declared = Number(request.headers.get("Content-Length") ?? 0);
  if (declared > MAX_BODY_BYTES) throw bodyTooLarge();
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw bodyTooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function bodyTooLarge(): ServiceError {
  return new ServiceError("VALIDATION_ERROR", `Body is larger than ${MAX_BODY_BYTES} bytes`, { status: 413 });
}
