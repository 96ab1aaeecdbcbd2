/**
 * What a customer-account UI extension (a browser on another origin) needs to read our answers.
 * The platform library sets no Allow-Methods and omits the headers on the responses it throws,
 * so this namespace adds them itself to every response, errors and preflights included.
 * Bearer tokens, not cookies, carry identity, so a wildcard origin grants nothing extra.
 */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Headers": "Authorization, Content-Type",
  "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
  "Access-Control-Max-Age": "7200",
  // Not a CORS-safelisted response header: without this the extension cannot read how long to wait.
  "Access-Control-Expose-Headers": "Retry-After",
};

/** The same response with the CORS headers set (a copy, since thrown Responses may be immutable). */
export function withCors(response: Response): Response {
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(CORS_HEADERS)) headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** The answer to a CORS preflight (OPTIONS), sent before any authentication. */
export function preflightResponse(): Response {
  return new Response(null, { status: 204, headers: CORS_HEADERS });
}
