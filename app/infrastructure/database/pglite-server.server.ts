import { errorFields, writeLog } from "~/lib/json-log";
import net from "node:net";
import type { PGlite } from "@electric-sql/pglite";

// PGlite is one PostgreSQL session, so several client connections can share it only if each one's
// work runs as a unit: an extended-protocol batch (Parse/Bind/Describe/Execute up to its Sync)
// keeps its unnamed statement and portal in the session until Sync, and an open transaction keeps
// the session until it ends. @electric-sql/pglite-socket 0.2 interleaves batches message by message
// and stops serving for good after one internal error (electric-sql/pglite#1046), hence this server.

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const SYNC = 0x53; // "S"
const QUERY = 0x51; // "Q"
const FLUSH = 0x48; // "H"
const TERMINATE = 0x58; // "X"

function frontendMessage(type: number, body: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.writeUInt8(type, 0);
  header.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
}

// Ends whatever a connection that went away left in the session: an unfinished batch (Sync), then
// its transaction (ROLLBACK only warns when there is none).
const RELEASE_SESSION = [frontendMessage(SYNC, Buffer.alloc(0)), frontendMessage(QUERY, Buffer.from("ROLLBACK\0"))];

interface Connection {
  socket: net.Socket;
  buffer: Buffer;
  started: boolean;
  /** Messages received since the last unit boundary. */
  pending: Buffer[];
  closed: boolean;
}

interface Unit {
  connection: Connection;
  messages: Buffer[];
  /** Ends with Sync or a simple query: the session is back at ReadyForQuery after it. */
  complete: boolean;
}

export interface PGliteServer {
  port: number;
  /** Closes every connection and waits for the unit being executed; the PGlite stays open. */
  close(): Promise<void>;
}

/** Serves a PGlite over the PostgreSQL wire protocol (trust authentication) on host:port. */
export async function servePGlite(db: PGlite, options: { host: string; port: number }): Promise<PGliteServer> {
  const connections = new Set<Connection>();
  const waiting: Unit[] = [];
  // The connection whose transaction, or unfinished batch, holds the session: only it may run next.
  let owner: Connection | undefined;
  let draining: Promise<void> | undefined;

  async function execute(connection: Connection, messages: Buffer[], reply: boolean): Promise<void> {
    await db.runExclusive(async () => {
      for (const message of messages) {
        await db.execProtocolRawStream(message, {
          onRawData: (data) => {
            if (reply && !connection.closed) connection.socket.write(Buffer.from(data));
          },
        });
      }
    });
  }

  function runnable(): boolean {
    return owner ? owner.closed || waiting.some((unit) => unit.connection === owner) : waiting.length > 0;
  }

  async function drainQueue(): Promise<void> {
    while (runnable()) {
      if (owner?.closed) {
        const gone = owner;
        owner = undefined;
        await execute(gone, RELEASE_SESSION, false);
        continue;
      }
      const index = owner ? waiting.findIndex((unit) => unit.connection === owner) : 0;
      const [unit] = waiting.splice(index, 1);
      if (!unit || unit.connection.closed) continue;
      try {
        await execute(unit.connection, unit.messages, true);
      } catch (error) {
        // PostgreSQL's own errors are answered in the protocol; a throw means these bytes could
        // not be handled at all, so this connection ends and the others go on.
        drop(unit.connection, error as Error);
      }
      owner = db.isInTransaction() || !unit.complete ? unit.connection : undefined;
    }
  }

  function drain(): void {
    draining ??= drainQueue()
      .catch((error: unknown) =>
        writeLog("error", "embedded PostgreSQL failed to release a session", { error: errorFields(error) }),
      )
      .finally(() => {
        draining = undefined;
        if (runnable()) drain();
      });
  }

  function drop(connection: Connection, error?: Error): void {
    if (connection.closed) return;
    connection.closed = true;
    connections.delete(connection);
    connection.socket.destroy(error);
    if (owner === connection) drain();
  }

  function submit(connection: Connection, complete: boolean): void {
    waiting.push({ connection, messages: connection.pending, complete });
    connection.pending = [];
    drain();
  }

  /** The next whole message in the buffer, or undefined until more bytes arrive. */
  function nextMessage(connection: Connection): Buffer | undefined {
    const { buffer } = connection;
    const typed = connection.started ? 1 : 0;
    if (buffer.length < typed + 4) return undefined;
    const length = typed + buffer.readInt32BE(typed);
    if (length < typed + 4) throw new Error("malformed PostgreSQL message");
    if (buffer.length < length) return undefined;
    connection.buffer = buffer.subarray(length);
    return buffer.subarray(0, length);
  }

  function receive(connection: Connection, message: Buffer): void {
    if (!connection.started) {
      const code = message.length >= 8 ? message.readInt32BE(4) : 0;
      if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
        connection.socket.write("N"); // loopback only: no encryption
      } else if (code === CANCEL_REQUEST) {
        drop(connection); // one session: there is no separate backend to cancel
      } else {
        connection.started = true;
        connection.pending.push(message);
        submit(connection, true);
      }
      return;
    }
    const type = message.readUInt8(0);
    if (type === TERMINATE) return drop(connection);
    connection.pending.push(message);
    if (type === SYNC || type === QUERY) submit(connection, true);
    // A flush asks for the replies so far; the batch goes on, so its connection keeps the session.
    else if (type === FLUSH) submit(connection, false);
  }

  const server = net.createServer((socket) => {
    const connection: Connection = { socket, buffer: Buffer.alloc(0), started: false, pending: [], closed: false };
    connections.add(connection);
    socket.setNoDelay(true);
    socket.on("data", (chunk) => {
      connection.buffer = connection.buffer.length > 0 ? Buffer.concat([connection.buffer, chunk]) : chunk;
      try {
        for (let message = nextMessage(connection); message; message = nextMessage(connection)) {
          receive(connection, message);
          if (connection.closed) return;
        }
      } catch (error) {
        drop(connection, error as Error);
      }
    });
    socket.on("error", () => drop(connection));
    socket.on("close", () => drop(connection));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });

  return {
    port: (server.address() as net.AddressInfo).port,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const connection of connections) drop(connection);
      await closed;
      await draining;
    },
  };
}
