import { ServiceError } from "~/lib/errors";
import { annotateRequest } from "~/lib/request-context.server";

const JSON_HEADERS = { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" };

export function okResponse(data: unknown): Response {
  return new Response(JSON.stringify({ ok: true, data }), { status: 200, headers: JSON_HEADERS });
}

/** The one place any thrown value becomes the error envelope; unknown failures are logged, never leaked. */
export function errorResponse(error: unknown): Response {
  const serviceError =
    error instanceof ServiceError ? error : new ServiceError("INTERNAL_ERROR", "Unexpected failure", { cause: error });
  if (serviceError.code === "INTERNAL_ERROR" || serviceError.code === "PLATFORM_UPSTREAM_ERROR") {
    console.error(`[saved-items] ${serviceError.code}: ${serviceError.message}`, serviceError.cause ?? "");
  }
  const { code, message, retryable, status, retryAfterSeconds } = serviceError;
  annotateRequest({ code });
  return new Response(JSON.stringify({ ok: false, error: { code, message, retryable } }), {
    status,
    headers:
      retryAfterSeconds === undefined ? JSON_HEADERS : { ...JSON_HEADERS, "Retry-After": String(retryAfterSeconds) },
  });
}

export function methodNotAllowed(allowed: string): ServiceError {
  return new ServiceError("VALIDATION_ERROR", `Method not allowed; use ${allowed}`, { status: 405 });
}
