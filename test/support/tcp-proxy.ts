import { once } from "node:events";
import net from "node:net";

/**
 * TcpProxy forwards TCP connections from a loopback port to a target port, and can hold the
 * link: while held, the bytes of every connection, both ways, wait in the proxy (the connections
 * stay open), and `release` forwards them in the order they came, as a partition that TCP
 * outlasts delivers them late.
 */
export interface TcpProxy {
  port: number;
  /** url is a redis:// URL for the proxy's port. */
  url: string;
  /** hold stops forwarding: bytes wait in the proxy from now on. */
  hold(): void;
  /** release forwards what waited, in order, and forwards again from then on. */
  release(): void;
  /** heldBytes is how many bytes wait in the proxy now. */
  heldBytes(): number;
  /** close drops every connection and stops listening. */
  close(): Promise<void>;
}

/** startTcpProxy forwards 127.0.0.1:<a free port> to 127.0.0.1:`targetPort`. */
export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  let holding = false;
  const held: { to: net.Socket; chunk: Buffer }[] = [];
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  };
  const forward = (from: net.Socket, to: net.Socket) => {
    from.on("data", (chunk: Buffer) => {
      if (holding) held.push({ to, chunk });
      else to.write(chunk);
    });
    from.on("close", () => to.destroy());
    from.on("error", () => to.destroy());
  };
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, "127.0.0.1");
    track(client);
    track(upstream);
    forward(client, upstream);
    forward(upstream, client);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    hold() {
      holding = true;
    },
    release() {
      holding = false;
      for (const { to, chunk } of held.splice(0)) if (!to.destroyed) to.write(chunk);
    },
    heldBytes: () => held.reduce((sum, { chunk }) => sum + chunk.length, 0),
    async close() {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, "close");
    },
  };
}
