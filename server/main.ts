// The server entry: one process, one runtime. It reads the socket (the client's address), answers
// the data plane's paths itself (lib/data-plane: the decision API and the gateway, on plain
// node:http, without Next's per-request cost), and hands every other request to Next.
// `npm start` runs its build (dist/server.mjs); `npm run dev` runs it with Next in development mode.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import next from "next";
import { createDataPlane, dataPlaneOptionsOf } from "@/lib/data-plane/data-plane";
import { getEnv } from "@/lib/env";
import { CLIENT_ADDRESS_HEADER, resolveClientAddress } from "@/lib/route/client-address";
import { getRuntime } from "@/lib/runtime";

const dev = process.argv.includes("--dev");
const env = getEnv();
// The runtime first: it migrates and seeds the database and prints the one-time secrets, and
// Next's route handlers find it on globalThis.
const runtime = getRuntime();
const dataPlane = createDataPlane(runtime, dataPlaneOptionsOf(env));

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
  if (dataPlane.handles(request)) return dataPlane.serve(request, response);
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

let stopping = false;
function stop(signal: NodeJS.Signals): void {
  if (stopping) return;
  stopping = true;
  runtime.log.info(`${signal}: closing.`);
  server.close(() => {
    runtime.close();
    process.exit(0);
  });
  // Keep-alive connections would hold close() open; end the idle ones, and give up after 10 s.
  server.closeIdleConnections();
  setTimeout(() => process.exit(0), 10_000).unref();
}
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
