import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from "node:http";

/**
 * KEEP_ALIVE_TIMEOUT_MS is how long (ms) an idle keep-alive connection stays open: longer than
 * the idle timeouts of the proxies and load balancers put in front (60 s for nginx's upstream
 * keep-alive and most cloud balancers), so the server never closes a connection that a client
 * is reusing at that moment. Node's default, 5 s, lost such requests with ECONNRESET when a
 * busy event loop read the reused connection after its timer had fired.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/**
 * createHttpServer makes the process's node:http server, the full app's and an edge's alike,
 * with the keep-alive timeout above (and the headers timeout just past it, as Node requires).
 */
export function createHttpServer(
  listener: (request: IncomingMessage, response: ServerResponse) => void,
): Server {
  const server = createServer(listener as RequestListener);
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
  return server;
}
