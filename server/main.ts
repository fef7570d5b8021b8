// The server entry: one process, one runtime. It reads the socket (the client's address), sets
// the security headers on every answer, refuses request targets Next cannot route, answers the
// data plane's paths itself (lib/data-plane: the decision API and the gateway, on plain
// node:http, without Next's per-request cost), and hands every other request to Next.
// `npm start` runs its build (dist/server.mjs); `npm run dev` runs it with Next in development mode.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import next from "next";
import { createDataPlane, dataPlaneOptionsOf } from "@/lib/data-plane/data-plane";
import { getEnv } from "@/lib/env";
import { PROBLEM_CONTENT_TYPE, problemBody } from "@/lib/http";
import { CLIENT_ADDRESS_HEADER, resolveClientAddress } from "@/lib/route/client-address";
import { MALFORMED_PATH, malformedPath } from "@/lib/route/request-target";
import { newNonce, securityHeaders } from "@/lib/route/security-headers";
import { getRuntime } from "@/lib/runtime";

const dev = process.argv.includes("--dev");
const env = getEnv();
// The runtime first: it migrates and seeds the database and prints the one-time secrets, and
// Next's route handlers find it on globalThis.
const runtime = getRuntime();
const dataPlane = createDataPlane(runtime, { ...dataPlaneOptionsOf(env), failed });

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

/**
 * secure sets the security headers on the response, before anything answers it (Next keeps
 * headers already set). The request carries the same CSP: Next reads the nonce from the
 * request's Content-Security-Policy header and puts it on every script tag it renders.
 */
function secure(request: IncomingMessage, response: ServerResponse): void {
  const headers = securityHeaders(newNonce(), dev);
  for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
  delete request.headers["content-security-policy-report-only"];
  request.headers["content-security-policy"] = headers["Content-Security-Policy"];
}

/** sendProblem answers with an RFC 9457 problem body. */
function sendProblem(response: ServerResponse, status: number, title: string, detail: string) {
  response.writeHead(status, { "Content-Type": PROBLEM_CONTENT_TYPE });
  response.end(problemBody(status, title, { detail }));
}

async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
  secure(request, response);
  if (malformedPath(request.url ?? "/")) {
    // Regression: Next's router threw on these (`/api/admin/plans/%E0%A4%A`): a plain-text 500.
    sendProblem(response, MALFORMED_PATH.status, MALFORMED_PATH.title, MALFORMED_PATH.detail);
    return;
  }
  stamp(request);
  await handle(request, response);
}

/** failed answers a request whose handling threw: 500 with no internals; the cause is logged. */
function failed(request: IncomingMessage, response: ServerResponse, cause: unknown): void {
  runtime.log.error(`${request.method} ${request.url} failed`, cause);
  if (!response.headersSent) {
    sendProblem(response, 500, "Internal error", "The cause is in the server's log.");
  } else {
    response.destroy();
  }
}

await app.prepare();
const server = createServer((request, response) => {
  // The data plane's paths never reach Next, nor make a Promise here (see lib/data-plane, which
  // sets the security headers of an API answer on its own answers and checks its own paths).
  if (dataPlane.handles(request)) {
    stamp(request);
    dataPlane.serve(request, response);
    return;
  }
  serve(request, response).catch((cause: unknown) => failed(request, response, cause));
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
