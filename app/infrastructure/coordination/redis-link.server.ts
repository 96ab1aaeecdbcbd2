import { writeLog } from "~/lib/json-log";
import { Redis, ReplyError } from "ioredis";
import { CoordinatorUnavailableError } from "./coordinator.server";

export interface RedisLinkOptions {
  url: string;
  /** Bounds connecting and every command, so no caller waits longer on an unreachable Redis. */
  commandTimeoutMs: number;
  /**
   * Runs on every new connection before the link counts as up; while it has not succeeded, calls
   * through `run` fail. Throwing keeps the link down (it is tried again). `downSinceMs`
   * (performance.now()) is when the link last went down, undefined on the first connection.
   */
  onConnected(client: Redis, downSinceMs: number | undefined): Promise<void>;
}

/**
 * The coordinator's connections to Redis and whether Redis is usable. Nothing waits for Redis:
 * there is no offline queue, so while it is unreachable every call fails at once, and a call in
 * flight fails after commandTimeoutMs. The client reconnects by itself; the link logs once when
 * Redis goes away and once when it is back.
 */
export interface RedisLink {
  /** Receives release notices; a connection of its own, since a subscribed RESP2 connection can do nothing else. */
  readonly subscriber: Redis;
  /** Runs command while the link is up; otherwise, or when it fails, throws CoordinatorUnavailableError. */
  run<T>(command: (client: Redis) => Promise<T>): Promise<T>;
  /**
   * Runs command even while the link is down (the connection may be back before the link is):
   * for work on locks this instance already holds, which must not wait for onConnected.
   */
  attempt<T>(command: (client: Redis) => Promise<T>): Promise<T>;
  /** Whether the link is up now: Redis answered and onConnected succeeded since it last failed. */
  isUp(): boolean;
  close(): Promise<void>;
}

/** How often a down link tries onConnected again when no reconnection prompts it. */
const PROBE_INTERVAL_MS = 1_000;
/** What ioredis and the socket say when a command could not reach Redis or its answer never came. */
const CONNECTION_FAILURE =
  /Command timed out|Connection is closed|Stream isn't writeable|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENOTFOUND/;
/** Reconnection backoff cap: Redis is used again within about a second of coming back. */
const MAX_RECONNECT_DELAY_MS = 1_000;

export function createRedisLink(options: RedisLinkOptions): RedisLink {
  const client = new Redis(options.url, {
    connectTimeout: options.commandTimeoutMs,
    commandTimeout: options.commandTimeoutMs,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    // A lock script resent after its caller gave up would take locks nobody releases.
    autoResendUnfulfilledCommands: false,
    retryStrategy: (attempt) => Math.min(attempt * 100, MAX_RECONNECT_DELAY_MS),
  });
  // A waiter's first SUBSCRIBE may come while this connection is still being made; queued, it is
  // still bounded by commandTimeout.
  const subscriber = client.duplicate({ enableOfflineQueue: true });

  let state: "starting" | "up" | "down" = "starting";
  let downSinceMs: number | undefined;
  let closed = false;
  let probing = false;
  let probeTimer: NodeJS.Timeout | undefined;
  let settleStart!: () => void;
  // Calls made while the first connection is still being set up wait for it (at most connectTimeout).
  const started = new Promise<void>((resolve) => (settleStart = resolve));

  function markDown(reason: unknown): void {
    if (closed) return;
    if (state === "up") downSinceMs = performance.now();
    if (state !== "down") {
      writeLog(
        "warn",
        `[coordination] Redis unreachable (${describe(reason)}): list locks refused or taken in PostgreSQL, rate limits per instance, ` +
          "cached shop state bypassed until it is back",
      );
    }
    state = "down";
    settleStart();
    probeTimer ??= setTimeout(() => {
      probeTimer = undefined;
      void probe();
    }, PROBE_INTERVAL_MS).unref();
  }

  async function probe(): Promise<void> {
    if (probing || closed || state === "up") return;
    probing = true;
    try {
      await options.onConnected(client, downSinceMs);
      if (closed) return;
      writeLog("info", `[coordination] Redis ${state === "starting" ? "connected" : "reachable again"}`);
      state = "up";
      clearTimeout(probeTimer);
      probeTimer = undefined;
      settleStart();
    } catch (error) {
      markDown(error);
    } finally {
      probing = false;
    }
  }

  client.on("ready", () => void probe());
  client.on("error", markDown);
  client.on("close", () => markDown(new Error("connection closed")));
  // Its failures show on the command connection too; listening keeps ioredis from printing each one.
  subscriber.on("error", () => {});

  /**
   * Whether a failed command says Redis cannot be used: a refusal Redis answered (READONLY after a
   * failover, OOM) or a connection that is not ready, timed out or closed. A failure of the app's
   * own code inside the command (a bug, a fault a test injects) says nothing about Redis: marking
   * it down for that would refuse every write until the next probe.
   */
  function redisFailed(error: unknown): boolean {
    if (error instanceof ReplyError || client.status !== "ready") return true;
    return CONNECTION_FAILURE.test(error instanceof Error ? error.message : String(error));
  }

  async function attempt<T>(command: (client: Redis) => Promise<T>): Promise<T> {
    try {
      return await command(client);
    } catch (error) {
      if (!redisFailed(error)) throw error;
      markDown(error);
      throw new CoordinatorUnavailableError(`Redis did not answer: ${describe(error)}`, { cause: error });
    }
  }

  return {
    subscriber,
    async run(command) {
      await started;
      if (state !== "up") throw new CoordinatorUnavailableError("Redis is unreachable");
      return attempt(command);
    },
    attempt,
    isUp: () => state === "up",
    async close() {
      closed = true;
      clearTimeout(probeTimer);
      // QUIT needs a live connection; disconnect() also stops a reconnection in progress.
      await Promise.all(
        [client, subscriber].map((connection) => connection.quit().catch(() => connection.disconnect())),
      );
    },
  };
}

function describe(reason: unknown): string {
  return reason instanceof Error ? reason.message : String(reason);
}
