import type { components } from "./generated/openapi.js";

/** Every code the service's error envelope can carry on the direct channels, from the OpenAPI document. */
export type ServiceErrorCode = components["schemas"]["ErrorEnvelope"]["error"]["code"];

export type ClientErrorCode = typeof NETWORK_ERROR | typeof BAD_RESPONSE | typeof REDIRECT_REFUSED;

/**
 * The codes a SavedItemsError carries. Open-ended (`string & {}` keeps the known ones suggested):
 * the service may add a code before a client is rebuilt, and a caller must still get an error
 * it can read, with `retryable` telling it what to do.
 */
export type SavedItemsErrorCode = ServiceErrorCode | ClientErrorCode | (string & {});

/**
 * Every failure a Saved Items client reports: the service's own error envelope (code, message,
 * retryable, with the HTTP status), or one of the client-side codes below.
 */
export class SavedItemsError extends Error {
  constructor(
    readonly code: SavedItemsErrorCode,
    message: string,
    /** The HTTP status; 0 when no answer arrived. */
    readonly status: number,
    readonly retryable: boolean,
    /** From the answer's Retry-After header: how long the service asked us to wait. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = "SavedItemsError";
  }
}

/** No answer at all (offline, DNS, CORS refusal): waiting can help, so it is retryable. */
export const NETWORK_ERROR = "NETWORK_ERROR";
/** An answer that is not the service's envelope (a proxy's HTML page, a cut-off body). */
export const BAD_RESPONSE = "BAD_RESPONSE";
/**
 * The base URL answered with a redirect. It is never followed: the exchange's body carries the
 * customer's platform token, which a redirect (307, 308) would send on to wherever it points.
 */
export const REDIRECT_REFUSED = "REDIRECT_REFUSED";

export function toSavedItemsError(error: unknown): SavedItemsError {
  if (error instanceof SavedItemsError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new SavedItemsError(BAD_RESPONSE, message, 0, false);
}
