/**
 * Every failure the extension's data layer reports: the service's own error envelope
 * (code, message, retryable, with the HTTP status), or one of the client-side codes below.
 */
export class SavedItemsError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** The HTTP status; 0 when no answer arrived. */
    readonly status: number,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = "SavedItemsError";
  }
}

/** No answer at all (offline, DNS, CORS refusal): waiting can help, so it is retryable. */
export const NETWORK_ERROR = "NETWORK_ERROR";
/** An answer that is not the service's envelope (a proxy's HTML page, a cut-off body). */
export const BAD_RESPONSE = "BAD_RESPONSE";
/** The bundle was built without SAVED_ITEMS_APP_URL. */
export const APP_URL_NOT_CONFIGURED = "APP_URL_NOT_CONFIGURED";
/** The service token has expired; the one 4xx the client recovers from (by exchanging again). */
export const TOKEN_EXPIRED = "TOKEN_EXPIRED";

export function isSavedItemsError(error: unknown): error is SavedItemsError {
  return error instanceof SavedItemsError;
}

export function toSavedItemsError(error: unknown): SavedItemsError {
  if (isSavedItemsError(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new SavedItemsError(BAD_RESPONSE, message, 0, false);
}
