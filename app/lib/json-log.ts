// One JSON object per line on stdout: the access log, errors and lifecycle events of the server and
// the app share this shape ({t, level, msg, ...fields}). Pure, with no state, so the HTTP server
// (server/) may bundle its own copy of it without the two drifting.

export type LogLevel = "debug" | "info" | "warn" | "error";

export type LogFields = Record<string, unknown>;

/** The line for one event; values that are undefined are left out. */
export function formatLogLine(level: LogLevel, msg: string, fields: LogFields = {}): string {
  return formatOwnLine({ t: new Date().toISOString(), level, msg, ...fields });
}

/** A line's object with its own t, level and msg first. */
export interface LogLine extends LogFields {
  t: string;
  level: LogLevel;
  msg: string;
}

/**
 * The line of an object built for it alone (the access log's, one per request): written as it is,
 * where formatLogLine copies the fields into a new object.
 */
export function formatOwnLine(line: LogLine): string {
  return `${JSON.stringify(line)}\n`;
}

export function writeLog(level: LogLevel, msg: string, fields: LogFields = {}): void {
  process.stdout.write(formatLogLine(level, msg, fields));
}

const SECRET_PARAMETER =
  /\b(signature|hmac|id_token|session|token|access_token|refresh_token|code|state|timestamp|password|secret)=[^&\s"'<>]*/gi;
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi;
const PLATFORM_TOKEN = /\b(shpat|shprt|shpca|shppa|shpss)_[A-Za-z0-9_]+/g;
/** Runs of the characters a JWT (or a share token) is made of; each is judged whole, in one pass. */
const TOKEN_RUN = /[A-Za-z0-9_.-]+/g;
/** A share link's path (/shared/<43 base64url characters>, docs/reach.md): the token opens the list. */
const SHARE_TOKEN_PATH = /\/shared\/[A-Za-z0-9_-]{43}/g;

/**
 * Free text (an error's message or stack) with what could be a credential taken out: query strings
 * of URLs and paths (signed proxy URLs, the admin's id_token), secret-looking parameters, bearer
 * and basic credentials, the platform's access tokens, JWTs and share tokens. Every step is linear
 * in the text: the text often holds a URL a client chose, and a pattern that backtracks over it
 * (a path of 15,000 slashes took 193 ms) would let any request stall the event loop.
 */
export function redactSecrets(text: string): string {
  return redactQueries(text)
    .replace(SECRET_PARAMETER, "$1=[redacted]")
    .replace(BEARER, "$1 [redacted]")
    .replace(PLATFORM_TOKEN, "$1_[redacted]")
    .replace(TOKEN_RUN, redactJwt)
    .replace(SHARE_TOKEN_PATH, "/shared/[redacted]");
}

/** Whitespace, quotes and angle brackets end a URL or path in free text. */
const endsWord = (char: number) => char <= 0x20 || char === 0x22 || char === 0x27 || char === 0x3c || char === 0x3e;

/**
 * The query string of every word that has a "/" before its "?" (a URL or a path), replaced by
 * "[redacted]": one scan, each character looked at once or twice.
 */
function redactQueries(text: string): string {
  let result = "";
  let copiedUpTo = 0;
  let sawSlash = false;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (endsWord(char)) sawSlash = false;
    else if (char === 0x2f /* / */) sawSlash = true;
    else if (char === 0x3f /* ? */ && sawSlash) {
      let end = index + 1;
      while (end < text.length && !endsWord(text.charCodeAt(end))) end++;
      result += `${text.slice(copiedUpTo, index)}?[redacted]`;
      copiedUpTo = end;
      index = end - 1;
      sawSlash = false;
    }
  }
  return copiedUpTo === 0 ? text : result + text.slice(copiedUpTo);
}

/** A run from a JWT's start ("eyJ" not inside a word) on, when it has the JWT's three parts. */
function redactJwt(run: string): string {
  let start = run.indexOf("eyJ");
  while (start > 0 && /\w/.test(run[start - 1]!)) start = run.indexOf("eyJ", start + 1);
  if (start === -1) return run;
  const [header = "", payload = "", signature] = run.slice(start).split(".", 3);
  return header.length >= 8 && payload.length >= 5 && signature !== undefined
    ? `${run.slice(0, start)}[redacted-jwt]`
    : run;
}

/** Longer free text is cut to this much before it is redacted, so the work per log line is bounded. */
const MAX_REDACTED_INPUT = 32_000;

const redactedPrefix = (text: string, length: number) =>
  redactSecrets(text.slice(0, MAX_REDACTED_INPUT)).slice(0, length);

/** An error as log fields: name, message and stack, redacted; causes follow to a bounded depth. */
export function errorFields(error: unknown, depth = 0): LogFields {
  if (!(error instanceof Error)) return { message: redactedPrefix(String(error), 2000) };
  const fields: LogFields = {
    name: error.name,
    message: redactedPrefix(error.message, 2000),
    stack: error.stack ? redactedPrefix(error.stack, 8000) : undefined,
  };
  if (error.cause !== undefined && depth < 3) fields.cause = errorFields(error.cause, depth + 1);
  return fields;
}
