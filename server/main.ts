// The server entry: one process, one runtime. It reads the socket (the client's address), answers
// the data plane's paths itself, and hands every other request to Next. `npm start` runs its
// build (dist/server.mjs); `npm run dev` runs it with Next in development mode.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import next from "next";
import { getEnv } from "@/lib/env";
import { CLIENT_ADDRESS_HEADER, resolveClientAddress } from "@/lib/route/client-address";
import { getRuntime } from "@/lib/runtime";

const dev = process.argv.includes("--dev");
const env = getEnv();
// The runtime first: it migrates and seeds the database and prints the one-time secrets, and
// Next's route handlers find it on globalThis.
const runtime = getRuntime();

const app = next({ dev, hostname: env.HOST, port: env.PORT, dir: process.cwd() });
const handle = app.getRequestHandler();

/** stamp replaces whatever a client claims in the internal address header with the real one. */
function stamp(request: IncomingMessage): void {
  request.headers[CLIENT_ADDRESS_HEADER] = resolveClientAddress(
    request.socket.remoteAddress,
    request.headers["x-forwarded-for"],
    env.TRUST_PROXY,
  );
}

async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
  stamp(request);
  await handle(request, response);
}

await app.prepare();
const server = createServer((request, response) => {
  serve(request, response).catch((cause: unknown) => {
    runtime.log.error(`${request.method} ${request.url} failed`, cause);
    if (!response.headersSent) {
      response.writeHead(500, { "Content-Type": "application/problem+json" });
      response.end(JSON.stringify({ type: "about:blank", title: "Internal error", status: 500 }));
    } else {
      response.destroy();
    }
  });
});
server.listen(env.PORT, env.HOST, () => {
  runtime.log.info(`Listening on http://${env.HOST}:${env.PORT}${dev ? " (development)" : ""}`);
});

/** STOP_GRACE_MS bounds how long a stop waits for open connections before it flushes and exits. */
const STOP_GRACE_MS = 10_000;

let stopping = false;
/**
 * stop closes the listener, waits for the requests in flight (at most STOP_GRACE_MS), then
 * flushes the usage counts still in memory and closes the runtime before exiting: what a stop
 * loses is nothing, where a crash loses at most the last flush interval's counts.
 */
async function stop(signal: NodeJS.Signals): Promise<void> {
  if (stopping) return;
  stopping = true;
  runtime.log.info(`${signal}: closing.`);
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // Keep-alive connections would hold close() open; end the idle ones, and give up waiting later.
  server.closeIdleConnections();
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    closed,
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, STOP_GRACE_MS);
    }),
  ]);
  clearTimeout(timer);
  try {
    await runtime.shutdown();
  } catch (cause) {
    runtime.log.error("Closing failed", cause);
  }
  process.exit(0);
}
process.on("SIGTERM", (signal) => void stop(signal));
process.on("SIGINT", (signal) => void stop(signal));
