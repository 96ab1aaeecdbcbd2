// The load generator of the bench and the soak: plain node:http with a keep-alive agent, so the
// app and the baseline are driven by exactly the same client code.
import http from "node:http";

export interface LoadRequest {
  method: "GET" | "POST";
  url: URL;
  body?: string;
  headers?: Record<string, string>;
  /** How long the socket may stay silent before the request is given up (default 30 s). */
  timeoutMs?: number;
}

export interface Outcome {
  status: number;
  /** The envelope's error code, or a transport error's name (status 0). */
  code?: string;
  ms: number;
}

export interface LoadResult {
  outcomes: Outcome[];
  durationMs: number;
}

export function keepAliveAgent(sockets: number): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets });
}

/** Sends one request; never throws (a transport failure is status 0 with its error code). */
export async function send(agent: http.Agent, request: LoadRequest): Promise<Outcome> {
  return (await sendReading(agent, request)).outcome;
}

/** Sends one request and keeps its answer's body too. */
export function sendReading(agent: http.Agent, request: LoadRequest): Promise<{ outcome: Outcome; text: string }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const failed = (error: NodeJS.ErrnoException) =>
      resolve({ outcome: { status: 0, code: error.code ?? error.message, ms: performance.now() - started }, text: "" });
    const headers: Record<string, string> = { ...request.headers };
    if (request.body !== undefined) {
      headers["content-type"] ??= "application/json";
      headers["content-length"] = String(Buffer.byteLength(request.body));
    }
    const timeout = request.timeoutMs ?? 30_000;
    const req = http.request(request.url, { method: request.method, agent, headers, timeout }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const status = res.statusCode ?? 0;
        const text = Buffer.concat(chunks).toString("utf8");
        const outcome: Outcome = { status, ms: performance.now() - started };
        // Only answers that are not 200 are parsed: the generator must stay cheap next to the app.
        if (status !== 200) outcome.code = envelopeCode(text);
        resolve({ outcome, text });
      });
      res.on("error", failed);
    });
    req.on("timeout", () => req.destroy(new Error("client timeout")));
    req.on("error", failed);
    req.end(request.body);
  });
}

function envelopeCode(text: string): string {
  try {
    return (JSON.parse(text) as { error?: { code?: string } }).error?.code ?? "NO_CODE";
  } catch {
    return "NOT_JSON";
  }
}

/**
 * Closed loop: `concurrency` workers each send the next request as soon as the last one answered,
 * until the duration is over or `next` returns undefined.
 */
export async function closedLoop(options: {
  agent: http.Agent;
  concurrency: number;
  durationMs: number;
  next: (index: number) => LoadRequest | undefined;
}): Promise<LoadResult> {
  const outcomes: Outcome[] = [];
  const started = performance.now();
  const deadline = started + options.durationMs;
  let issued = 0;
  const worker = async () => {
    while (performance.now() < deadline) {
      const request = options.next(issued++);
      if (!request) return;
      outcomes.push(await send(options.agent, request));
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  return { outcomes, durationMs: performance.now() - started };
}

/**
 * Open loop: `start(index)` is called at a fixed rate whatever the answers, as independent
 * shoppers arrive; it runs one arrival (one or more requests) and resolves with their outcomes.
 */
export async function openLoop(options: {
  ratePerSecond: number;
  durationMs: number;
  start: (index: number) => Promise<Outcome[]>;
}): Promise<LoadResult> {
  const outcomes: Outcome[] = [];
  const running: Promise<void>[] = [];
  const started = performance.now();
  const total = Math.floor((options.ratePerSecond * options.durationMs) / 1000);
  for (let index = 0; index < total; index++) {
    const due = started + (index * 1000) / options.ratePerSecond;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    running.push(options.start(index).then((result) => void outcomes.push(...result)));
  }
  await Promise.all(running);
  return { outcomes, durationMs: performance.now() - started };
}
