import { BAD_RESPONSE, NETWORK_ERROR, SavedItemsError } from "./errors";
import type { ErrorBody } from "./wire";

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/**
 * One request to the service. Resolves to `data` of a success envelope; rejects with a
 * SavedItemsError carrying the envelope's code, message and retryable flag and the HTTP status.
 * No answer is NETWORK_ERROR (retryable); an answer that is not the envelope is BAD_RESPONSE,
 * retryable only for a 5xx (a gateway page in front of the app, say).
 */
export async function requestEnvelope(fetch: FetchLike, url: string, init: RequestInit): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new SavedItemsError(NETWORK_ERROR, `The app could not be reached: ${reason}`, 0, true);
  }
  let body: unknown;
  try {
    body = JSON.parse(await response.text());
  } catch {
    body = undefined;
  }
  if (isRecord(body) && body.ok === true && "data" in body) return body.data;
  if (isRecord(body) && body.ok === false && isErrorBody(body.error)) {
    const { code, message, retryable } = body.error;
    throw new SavedItemsError(code, message, response.status, retryable);
  }
  throw new SavedItemsError(
    BAD_RESPONSE,
    `The app answered HTTP ${response.status} without its JSON envelope`,
    response.status,
    response.status >= 500,
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isErrorBody(value: unknown): value is ErrorBody {
  return (
    isRecord(value) &&
    typeof value.code === "string" &&
    typeof value.message === "string" &&
    typeof value.retryable === "boolean"
  );
}
