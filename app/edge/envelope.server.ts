import { asServiceError, ENVELOPE_HEADERS, errorEnvelope, okEnvelope } from "~/lib/envelope";
import { ServiceError } from "~/lib/errors";
import { errorFields, redactSecrets, writeLog } from "~/lib/json-log";
import { annotateRequest } from "~/lib/request-context.server";

/**
 * An envelope with its length stated: the server's compression leaves a body under its 1 KiB
 * threshold alone, which gzip would only make larger at the cost of a zlib stream (docs/scaling.md,
 * "Clients that accept gzip"), and the answer goes out in one piece rather than chunked.
 */
function envelopeResponse(body: string, status: number, extraHeaders?: Record<string, string>): Response {
  return new Response(body, {
    status,
    headers: { ...ENVELOPE_HEADERS, ...extraHeaders, "Content-Length": String(Buffer.byteLength(body)) },
  });
}

export function okResponse(data: unknown): Response {
  return envelopeResponse(okEnvelope(data), 200);
}

/**
 * Any thrown value as the error envelope, for the routes; unknown failures are logged, never
 * leaked. Their causes (a platform error's text, a library's exception) can hold a token or a
 * signed URL, so the line goes through the JSON log's redaction like every other.
 */
export function errorResponse(error: unknown): Response {
  const serviceError = asServiceError(error);
  if (serviceError.code === "INTERNAL_ERROR" || serviceError.code === "PLATFORM_UPSTREAM_ERROR") {
    writeLog("error", "request failed", {
      code: serviceError.code,
      message: redactSecrets(serviceError.message),
      ...(serviceError.cause === undefined ? {} : { cause: errorFields(serviceError.cause) }),
    });
  }
  const { code, status, retryAfterSeconds, allow } = serviceError;
  annotateRequest({ code });
  return envelopeResponse(errorEnvelope(serviceError), status, {
    ...(retryAfterSeconds === undefined ? {} : { "Retry-After": String(retryAfterSeconds) }),
    ...(allow === undefined ? {} : { Allow: allow }),
  });
}

export function methodNotAllowed(allowed: string): ServiceError {
  return new ServiceError("VALIDATION_ERROR", `Method not allowed; use ${allowed}`, { status: 405, allow: allowed });
}
