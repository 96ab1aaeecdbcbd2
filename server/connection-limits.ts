// The connections the server takes: MAX_CONNECTIONS in all, a share per client address, and an
// answer to the requests node refuses before any handler runs.
import type { Server } from "node:http";
import type { Socket } from "node:net";
import type { LogFields, LogLevel } from "../app/lib/json-log";
import { normaliseAddress } from "./access-log";
import type { ServerConfig } from "./config";
import type { HttpMetrics } from "./http-metrics";
import { envelope } from "./refusals";

interface ConnectionLimitsOptions {
  server: Server;
  config: ServerConfig;
  metrics: HttpMetrics;
  log: (level: LogLevel, msg: string, fields?: LogFields) => void;
}

/**
 * Applies the limits to `server`; what it returns is told when a socket's request headers have
 * all arrived (the socket no longer counts as pending).
 */
export function limitConnections({ server, config, metrics, log }: ConnectionLimitsOptions): {
  headersArrived(socket: Socket): void;
} {
  server.maxConnections = config.maxConnections;

  let lastDropLog = 0;
  const connectionDropped = (fields: LogFields) => {
    metrics.connectionDropped();
    if (Date.now() - lastDropLog > 60_000) {
      lastDropLog = Date.now();
      log("warn", "connection dropped", fields);
    }
  };
  server.on("drop", () =>
    connectionDropped({ reason: "MAX_CONNECTIONS reached", maxConnections: config.maxConnections }),
  );

  // Connections per peer address: all those open, and those that have not sent a whole request's
  // headers yet. A client holding connections open (headers that never finish, bodies dripped in
  // past their signature check and the next request on the same socket) could fill MAX_CONNECTIONS
  // alone and starve everyone else; past either share its new connections are closed at once.
  // The pending share is the tighter one: the platform's app proxy, a load balancer or a browser
  // sends a request's headers in one write, so they never come near it, while the open share
  // leaves room for the app proxy, from which all storefront traffic arrives over a few addresses.
  // Behind a trusted proxy the peer is the proxy, so neither share is applied there (docs/deploy.md).
  const perAddress = new Map<string, { open: number; pending: number }>();
  const settlePending = new WeakMap<Socket, () => void>();
  if (config.trustProxy === 0) {
    server.on("connection", (socket: Socket) => {
      const address = normaliseAddress(socket.remoteAddress) ?? "unknown";
      const counts = perAddress.get(address) ?? { open: 0, pending: 0 };
      const full =
        counts.pending >= config.maxPendingPerClient
          ? { reason: "MAX_PENDING_PER_CLIENT reached", maxPendingPerClient: config.maxPendingPerClient }
          : counts.open >= config.maxConnectionsPerClient
            ? { reason: "MAX_CONNECTIONS_PER_CLIENT reached", maxConnectionsPerClient: config.maxConnectionsPerClient }
            : undefined;
      if (full) {
        socket.destroy();
        connectionDropped({ ...full, clientAddress: address });
        return;
      }
      counts.open++;
      counts.pending++;
      perAddress.set(address, counts);
      let pending = true;
      const settle = () => {
        if (!pending) return;
        pending = false;
        counts.pending--;
      };
      settlePending.set(socket, settle);
      socket.once("close", () => {
        settle();
        if (--counts.open === 0) perAddress.delete(address);
      });
    });
  }

  // Requests node refuses before any handler runs (headers too slow or too large, malformed). The
  // raw request (error.rawPacket) is never logged: it holds the URL with its query string.
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    const [status, text, message] =
      error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, "Request Timeout", "Request not received in time"]
        : error.code === "HPE_HEADER_OVERFLOW"
          ? [431, "Request Header Fields Too Large", "Request headers too large"]
          : [400, "Bad Request", "Malformed request"];
    log("warn", "client error", { status, code: error.code });
    // As node does: answer only on a connection that has not been written to (no response under way).
    if (socket.bytesWritten === 0) {
      const body = envelope("VALIDATION_ERROR", message);
      socket.write(
        `HTTP/1.1 ${status} ${text}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy();
  });

  return { headersArrived: (socket) => settlePending.get(socket)?.() };
}
