// The sandbox's front: what sits before the app instances on PORT, as a shop's storefront and a
// load balancer sit before a real deployment. It serves the storefront (theme blocks, the app
// proxy signed for the logged-in sandbox customer), a sandbox-only report of the emulated
// platform's usage, and hands every other request to the app instances in turn.
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import express from "express";
import { createRemoteEmulator } from "../emulator/remote";
import type { Seed } from "./seed";
import { createStorefrontRouter } from "./storefront/router";

export interface AppInstance {
  /** http://127.0.0.1:port */
  url: string;
  /** False while it is being replaced: no request is sent to it. */
  accepting: boolean;
}

export interface FrontOptions {
  port: number;
  instances: AppInstance[];
  seed: Seed;
  apiSecret: string;
  emulatorUrl: string;
  /** What the sandbox-only control endpoints report and do. */
  control: {
    instances(): { index: number; url: string; pid: number; accepting: boolean }[];
    /** Replaces each instance in turn with a fresh one, as a deploy does. */
    rollingRestart(): Promise<void>;
  };
}

export interface Front {
  server: http.Server;
  close(): Promise<void>;
}

// Instances answer in turn; one that refuses the connection (it is stopping or restarting) is
// skipped, which a request that never reached it makes safe to send elsewhere.
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

export function startFront(options: FrontOptions): Promise<Front> {
  let next = 0;
  const candidates = () => {
    const open = options.instances.filter((instance) => instance.accepting);
    const start = next++ % Math.max(open.length, 1);
    return [...open.slice(start), ...open.slice(0, start)];
  };
  const emulator = createRemoteEmulator(options.emulatorUrl);

  const app = express();
  app.disable("x-powered-by");
  // Sandbox only: what the shops cost the emulated platform (requests, points, throttles, refreshes).
  app.get("/__sandbox/platform-usage", async (req, res) => {
    const shop = typeof req.query.shop === "string" ? req.query.shop : undefined;
    res.json(shop ? await emulator.usage(shop) : { shops: await emulator.allUsage() });
  });
  // Sandbox only: the app instances (for measuring one process, or killing one in a fault test).
  app.get("/__sandbox/instances", (_req, res) => void res.json({ instances: options.control.instances() }));
  app.post("/__sandbox/rolling-restart", async (_req, res) => {
    await options.control.rollingRestart();
    res.json({ instances: options.control.instances() });
  });
  app.use(
    createStorefrontRouter({
      seed: options.seed,
      apiSecret: options.apiSecret,
      forward: (request) => forwardFetch(request, candidates()),
    }),
  );
  app.use((req, res) => void proxy(req, res, candidates()));

  const server = http.createServer(app);
  // Like the app's own server: a client that sends its headers or body too slowly is cut off.
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, () => {
      server.off("error", reject);
      resolve({
        server,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
            agent.destroy();
          }),
      });
    });
  });
}

/** A storefront request (the signed app proxy call) through the first instance that takes it. */
async function forwardFetch(request: Request, instances: AppInstance[]): Promise<Response> {
  const body = request.body ? new Uint8Array(await request.arrayBuffer()) : undefined;
  let lastError: unknown;
  for (const instance of instances) {
    const target = new URL(request.url);
    const base = new URL(instance.url);
    target.protocol = base.protocol;
    target.host = base.host;
    try {
      return await fetch(target, { method: request.method, headers: request.headers, body, redirect: "manual" });
    } catch (error) {
      lastError = error;
    }
  }
  return unavailable(lastError);
}

/** Request bodies up to this size are held, so a request an instance never read can go to another. */
const RETRYABLE_BODY_BYTES = 1024 * 1024;

/**
 * Any other request, to the first instance that takes it. A request whose connection was refused
 * never reached the app and goes to the next instance, as does a read whose connection was reset
 * before any answer; otherwise the outcome is unknown and the client is told so.
 */
async function proxy(req: IncomingMessage, res: ServerResponse, instances: AppInstance[]): Promise<void> {
  const head: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    head.push(chunk as Buffer);
    size += (chunk as Buffer).length;
    if (size > RETRYABLE_BODY_BYTES) break;
  }
  const body = Buffer.concat(head);
  // Past the held size the rest is streamed to one instance, which answers for itself (413).
  const streamed = size > RETRYABLE_BODY_BYTES;
  let lastError: unknown;
  for (const [index, instance] of instances.entries()) {
    const outcome = await send(req, res, instance, body, streamed);
    if (outcome === "answered") return;
    lastError = outcome.error;
    if (!outcome.retryable || streamed || index === instances.length - 1) break;
  }
  if (!res.headersSent)
    res.writeHead(502, { "Content-Type": "application/json" }).end(JSON.stringify(envelope(lastError)));
  else res.destroy();
}

function send(
  req: IncomingMessage,
  res: ServerResponse,
  instance: AppInstance,
  body: Buffer,
  streamed: boolean,
): Promise<"answered" | { retryable: boolean; error: unknown }> {
  const base = new URL(instance.url);
  return new Promise((resolve) => {
    const upstream = http.request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        method: req.method,
        path: req.url,
        headers: {
          ...req.headers,
          "x-forwarded-for": [req.headers["x-forwarded-for"], req.socket.remoteAddress].filter(Boolean).join(", "),
          "x-forwarded-host": req.headers.host ?? "",
          "x-forwarded-proto": "http",
        },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.once("end", () => resolve("answered"));
        answer.once("error", (error) => resolve({ retryable: false, error }));
      },
    );
    upstream.once("error", (error: NodeJS.ErrnoException) => {
      const read = req.method === "GET" || req.method === "HEAD";
      resolve({ retryable: error.code === "ECONNREFUSED" || (read && error.code === "ECONNRESET"), error });
    });
    upstream.write(body);
    if (streamed) req.pipe(upstream);
    else upstream.end();
  });
}

function envelope(cause?: unknown) {
  return {
    ok: false,
    error: {
      code: "PLATFORM_UPSTREAM_ERROR",
      message: `The sandbox's front could not reach an app instance${cause instanceof Error ? ` (${cause.message})` : ""}`,
      retryable: true,
    },
  };
}

function unavailable(cause: unknown): Response {
  return new Response(JSON.stringify(envelope(cause)), {
    status: 502,
    headers: { "Content-Type": "application/json" },
  });
}
