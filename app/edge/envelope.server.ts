import { asServiceError, ENVELOPE_HEADERS, errorEnvelope, okEnvelope } from "~/lib/envelope";
import { DEPENDENCY_RETRY_AFTER_SECONDS, dependencyOf } from "~/lib/dependencies";
import { ServiceError } from "~/lib/errors";
import { errorFields, redactSecrets, writeLog } from "~/lib/json-log";
import { annotateRequest } from "~/lib/request-context.server";

/** An answer in the envelope, before it is a Response: what the server's fast path writes as it is. */
export interface EnvelopeAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * An envelope with its length stated: the server's compression leaves a body under its 1 KiB
 * threshold alone, which gzip would only make larger at the cost of a zlib stream (docs/scaling.md,
 * "Clients that accept gzip"), and the answer goes out in one piece rather than chunked.
 */
function envelopeAnswer(body: string, status: number, extraHeaders?: Record<string, string>): EnvelopeAnswer {
  return {
    status,
    headers: { ...ENVELOPE_HEADERS, ...extraHeaders, "Content-Length": String(Buffer.byteLength(body)) },
    body,
  };
}

export const toResponse = ({ status, headers, body }: EnvelopeAnswer): Response =>
  new Response(body, { status, headers });

export function okAnswer(data: unknown): EnvelopeAnswer {
  return envelopeAnswer(okEnvelope(data), 200);
}

export function okResponse(data: unknown): Response {
  return toResponse(okAnswer(data));
}

/**
 * Any thrown value as the error envelope, for the routes; unknown failures are logged, never
 * leaked. Their causes (a platform error's text, a library's exception) can hold a token or a
 * signed URL, so the line goes through the JSON log's redaction like every other.
 */
export function errorAnswer(error: unknown): EnvelopeAnswer {
  const serviceError = asServiceError(error);
  let { retryAfterSeconds } = serviceError;
  if (serviceError.code === "INTERNAL_ERROR" || serviceError.code === "PLATFORM_UPSTREAM_ERROR") {
    // Refused because a dependency is away: the answer says when a retry can help, the log says which.
    const dependency = dependencyOf(serviceError.cause, serviceError.code);
    if (dependency) retryAfterSeconds ??= DEPENDENCY_RETRY_AFTER_SECONDS[dependency];
    writeLog("error", "request failed", {
      code: serviceError.code,
      message: redactSecrets(serviceError.message),
      ...(dependency ? { dependency } : {}),
      ...(serviceError.cause === undefined ? {} : { cause: errorFields(serviceError.cause) }),
    });
  }
  const { code, status, allow } = serviceError;
  annotateRequest({ code });
  return envelopeAnswer(errorEnvelope(serviceError), status, {
    ...(retryAfterSeconds === undefined ? {} : { "Retry-After": String(retryAfterSeconds) }),
    ...(allow === undefined ? {} : { Allow: allow }),
  });
}

export function errorResponse(error: unknown): Response {
  return toResponse(errorAnswer(error));
}

export function methodNotAllowed(allowed: string): ServiceError {
  return new ServiceError("VALIDATION_ERROR", `Method not allowed; use ${allowed}`, { status: 405, allow: allowed });
}
