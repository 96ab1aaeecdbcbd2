// The wire form of every answer (docs/api.md): the only module that spells it, for whoever answers
// (the routes through edge/envelope.server.ts, the document handler, the production server, the
// sandbox's front). Imported by relative path only, so the server's bundle needs no alias.
import { ServiceError } from "./errors";

export const ENVELOPE_HEADERS = { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" };

export function okEnvelope(data: unknown): string {
  return JSON.stringify({ ok: true, data });
}

export function errorEnvelope({
  code,
  message,
  retryable,
}: Pick<ServiceError, "code" | "message" | "retryable">): string {
  return JSON.stringify({ ok: false, error: { code, message, retryable } });
}

/**
 * Any thrown value as the service's error. What is not already one is a failure nobody planned
 * for: the client learns only that, and the value stays the cause, for the log.
 */
export function asServiceError(error: unknown): ServiceError {
  return error instanceof ServiceError
    ? error
    : new ServiceError("INTERNAL_ERROR", "Unexpected failure", { cause: error });
}
