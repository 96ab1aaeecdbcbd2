import { createHash, randomUUID } from "node:crypto";

const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** The caller's X-Request-Id when it is a short safe token (letters, digits, . _ -; at most 64), else a new one. */
export function requestIdFrom(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && SAFE_REQUEST_ID.test(value) ? value : randomUUID();
}

/** ::ffff:127.0.0.1 → 127.0.0.1, so one client has one address however it connected. */
export function normaliseAddress(address: string | undefined): string | undefined {
  if (!address) return undefined;
  return address.startsWith("::ffff:") && address.includes(".") ? address.slice(7) : address;
}

/** The shared page's route: its last segment is a share token, which opens a list (docs/reach.md). */
const SHARED_PAGE_ROUTE = "/proxy/shared/:token";
const SHARED_PAGE_PREFIX = "/proxy/shared/";

/**
 * A request's path as the log keeps it: at most 256 characters, token-shaped segments hashed
 * (redactedSegment), and a share token replaced by the first 8 hex digits of its sha256
 * (`/proxy/shared/h:1a2b3c4d`), the hash the list stores, so a line can be matched to a list
 * without the log ever holding a link that opens it. Judged on the route as matched (encoded paths
 * included) and on the prefix (a path Remix would not match).
 */
export function loggedPath(path: string, route: string | undefined): string {
  if (route !== SHARED_PAGE_ROUTE && !path.toLowerCase().startsWith(SHARED_PAGE_PREFIX)) {
    // Redacted before it is cut: a token cut short no longer looks like one.
    return path.split("/").map(redactedSegment).join("/").slice(0, 256);
  }
  const segment = path.split("/").filter(Boolean).slice(2).join("/");
  return `${SHARED_PAGE_PREFIX}${hashed(segment)}`;
}

/** A path segment as its token's hash (`h:` and 8 hex digits of its decoded value's sha256). */
function hashed(segment: string): string {
  let token = segment;
  try {
    token = decodeURIComponent(segment);
  } catch {
    // Not valid percent-encoding: hashed as it came.
  }
  return `h:${createHash("sha256").update(token).digest("hex").slice(0, 8)}`;
}

/** A JWT's three base64url parts (its signature may be empty) or a JWE's five. */
const JWT_SHAPED = /^[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}(?:\.[A-Za-z0-9_-]*){1,3}$/;
/** An opaque credential: 32 or more base64url (or base64) characters with letters and digits mixed. */
const OPAQUE_TOKEN = /^(?=[^/]*\d)(?=[^/]*[A-Za-z])[A-Za-z0-9_+=-]{32,}$/;

/**
 * A segment that looks like a credential (a session token pasted into a path, an access token,
 * a share token on a path the shared page's route does not match) is logged as its hash: a log
 * line can still be matched to what was sent, and the log never holds a credential. Product
 * handles and the app's own segments are words with hyphens and are kept.
 */
function redactedSegment(segment: string): string {
  let decoded = segment;
  if (segment.includes("%")) {
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      // Not valid percent-encoding: judged as it came.
    }
  }
  return JWT_SHAPED.test(decoded) || (OPAQUE_TOKEN.test(decoded) && !isWords(decoded)) ? hashed(segment) : segment;
}

/** Lower-case words joined by hyphens (a handle), which may hold digits but is no token. */
const isWords = (segment: string) => /^[a-z0-9]+(?:-[a-z0-9]+)+$/.test(segment);

const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** The method as a metric label: the usual ones, anything else "other". */
export function methodLabel(method: string | undefined): string {
  return method && KNOWN_METHODS.has(method) ? method : "other";
}

type Segment = { kind: "static"; value: string } | { kind: "param" } | { kind: "splat" };

interface CompiledRoute {
  pattern: string;
  segments: Segment[];
  score: number;
}

/**
 * Maps a request path to the route pattern that serves it, so the access log and the metrics carry
 * a bounded set of values: the Remix routes' patterns, the server's own endpoints, "/assets/*" and
 * "static" for files, and "other" for everything else. Never the raw path of an unknown URL.
 */
export class RouteLabels {
  private readonly routes: CompiledRoute[];

  constructor(patterns: readonly string[]) {
    this.routes = patterns
      .map((pattern) => {
        const segments = pattern
          .split("/")
          .filter(Boolean)
          .map((part): Segment =>
            part === "*"
              ? { kind: "splat" }
              : part.startsWith(":")
                ? { kind: "param" }
                : { kind: "static", value: part.toLowerCase() },
          );
        const score = segments.reduce(
          (sum, segment) => sum + (segment.kind === "static" ? 10 : segment.kind === "param" ? 3 : 1),
          0,
        );
        return { pattern, segments, score };
      })
      // Optional segments ("(x)", ":x?") are not used by the app's routes; such a pattern is left out.
      .filter((route) => !route.pattern.includes("?") && !route.pattern.includes("("))
      .sort((a, b) => b.score - a.score);
  }

  /** The best matching pattern for a path (without query), or undefined. */
  match(pathname: string): string | undefined {
    let parts = pathname.toLowerCase().split("/").filter(Boolean);
    if (pathname.includes("%")) {
      try {
        parts = parts.map((part) => decodeURIComponent(part).toLowerCase());
      } catch {
        return undefined;
      }
    }
    for (const route of this.routes) if (matches(route.segments, parts)) return route.pattern;
    return undefined;
  }
}

function matches(segments: Segment[], parts: string[]): boolean {
  for (let index = 0; index < segments.length; index++) {
    const segment = segments[index]!;
    if (segment.kind === "splat") return true;
    const part = parts[index];
    if (part === undefined) return false;
    if (segment.kind === "static" && segment.value !== part) return false;
  }
  return segments.length === parts.length;
}

/** More pending lines than this are written at once rather than at the end of the window. */
const MAX_PENDING_LINES = 256;
/** How long a line may wait for others to go out with it. */
export const LOG_WINDOW_MS = 20;

/**
 * A line writer that writes the lines of a short window (LOG_WINDOW_MS) together: on Linux a
 * write to a pipe or a file is a synchronous system call, and one per access-log line was close to
 * a tenth of an is-saved's CPU; one per turn of the event loop, which under load handles one or two
 * requests, still an eighth once is-saved took the fast path (docs/scaling.md). What is pending is
 * written before the process exits (process.exit, an uncaught exception), so no line is lost.
 */
export function batchedLineWriter(
  write: (text: string) => void,
  atExit: (flush: () => void) => void = (flush) => process.on("exit", flush),
): (line: string) => void {
  let pending: string[] = [];
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (pending.length === 0) return;
    const text = pending.join("");
    pending = [];
    write(text);
  };
  atExit(flush);
  return (line) => {
    const count = pending.push(line);
    // Not holding the process open: an exit writes what is pending.
    if (count === 1) timer = setTimeout(flush, LOG_WINDOW_MS).unref();
    else if (count >= MAX_PENDING_LINES) flush();
  };
}
