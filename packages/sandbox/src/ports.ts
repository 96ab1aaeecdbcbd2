import { createServer } from "node:net";

/** A loopback port nothing listens on right now: `preferred` when it is free, any other otherwise. */
export async function freePort(preferred?: number): Promise<number> {
  if (preferred !== undefined) {
    const port = await listenOnce(preferred).catch(() => undefined);
    if (port !== undefined) return port;
  }
  return listenOnce(0);
}

function listenOnce(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      const { port: bound } = server.address() as { port: number };
      server.close(() => resolve(bound));
    });
  });
}
