import { writeLog } from "~/lib/json-log";
import { PLATFORM_TIMEOUT_MS, platformFetch } from "./platform-fetch.server";

/** Why an identity lookup failed; the exchange turns every kind into its one 401 code. */
export class IdentityLookupError extends Error {
  constructor(
    message: string,
    readonly upstreamStatus?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "IdentityLookupError";
  }
}

export interface PlatformJsonAnswer {
  body: unknown;
  /** For what the platform says about the answer itself, such as how long it may be reused. */
  headers: Headers;
}

/**
 * One JSON request to the platform, bounded in time (Hydrogen uses the same bound for identity
 * lookups). Resolves to the parsed body and the headers of a 2xx answer; network errors,
 * timeouts, other statuses and non-JSON bodies reject with IdentityLookupError.
 */
export async function fetchPlatformJson(url: string, init: RequestInit = {}): Promise<PlatformJsonAnswer> {
  let response: Response;
  try {
    response = await platformFetch(url, { ...init, redirect: "error" });
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === "TimeoutError";
    const reason = timedOut ? `did not answer within ${PLATFORM_TIMEOUT_MS} ms` : "could not be reached";
    throw new IdentityLookupError(`${url} ${reason}`, undefined, { cause: error });
  }
  if (!response.ok) {
    // Drained, not cancelled: either releases the connection, but cancel() on a body msw produced never settles.
    await response.arrayBuffer().catch(() => undefined);
    throw new IdentityLookupError(`${url} answered HTTP ${response.status}`, response.status);
  }
  try {
    return { body: await response.json(), headers: response.headers };
  } catch (error) {
    throw new IdentityLookupError(`${url} answered with a body that is not JSON`, response.status, { cause: error });
  }
}

/** Failures the caller's token explains (401/403) are routine; anything else is worth a log line. */
export function logUnexpectedLookupFailure(shop: string, error: unknown): void {
  const status = error instanceof IdentityLookupError ? error.upstreamStatus : undefined;
  if (status === 401 || status === 403) return;
  writeLog(
    "warn",
    `[saved-items] identity lookup for ${shop} failed: ${error instanceof Error ? error.message : String(error)}`,
  );
}
