import { BAD_RESPONSE, NETWORK_ERROR, REDIRECT_REFUSED, SavedItemsError } from "./errors.js";

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/**
 * One request to the service. Resolves to `data` of a success envelope; rejects with a
 * SavedItemsError carrying the envelope's code, message and retryable flag, the HTTP status and
 * the Retry-After wait. No answer is NETWORK_ERROR (retryable); an answer that is not the
 * envelope is BAD_RESPONSE, retryable only for a 5xx: it comes from something in front of the
 * service (a gateway page), so the service itself was not reached, as with no answer. A redirect
 * is not followed but refused (REDIRECT_REFUSED, not retryable): the service never redirects, and
 * what a request carries (a token, the customer's platform token) must not go elsewhere.
 */
export async function requestEnvelope(fetch: FetchLike, url: string, init: RequestInit): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: "manual" });
  } catch (error) {
    throw new SavedItemsError(NETWORK_ERROR, `No answer: ${error}`, 0, true);
  }
  // A browser shows a manual redirect as an opaque answer (status 0), node as the 3xx itself.
  if (response.type === "opaqueredirect" || (response.status >= 300 && response.status < 400)) {
    await response.body?.cancel();
    throw new SavedItemsError(
      REDIRECT_REFUSED,
      `${url} answered a redirect, which is not followed`,
      response.status,
      false,
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(await response.text());
  } catch {
    // Not JSON: reported below as BAD_RESPONSE.
  }
  if (isRecord(body) && body.ok === true && "data" in body) return body.data;
  const status = response.status;
  const retryAfterMs = parseRetryAfter(response.headers.get("Retry-After"), Date.now());
  const error = isRecord(body) && body.ok === false ? body.error : undefined;
  if (isRecord(error) && typeof error.code === "string" && typeof error.retryable === "boolean") {
    throw new SavedItemsError(error.code, String(error.message), status, error.retryable, retryAfterMs);
  }
  throw new SavedItemsError(BAD_RESPONSE, `HTTP ${status} without the envelope`, status, status >= 500, retryAfterMs);
}

/** Retry-After in delay-seconds or as an HTTP date, in milliseconds from `now`; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  const text = (value || "").trim();
  // An HTTP date names its weekday; anything else that is not a whole number is unreadable.
  const at = /^\d+$/.test(text) ? now + Number(text) * 1000 : /[a-z]/i.test(text) ? Date.parse(text) : NaN;
  return at >= 0 ? Math.max(0, at - now) : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}
