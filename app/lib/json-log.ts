// One JSON object per line on stdout: the access log, errors and lifecycle events of the server and
// the app share this shape ({t, level, msg, ...fields}). Pure, with no state, so the HTTP server
// (server/) may bundle its own copy of it without the two drifting.

export type LogLevel = "debug" | "info" | "warn" | "error";

export type LogFields = Record<string, unknown>;

/** The line for one event; values that are undefined are left out. */
export function formatLogLine(level: LogLevel, msg: string, fields: LogFields = {}): string {
  return `${JSON.stringify({ t: new Date().toISOString(), level, msg, ...fields })}\n`;
}

export function writeLog(level: LogLevel, msg: string, fields: LogFields = {}): void {
  process.stdout.write(formatLogLine(level, msg, fields));
}

const URL_QUERY = /(\bhttps?:\/\/[^\s?#"'<>]*|(?<![\w.-])\/[\w./%~:@-]*)\?[^\s"'<>]*/gi;
const SECRET_PARAMETER =
  /\b(signature|hmac|id_token|session|token|access_token|refresh_token|code|state|timestamp|password|secret)=[^&\s"'<>]*/gi;
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi;
const PLATFORM_TOKEN = /\b(shpat|shprt|shpca|shppa|shpss)_[A-Za-z0-9_]+/g;
const JWT = /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g;

/**
 * Free text (an error's message or stack) with what could be a credential taken out: query strings
 * of URLs and paths (signed proxy URLs, the admin's id_token), secret-looking parameters, bearer
 * and basic credentials, the platform's access tokens and JWTs.
 */
export function redactSecrets(text: string): string {
  return text
    .replace(URL_QUERY, "$1?[redacted]")
    .replace(SECRET_PARAMETER, "$1=[redacted]")
    .replace(BEARER, "$1 [redacted]")
    .replace(PLATFORM_TOKEN, "$1_[redacted]")
    .replace(JWT, "[redacted-jwt]");
}

/** An error as log fields: name, message and stack, redacted; causes follow to a bounded depth. */
export function errorFields(error: unknown, depth = 0): LogFields {
  if (!(error instanceof Error)) return { message: redactSecrets(String(error)).slice(0, 2000) };
  const fields: LogFields = {
    name: error.name,
    message: redactSecrets(error.message).slice(0, 2000),
    stack: error.stack ? redactSecrets(error.stack).slice(0, 8000) : undefined,
  };
  if (error.cause !== undefined && depth < 3) fields.cause = errorFields(error.cause, depth + 1);
  return fields;
}
