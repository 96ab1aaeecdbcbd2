// The server's bridge between node:http and Remix, in place of @remix-run/express: the Fetch
// Request a route sees, and the way its Response goes out. It works on plain node requests, so the
// paths that can only be resource routes (the app's API) are served without Express's per-request
// machinery, and the rest reaches Remix through Express by the same bridge.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import { createRequestHandler } from "@remix-run/node";
import type { AppLoadContext, ServerBuild } from "@remix-run/node";

/** How much request body the app may read, and what the server does when a body goes past it. */
export interface BodyBound {
  maxBytes: number;
  /** Called once, as the first byte past maxBytes arrives: the server answers 413. */
  onTooLarge: () => void;
  /** The whole body, already read by the server (one whose signature it checked): read from here. */
  signed?: Buffer[];
}

export type RemixResponder = (
  req: IncomingMessage,
  res: ServerResponse,
  context: AppLoadContext,
  body: BodyBound,
) => Promise<void>;

/** The first value of a header that a proxy may have sent as a comma-separated list. */
function firstValue(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return undefined;
  const comma = value.indexOf(",");
  return (comma === -1 ? value : value.slice(0, comma)).trim() || undefined;
}

/**
 * The client's address, `trustedHops` proxies back along X-Forwarded-For (as Express's req.ip
 * reads it with a hop count as its trust setting): the peer itself when no proxy is trusted, and
 * the farthest address given when there are fewer entries than trusted hops.
 */
export function forwardedClientAddress(req: IncomingMessage, trustedHops: number): string | undefined {
  const peer = req.socket.remoteAddress;
  const header = req.headers["x-forwarded-for"];
  if (trustedHops === 0 || header === undefined) return peer;
  const forwarded = (Array.isArray(header) ? header.join(",") : header)
    .split(",")
    .map((entry) => entry.replace(/^ +| +$/g, ""))
    .filter(Boolean)
    .reverse();
  const chain = [peer, ...forwarded];
  return chain[Math.min(trustedHops, chain.length - 1)];
}

/** The host the client asked for: X-Forwarded-Host behind a trusted proxy, else the Host header. */
function requestHostOf(req: IncomingMessage): string {
  return firstValue(req.headers["x-forwarded-host"]) ?? req.headers.host ?? "localhost";
}

/** A host name or IPv4 address, or a bracketed IPv6 address, with an optional port; anchored, so linear. */
const HOST = /^(?:[A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * The request's URL as the client sent it, when one can be built from what the client sent. A
 * Host such as "a b" made the Fetch Request's constructor throw, and the error's message and stack
 * carried the whole path into the log: the server refuses such a request (400) before it does
 * anything else with it. Built once per request: the load context's requestUrl and the Fetch
 * Request's URL are this string.
 */
export function validRequestUrlOf(req: IncomingMessage): string | undefined {
  const host = requestHostOf(req);
  if (host.length > 255 || !HOST.test(host)) return undefined;
  const url = requestUrlOf(req);
  return URL.canParse(url) ? url : undefined;
}

/**
 * The request's URL as the client asked for it: scheme and host from X-Forwarded-Proto and
 * X-Forwarded-Host behind a trusted proxy (the server drops those headers when none is trusted),
 * else from the connection and the Host header.
 */
function requestUrlOf(req: IncomingMessage): string {
  const scheme =
    firstValue(req.headers["x-forwarded-proto"]) ?? ((req.socket as TLSSocket).encrypted ? "https" : "http");
  return `${scheme}://${requestHostOf(req)}${req.url ?? "/"}`;
}

/**
 * The request body as the app reads it, counted as it arrives: past bound.maxBytes the server is
 * told (it answers 413), the app's read fails and its request is aborted, so nothing it does with
 * the failure is logged or sent. Whatever the client sends after that is discarded by the server
 * (it resumes the request once its response is out). Cancelling (the app refusing a body it has
 * read enough of) only stops the reading: node would destroy the socket with a destroyed request,
 * and the refusal would never reach the client.
 */
function bodyStreamOf(req: IncomingMessage, bound: BodyBound, controller: AbortController): ReadableStream<Uint8Array> {
  let size = 0;
  let stop = () => {};
  return new ReadableStream<Uint8Array>(
    {
      start(stream) {
        if (req.readableEnded) {
          stream.close();
          return;
        }
        const onData = (chunk: Buffer) => {
          size += chunk.byteLength;
          if (size > bound.maxBytes) {
            stop();
            bound.onTooLarge();
            controller.abort();
            stream.error(new Error(`Request body larger than ${bound.maxBytes} bytes`));
            return;
          }
          stream.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((stream.desiredSize ?? 0) <= 0) req.pause();
        };
        const onEnd = () => {
          stop();
          stream.close();
        };
        const onClose = () => {
          stop();
          stream.error(new Error("Request body incomplete: the client went away"));
        };
        stop = () => {
          req.off("data", onData);
          req.off("end", onEnd);
          req.off("close", onClose);
          req.off("error", onClose);
          req.pause();
        };
        req.on("data", onData);
        req.once("end", onEnd);
        req.once("close", onClose);
        req.once("error", onClose);
      },
      pull() {
        if (!req.readableEnded) req.resume();
      },
      cancel() {
        stop();
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  );
}

/** A body the server has read whole, as a stream of its own chunks (none copied). */
function streamOfChunks(chunks: Buffer[]): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(stream) {
      for (const chunk of chunks) stream.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      stream.close();
    },
  });
}

function fetchRequestOf(req: IncomingMessage, res: ServerResponse, url: string, body: BodyBound): Request {
  // From req.headers, not the raw ones: the server drops untrusted forwarding headers and sets the
  // request id there.
  const headers = new Headers();
  for (const name in req.headers) {
    const value = req.headers[name];
    if (Array.isArray(value)) for (const each of value) headers.append(name, each);
    else if (value) headers.set(name, value);
  }
  // Loaders and actions are told when the client has gone before the response was written.
  const controller = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const method = req.method ?? "GET";
  const init: RequestInit & { duplex?: "half" } = { method, headers, signal: controller.signal };
  if (method !== "GET" && method !== "HEAD") {
    init.body = body.signed ? streamOfChunks(body.signed) : bodyStreamOf(req, body, controller);
    init.duplex = "half";
  }
  return new Request(url, init);
}

async function sendResponse(res: ServerResponse, response: Response): Promise<void> {
  // The server has answered already (a body past its bound): the app's answer is dropped.
  if (res.headersSent) {
    await response.body?.cancel();
    return;
  }
  res.statusCode = response.status;
  if (response.statusText) res.statusMessage = response.statusText;
  for (const [name, value] of response.headers) {
    if (name !== "set-cookie") res.setHeader(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader("Set-Cookie", cookies);
  if (!response.body) {
    res.end();
    return;
  }
  // Each chunk is written as it comes (a streamed document's shell goes out before the rest), and
  // flushed through compression; node sends a one-chunk answer and its end in one write.
  const flushable = res as ServerResponse & { flush?: () => void };
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
      flushable.flush?.();
    }
  } catch (error) {
    res.destroy(error as Error);
    throw error;
  }
  res.end();
}

/** Serves a request with the build's routes: what createRequestHandler of @remix-run/express did. */
export function createRemixResponder(build: ServerBuild): RemixResponder {
  const handle = createRequestHandler(build, "production");
  return async (req, res, context, body) => {
    // The server put the URL as sent into the request's own context (validRequestUrlOf).
    const request = fetchRequestOf(req, res, context.requestUrl ?? requestUrlOf(req), body);
    return sendResponse(res, await handle(request, context));
  };
}
