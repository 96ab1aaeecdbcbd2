// The answers the server gives itself, in the app's error envelope, before or instead of the app.
import type { ServerResponse } from "node:http";
import { ENVELOPE_HEADERS, errorEnvelope } from "../app/lib/envelope";
import { ServiceError, type ErrorCode } from "../app/lib/errors";
import type { RequestState } from "./request-state";

export function envelope(code: ErrorCode, message: string): string {
  return errorEnvelope(new ServiceError(code, message));
}

export function refuseSignature(res: ServerResponse, message: string): void {
  const body = envelope("AUTH_REQUIRED", message);
  res.writeHead(401, { ...ENVELOPE_HEADERS, "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}

export function refuseBody(res: ServerResponse, state: RequestState): void {
  if (res.headersSent) return;
  const body = envelope("VALIDATION_ERROR", `Body is larger than ${state.maxBodyBytes} bytes`);
  res.writeHead(413, { ...ENVELOPE_HEADERS, "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}
