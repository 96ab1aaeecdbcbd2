// A graceful shutdown: stop taking connections, let requests in flight finish within a deadline,
// then the app's own shutdown hook; and the signals that start it.
import type { Server } from "node:http";
import { errorFields, type LogFields, type LogLevel } from "../app/lib/json-log";
import type { AppEntry } from "./app-build";
import type { ServerConfig } from "./config";

type Log = (level: LogLevel, msg: string, fields?: LogFields) => void;

interface ShutdownOptions {
  server: Server;
  entry: AppEntry;
  config: ServerConfig;
  log: Log;
}

export interface Shutdown {
  /** True once shutdown has begun. */
  readonly draining: boolean;
  /** Begins the shutdown once; every call answers the same outcome. */
  shutdown(): Promise<{ forced: boolean }>;
}

export function createShutdown({ server, entry, config, log }: ShutdownOptions): Shutdown {
  let draining = false;
  let shutdownPromise: Promise<{ forced: boolean }> | undefined;
  return {
    get draining() {
      return draining;
    },
    shutdown() {
      shutdownPromise ??= (async () => {
        draining = true;
        log("info", "shutting down", { timeoutMs: config.shutdownTimeoutMs });
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        let forced = false;
        const deadline = setTimeout(() => {
          forced = true;
          log("warn", "shutdown deadline reached; closing connections still open", {
            timeoutMs: config.shutdownTimeoutMs,
          });
          server.closeAllConnections();
        }, config.shutdownTimeoutMs);
        await closed;
        clearTimeout(deadline);
        try {
          await entry.shutdown();
        } catch (error) {
          log("error", "app shutdown hook failed", { error: errorFields(error) });
        }
        log("info", "stopped", { forced });
        return { forced };
      })();
      return shutdownPromise;
    },
  };
}

/**
 * SIGTERM or SIGINT: a graceful shutdown, then `exit(0)` (1 when connections had to be cut). A
 * second signal during the drain exits at once.
 */
export function exitOnSignals(
  appServer: { log: Log; shutdown(): Promise<{ forced: boolean }> },
  exit: (code: number) => void = (code) => process.exit(code),
): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      appServer.log("warn", "second signal; exiting now", { signal });
      exit(1);
      return;
    }
    stopping = true;
    appServer.log("info", "signal received", { signal });
    appServer.shutdown().then(
      ({ forced }) => exit(forced ? 1 : 0),
      () => exit(1),
    );
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
}
