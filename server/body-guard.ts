// A request's body against its deadlines, and the connection of a response that goes out before
// its body has arrived: closed cleanly, after the client could read the answer.
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { ENVELOPE_HEADERS } from "../app/lib/envelope";
import type { ServerConfig } from "./config";
import { envelope } from "./refusals";
import { hasBody, type RequestState } from "./request-state";

/** How often a body whose credential it is is checked for keeping MIN_BODY_BYTES_PER_SECOND. */
const BODY_RATE_CHECK_MS = 1_000;

const secondsText = (ms: number) => `${Number((ms / 1000).toFixed(3))} s`;

interface BodyGuardOptions {
  server: Server;
  config: ServerConfig;
  /** True once shutdown has begun: every response then says Connection: close. */
  isDraining: () => boolean;
}

export function createBodyGuard({ server, config, isDraining }: BodyGuardOptions) {
  /**
   * A response that goes out before its request body has fully arrived (a 413 judged on the declared
   * length, a 401/405/415 that never reads the body, a 503 past the budget) says Connection: close;
   * the rest of the body is left unread (stopReading) and the socket closes config.lingerMs after
   * the response went out, so the client reads the response instead of a reset, and its next
   * request goes out on a fresh connection rather than behind an upload nobody reads. A body still incomplete config.bodyTimeoutMs after the
   * request began is answered 408 and its connection closed. While draining, every response says
   * Connection: close.
   */
  function guardConnection(req: IncomingMessage, res: ServerResponse, state: RequestState): void {
    const socket = req.socket;
    const expectsBody = hasBody(req);
    const writeHead = res.writeHead;
    let leftUnread = false;
    res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
      // A refused signature closes its connection: a forger does not keep a socket to send the next one on.
      const status = typeof args[0] === "number" ? args[0] : this.statusCode;
      if (isDraining() || (state.bodyIsCredential && status === 401)) this.setHeader("Connection", "close");
      if (expectsBody && !req.complete && !this.headersSent) {
        if (!state.bodyTimedOut) state.refusedEarly = true;
        this.setHeader("Connection", "close");
        leftUnread = true;
        stopReading(req);
        closeAfterLinger(socket, state);
      }
      return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
    } as typeof res.writeHead;

    res.once("finish", () => {
      // What node does for a body nobody read (IncomingMessage._dump), also when a reader was attached
      // (Remix's request body stream): drop its listeners and let the bytes drain, so the connection
      // reads the next request, or lingers to its close.
      if (!req.readableEnded && !leftUnread) {
        req.removeAllListeners("data");
        req.resume();
      }
      if (isDraining()) server.closeIdleConnections();
    });

    if (!expectsBody || req.complete) return;

    const bodyTooSlow = (message: string) => {
      state.bodyTimedOut = true;
      if (res.headersSent) {
        socket.destroy();
        return;
      }
      const body = envelope("VALIDATION_ERROR", message);
      res.writeHead(408, { ...ENVELOPE_HEADERS, "Content-Length": Buffer.byteLength(body), Connection: "close" });
      res.end(body);
    };
    const timer = setTimeout(() => {
      if (req.complete || res.writableEnded) return;
      bodyTooSlow(`Request body not received within ${secondsText(config.bodyTimeoutMs)}`);
    }, config.bodyTimeoutMs);
    res.once("close", () => clearTimeout(timer));
    if (state.bodyIsCredential) checkBodyRate(req, res, bodyTooSlow);
  }

  /**
   * A body whose credential it is must have arrived at config.minBodyBytesPerSecond, counted from
   * the request's start, at each check: one dripped in (8 bytes over 9 s, just inside the body
   * deadline) held its connection and its budget for nothing. Counted on the socket, so the check
   * neither reads the body nor depends on who does.
   */
  function checkBodyRate(req: IncomingMessage, res: ServerResponse, tooSlow: (message: string) => void): void {
    const socket = req.socket;
    const startBytes = socket.bytesRead;
    let checks = 0;
    let timer: NodeJS.Timeout;
    const check = () => {
      if (req.complete || res.writableEnded) return;
      checks++;
      const expected = (config.minBodyBytesPerSecond * checks * BODY_RATE_CHECK_MS) / 1000;
      if (socket.bytesRead - startBytes < expected) {
        tooSlow(`Request body slower than ${config.minBodyBytesPerSecond} bytes a second`);
        return;
      }
      timer = setTimeout(check, BODY_RATE_CHECK_MS);
    };
    timer = setTimeout(check, BODY_RATE_CHECK_MS);
    res.once("close", () => clearTimeout(timer));
  }

  function closeAfterLinger(socket: Socket, state: RequestState): void {
    // node ends a Connection: close response with socket.destroySoon(), which destroys the socket as
    // soon as the response is flushed: unread request bytes still waiting would then draw a reset
    // that can overtake the response. Half-close instead, and wait a bounded time, reading nothing
    // (stopReading), for the client to read the response before the socket is destroyed.
    // A body that missed its deadline is not waited for: close once the response is flushed.
    socket.destroySoon = function (this: Socket) {
      if (this.writable) this.end();
      const lingerMs = state.bodyTimedOut ? 0 : config.lingerMs;
      let timer: NodeJS.Timeout | undefined;
      const linger = () => {
        timer = setTimeout(() => this.destroy(), lingerMs);
        timer.unref();
      };
      if (this.writableFinished) linger();
      else this.once("finish", linger);
      this.once("close", () => clearTimeout(timer));
    };
  }

  return guardConnection;
}

/**
 * The rest of a refused body is never read: node dumps a body nobody read at the socket's full
 * speed, and each piece it reads is a fresh buffer of up to 64 KiB that lives until the next full
 * garbage collection; 126 refused 4 MiB bodies read for the linger's 2 s were most of the 69.5 MiB
 * bench:edge's A2 grew the process by (docs/scaling.md). The socket stops reading at once and is
 * never resumed (node's dump of the request resumes it), so what the client goes on sending
 * waits in the kernel's buffers until the socket closes; only what arrived in the same read as
 * the headers is parsed.
 */
function stopReading(req: IncomingMessage): void {
  const socket = req.socket;
  req.removeAllListeners("data");
  socket.pause();
  socket.resume = () => socket;
}
