import { once } from "node:events";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

/** Listening is a server started on 127.0.0.1 and a free port. */
export interface Listening {
  url: string;
  /** close stops accepting, ends idle keep-alive connections and waits for the server to close. */
  close(): Promise<void>;
}

/** listen starts `server` on 127.0.0.1 and a port the OS picks, and resolves once it listens. */
export async function listen(server: Server): Promise<Listening> {
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      const closed = once(server, "close");
      server.close();
      server.closeAllConnections();
      await closed;
    },
  };
}
