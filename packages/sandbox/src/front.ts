// The sandbox's front: what sits before the app instances on PORT, as a shop's storefront and a
// load balancer sit before a real deployment. It serves the storefront (theme blocks, the app
// proxy signed for the logged-in sandbox customer), a sandbox-only report of the emulated
// platform's usage, and hands every other request to the app instances in turn.
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import express from "express";
import { errorEnvelope } from "../../../app/lib/envelope";
import { ServiceError } from "../../../app/lib/errors";
import { SANDBOX_PLATFORM_PAGES_PATH } from "../../../app/platform/platform-fetch.server";
import { createRemoteEmulator } from "@saved-items/platform-emulator/remote";
import { HELD_BODY_BYTES, holdBody, type HeldBody } from "./held-body";
import { signedAdminUrl } from "./session-tokens";
import type { Seed } from "./seed";
import { createStorefrontRouter } from "./storefront/router";

export interface AppInstance {
  /** 1-based, as /__sandbox/instances and the log lines name it. */
  index: number;
  /** http://127.0.0.1:port */
  url: string;
  /** False while it is being replaced or started again: no request is sent to it. */
  accepting: boolean;
  /** False from a health probe it did not answer in time until one it answers: no request is sent to it. */
  healthy: boolean;
}

export interface InstanceReport {
  index: number;
  url: string;
  pid: number;
  accepting: boolean;
  healthy: boolean;
}

export interface FrontOptions {
  port: number;
  /** The instances in rotation order; entries are replaced as their instances are. */
  instances: AppInstance[];
  seed: Seed;
  apiKey: string;
  apiSecret: string;
  emulatorUrl: string;
  /** What the sandbox-only control endpoints report and do. */
  control: {
    instances(): InstanceReport[];
    /** Replaces each instance in turn with a fresh one, as a deploy does. */
    rollingRestart(): Promise<void>;
  };
}

export interface Front {
  server: http.Server;
  close(): Promise<void>;
}

/**
 * Each instance's /healthz is asked this often, one probe at a time. One not answered within the
 * timeout takes the instance out of the rotation until one is answered again, and every request it
 * holds that has no answer yet is answered 504: a hung instance costs a request at most the
 * interval plus the timeout, about 5.5 s, and new requests stop going to it within the same bound.
 * The timeout is long for a probe: on a machine as busy as the test suite makes it (another run of
 * it, or a build, beside), a healthy instance starting or under load took more than 1 s to answer.
 * No fixed per-request timeout: an instance that answers its probes is busy, not hung, and a slow
 * operation (a platform call that takes seconds) must not be cut off.
 */
export const PROBE_INTERVAL_MS = 500;
export const PROBE_TIMEOUT_MS = 5_000;

// Instances answer in turn; one that refuses the connection (it is stopping or restarting) is
// skipped, which a request that never reached it makes safe to send elsewhere.
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

/** Which instances a request may go to, and what to do with the requests a hung one holds. */
interface Rotation {
  /** The healthy instances taking requests, each time starting one further along. */
  candidates(): AppInstance[];
  /** Registers how to give up on a request sent to `instance` that has no answer yet; call the result once it has one. */
  awaitAnswer(instance: AppInstance, giveUp: () => void): () => void;
}

export function startFront(options: FrontOptions): Promise<Front> {
  let next = 0;
  const waiting = new WeakMap<AppInstance, Set<() => void>>();
  const rotation: Rotation = {
    candidates() {
      const open = options.instances.filter((instance) => instance.accepting && instance.healthy);
      const start = next++ % Math.max(open.length, 1);
      return [...open.slice(start), ...open.slice(0, start)];
    },
    awaitAnswer(instance, giveUp) {
      let pending = waiting.get(instance);
      if (!pending) waiting.set(instance, (pending = new Set()));
      pending.add(giveUp);
      return () => pending.delete(giveUp);
    },
  };
  const stopProbing = probeInstances(options.instances, (instance) => {
    const pending = waiting.get(instance);
    waiting.delete(instance);
    for (const giveUp of pending ?? []) giveUp();
  });
  const emulator = createRemoteEmulator(options.emulatorUrl);

  const app = express();
  app.disable("x-powered-by");
  // Sandbox only: what the shops cost the emulated platform (requests, points, throttles, refreshes)
  // and, for one shop, what it was charged this billing cycle (its overage's billing events).
  app.get("/__sandbox/platform-usage", (req, res, next) => {
    const shop = typeof req.query.shop === "string" ? req.query.shop : undefined;
    (shop
      ? Promise.all([emulator.usage(shop), emulator.billingCharges(shop)]).then(([usage, billing]) => ({
          ...usage,
          billing,
        }))
      : emulator.allUsage().then((shops) => ({ shops }))
    )
      .then((usage) => void res.json(usage))
      .catch(next);
  });
  // Sandbox only: the app instances (for measuring one process, or killing one in a fault test).
  app.get("/__sandbox/instances", (_req, res) => void res.json({ instances: options.control.instances() }));
  // Sandbox only: an admin page opened logged in, as the admin's iframe opens it: a redirect to the
  // page with a fresh session token (valid about a minute), so a link in the banner always works.
  // Query parameters besides shop go to the page (the plan page's charge_id for the welcome link).
  app.get(/^\/__sandbox\/admin(\/app(?:\/[\w-]+)*)?$/, (req, res, next) => {
    const query = new URL(req.originalUrl, "http://sandbox").searchParams;
    const shop = query.get("shop") ?? "demo.myshopify.com";
    query.delete("shop");
    const path = (req.params as Record<string, string | undefined>)[0] ?? "/app";
    const page = query.size > 0 ? `${path}?${query}` : path;
    signedAdminUrl(`${req.protocol}://${req.get("host")}`, page, {
      shop,
      apiKey: options.apiKey,
      apiSecret: options.apiSecret,
    })
      .then((url) => res.redirect(302, url))
      .catch(next);
  });
  // Sandbox only: the emulated platform's pages a merchant's browser opens (the plan selection page),
  // served from the emulator on this origin; their redirects into the embedded admin open the
  // sandbox's logged-in admin, others stay on these pages.
  app.all(
    new RegExp(`^${SANDBOX_PLATFORM_PAGES_PATH}(/.+)$`),
    express.raw({ type: () => true, limit: "64kb" }),
    (req, res, next) => {
      const target = `${options.emulatorUrl}${(req.params as Record<string, string>)[0]}${new URL(req.originalUrl, "http://sandbox").search}`;
      const hasBody = req.method !== "GET" && req.method !== "HEAD";
      fetch(target, {
        method: req.method,
        headers: req.headers["content-type"] ? { "Content-Type": req.headers["content-type"] } : {},
        body: hasBody ? new Uint8Array(req.body as Buffer) : undefined,
        redirect: "manual",
      })
        .then(async (answer) => {
          const location = answer.headers.get("location");
          if (location) res.setHeader("Location", sandboxLocation(location));
          const type = answer.headers.get("content-type");
          if (type) res.setHeader("Content-Type", type);
          res.status(answer.status).send(Buffer.from(await answer.arrayBuffer()));
        })
        .catch(next);
    },
  );
  app.post("/__sandbox/rolling-restart", (_req, res, next) => {
    options.control
      .rollingRestart()
      .then(() => void res.json({ instances: options.control.instances() }))
      .catch(next);
  });
  app.use(
    createStorefrontRouter({
      seed: options.seed,
      apiSecret: options.apiSecret,
      forward: (request) => forwardFetch(request, rotation),
      productMetafields: (shop, productGid) => emulator.metafields(shop, productGid),
    }),
  );
  // Never rejects: every way a request can fail is answered inside.
  app.use((req, res) => void proxy(req, res, rotation));

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
            stopProbing();
            server.close(() => done());
            server.closeAllConnections();
            agent.destroy();
          }),
      });
    });
  });
}

/**
 * Where the browser goes for a platform redirect: the embedded admin's URL of an app page
 * (https://admin.shopify.com/store/<store>/apps/<app>/<path>) opens the sandbox's logged-in admin
 * at that page, any other platform URL its emulated page on the sandbox's origin.
 */
export function sandboxLocation(location: string): string {
  const url = new URL(location);
  const appPage = /^\/store\/([a-z0-9][a-z0-9-]*)\/apps\/[\w-]+(\/.*)?$/.exec(url.pathname);
  if (url.host !== "admin.shopify.com" || !appPage) {
    return `${SANDBOX_PLATFORM_PAGES_PATH}/${url.host}${url.pathname}${url.search}`;
  }
  const query = new URLSearchParams(url.search);
  query.set("shop", `${appPage[1]}.myshopify.com`);
  return `/__sandbox/admin${appPage[2] ?? ""}?${query}`;
}

/**
 * Probes every instance in the rotation; `unanswered` is called for each probe an instance fails,
 * the transitions in and out of the rotation are logged.
 */
function probeInstances(instances: AppInstance[], unanswered: (instance: AppInstance) => void): () => void {
  const probing = new WeakSet<AppInstance>();
  const timer = setInterval(() => {
    for (const instance of instances) {
      if (!instance.accepting || probing.has(instance)) continue;
      probing.add(instance);
      void answersProbe(instance).then((answered) => {
        probing.delete(instance);
        // Replaced or restarting meanwhile: what this probe saw is about a process that is going.
        if (!instance.accepting) return;
        if (!answered) unanswered(instance);
        if (answered === instance.healthy) return;
        instance.healthy = answered;
        if (answered) console.log(`[sandbox] instance ${instance.index} answers again; back in the rotation`);
        else
          console.error(
            `[sandbox] instance ${instance.index} did not answer /healthz within ${PROBE_TIMEOUT_MS} ms; out of the rotation`,
          );
      });
    }
  }, PROBE_INTERVAL_MS);
  return () => clearInterval(timer);
}

async function answersProbe(instance: AppInstance): Promise<boolean> {
  try {
    const response = await fetch(`${instance.url}/healthz`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    await response.arrayBuffer();
    return response.ok;
  } catch {
    return false;
  }
}

/** How a try on one instance went wrong, and whether another instance may be tried. */
interface Failure {
  status: 502 | 504;
  retryable: boolean;
  message: string;
}

/** The request may have reached the instance: it is not sent elsewhere. */
function noAnswer(instance: AppInstance): Failure {
  return {
    status: 504,
    retryable: false,
    message: `The sandbox's front got no answer from app instance ${instance.index}, which stopped answering its health probe; the request may have taken effect`,
  };
}

/**
 * A refused connection never reached the app: another instance may take the request. So may a
 * read whose connection was reset before any answer. Anything else may have taken effect.
 */
function failureOf(error: unknown, method: string | undefined): Failure {
  const code = errorCode(error);
  const read = method === "GET" || method === "HEAD";
  return {
    status: 502,
    retryable: code === "ECONNREFUSED" || (read && code === "ECONNRESET"),
    message: `The sandbox's front could not reach an app instance${error instanceof Error ? ` (${error.message}${code ? `, ${code}` : ""})` : ""}`,
  };
}

/** node:http puts the code on the error, fetch on its cause. */
function errorCode(error: unknown): string | undefined {
  const { code, cause } = (error ?? {}) as { code?: unknown; cause?: { code?: unknown } };
  if (typeof code === "string") return code;
  return typeof cause?.code === "string" ? cause.code : undefined;
}

/** A storefront request (the signed app proxy call) through the first instance that takes it. */
async function forwardFetch(request: Request, rotation: Rotation): Promise<Response> {
  const body = request.body ? new Uint8Array(await request.arrayBuffer()) : undefined;
  let failure: Failure | undefined;
  for (const instance of rotation.candidates()) {
    const target = new URL(request.url);
    const base = new URL(instance.url);
    target.protocol = base.protocol;
    target.host = base.host;
    const controller = new AbortController();
    const answered = rotation.awaitAnswer(instance, () => controller.abort());
    try {
      return await fetch(target, {
        method: request.method,
        headers: request.headers,
        body,
        redirect: "manual",
        signal: controller.signal,
      });
    } catch (error) {
      failure = controller.signal.aborted ? noAnswer(instance) : failureOf(error, request.method);
      if (!failure.retryable) break;
    } finally {
      answered();
    }
  }
  return new Response(envelope(failure), {
    status: failure?.status ?? 502,
    headers: { "Content-Type": "application/json" },
  });
}

/**
 * Any other request, to the first instance that takes it, as long as the client is there: a client
 * that goes away mid-body or mid-answer ends the request to the instance too.
 */
async function proxy(req: IncomingMessage, res: ServerResponse, rotation: Rotation): Promise<void> {
  // Read now: once the client has gone, the request has no socket to ask.
  const clientAddress = req.socket.remoteAddress;
  const held = await holdBody(req, HELD_BODY_BYTES);
  if (!held) return;
  let outcome: "answered" | Failure | undefined;
  for (const instance of rotation.candidates()) {
    outcome = await send(req, res, instance, held, clientAddress, rotation);
    // Past the held size the rest of the body was streamed to that one instance: nothing is left to resend.
    if (outcome === "answered" || !outcome.retryable || !held.complete || res.destroyed) break;
  }
  // What the client still sends is read and dropped, so its connection stays usable.
  req.resume();
  if (outcome === "answered" || res.destroyed) return;
  if (res.headersSent) res.destroy();
  else res.writeHead(outcome?.status ?? 502, { "Content-Type": "application/json" }).end(envelope(outcome));
}

/** Hop-by-hop: they describe the front's connection to the instance, not the client's to the front. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding"]);

function send(
  req: IncomingMessage,
  res: ServerResponse,
  instance: AppInstance,
  held: HeldBody,
  clientAddress: string | undefined,
  rotation: Rotation,
): Promise<"answered" | Failure> {
  const base = new URL(instance.url);
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: "answered" | Failure) => {
      if (settled) return;
      settled = true;
      answered();
      res.off("close", clientGone);
      if (!held.complete) {
        req.unpipe(upstream);
        upstream.destroy();
      }
      resolve(outcome);
    };
    const upstream = http.request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        method: req.method,
        path: req.url,
        headers: {
          ...req.headers,
          "x-forwarded-for": [req.headers["x-forwarded-for"], clientAddress].filter(Boolean).join(", "),
          "x-forwarded-host": req.headers.host ?? "",
          "x-forwarded-proto": "http",
        },
      },
      (answer) => {
        answered();
        const headers = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !HOP_BY_HOP.has(name)));
        res.writeHead(answer.statusCode ?? 502, headers);
        answer.pipe(res);
        answer.once("end", () => settle("answered"));
        answer.once("error", (error) => settle(failureOf(error, req.method)));
      },
    );
    // Every error, however late (a write after the instance closed): one unhandled would end the sandbox.
    upstream.on("error", (error) => settle(failureOf(error, req.method)));
    const answered = rotation.awaitAnswer(instance, () => {
      settle(noAnswer(instance));
      upstream.destroy();
    });
    const clientGone = () => {
      if (res.writableFinished) return;
      upstream.destroy();
      settle({ status: 502, retryable: false, message: "the client went away" });
    };
    res.once("close", clientGone);
    upstream.write(held.body);
    if (held.complete) upstream.end();
    else req.pipe(upstream);
  });
}

function envelope(failure: Failure | undefined): string {
  return errorEnvelope(
    new ServiceError(
      "PLATFORM_UPSTREAM_ERROR",
      failure?.message ?? "The sandbox's front has no app instance in the rotation",
    ),
  );
}
