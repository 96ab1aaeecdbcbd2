import net from "node:net";

/**
 * A TCP relay in front of a server (Redis, PostgreSQL) that can be cut and restored, to take the
 * server away from the app and give it back without touching the server the other tests use.
 * `target` is a URL with an explicit port; the relay's URL is the same with the relay's address.
 */
export async function createRelay(
  target: string,
): Promise<{ url: string; cut(): Promise<void>; restore(): Promise<void> }> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((inbound) => {
    const outbound = net.connect(Number(port), hostname);
    for (const socket of [inbound, outbound]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => {
        inbound.destroy();
        outbound.destroy();
      });
    }
    inbound.pipe(outbound).pipe(inbound);
  });
  const listen = (listenPort: number) =>
    new Promise<number>((resolve) =>
      server.listen(listenPort, "127.0.0.1", () => resolve((server.address() as net.AddressInfo).port)),
    );
  const relayPort = await listen(0);
  const url = new URL(target);
  url.hostname = "127.0.0.1";
  url.port = String(relayPort);
  return {
    url: url.toString(),
    async cut() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
    async restore() {
      await listen(relayPort);
    },
  };
}
