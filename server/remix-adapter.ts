// The server's bridge between node:http and Remix, in place of @remix-run/express: the Fetch
// Request a route sees, and the way its Response goes out. It works on plain node requests, so the
// paths that can only be resource routes (the app's API) are served without Express's per-request
// machinery, and the rest reaches Remix through Express by the same bridge.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import { createReadableStreamFromReadable, createRequestHandler } from "@remix-run/node";
import type { AppLoadContext, ServerBuild } from "@remix-run/node";

export type RemixResponder = (req: IncomingMessage, res: ServerResponse, context: AppLoadContext) => Promise<void>;

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
export function clientAddressOf(req: IncomingMessage, trustedHops: number): string | undefined {
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

/**
 * The request's URL as the client asked for it: scheme and host from X-Forwarded-Proto and
 * X-Forwarded-Host behind a trusted proxy (the server drops those headers when none is trusted),
 * else from the connection and the Host header.
 */
function requestUrlOf(req: IncomingMessage): string {
  const scheme =
    firstValue(req.headers["x-forwarded-proto"]) ?? ((req.socket as TLSSocket).encrypted ? "https" : "http");
  const host = firstValue(req.headers["x-forwarded-host"]) ?? req.headers.host ?? "localhost";
  return `${scheme}://${host}${req.url ?? "/"}`;
}

function fetchRequestOf(req: IncomingMessage, res: ServerResponse): Request {
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
    init.body = createReadableStreamFromReadable(req);
    init.duplex = "half";
  }
  return new Request(requestUrlOf(req), init);
}

async function sendResponse(res: ServerResponse, response: Response): Promise<void> {
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
  return async (req, res, context) => sendResponse(res, await handle(fetchRequestOf(req, res), context));
}
