// The full app's server (server/main.ts starts it unless RATEKEEPER_ROLE=edge): one process, one
// runtime. It reads the socket (the client's address), sets the security headers on every answer, refuses request targets Next cannot route, answers the
// data plane's paths itself (lib/data-plane: the decision API and the gateway, on plain
// node:http, without Next's per-request cost), and hands every other request to Next (an API
// answer's head made plain: lib/http/api-head.ts).
// `npm start` runs its build (dist/server.mjs); `npm run dev` runs it with Next in development mode.
import type { IncomingMessage, ServerResponse } from "node:http";
import { createDataPlane, dataPlaneOptionsOf } from "@/lib/data-plane/data-plane";
import { getEnv } from "@/lib/env";
import { isApiTarget, plainApiHead } from "@/lib/http/api-head";
import { CLIENT_ADDRESS_HEADER, resolveClientAddress } from "@/lib/http/client-address";
import { failedRequest } from "@/lib/http/internal-error";
import { writeAnswer } from "@/lib/http/node-io";
import {
  MALFORMED_PATH_ANSWER,
  malformedPath,
  REQUEST_TARGET_HEADER,
} from "@/lib/http/request-target";
import { newNonce, securityHeaders } from "@/lib/http/security-headers";
import { getRuntime } from "@/lib/runtime";
import { createHttpServer } from "./http-server";
import { stopOnSignals } from "./stop";

const dev = process.argv.includes("--dev");
const env = getEnv();
// The runtime first: it migrates and seeds the database and prints the one-time secrets, and
// Next's route handlers find it on globalThis.
const runtime = getRuntime();
const dataPlane = createDataPlane(runtime, dataPlaneOptionsOf(env));
const failed = failedRequest(runtime.log);

// Loaded here, not by the entry: an edge never loads Next.
const { default: next } = await import("next");
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

async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
  secure(request, response);
  if (malformedPath(request.url ?? "/")) {
    // Regression: Next's router threw on these (`/api/admin/plans/%E0%A4%A`): a plain-text 500.
    writeAnswer(response, MALFORMED_PATH_ANSWER);
    return;
  }
  stamp(request);
  // An API answer's head reads like the data plane's: no Vary on Next's router headers, no-store.
  if (isApiTarget(request.url ?? "/")) plainApiHead(response);
  // The dashboard's layout sends a signed-out visit to sign in with this target as `next`.
  request.headers[REQUEST_TARGET_HEADER] = request.url ?? "/";
  await handle(request, response);
}

await app.prepare();
const server = createHttpServer((request, response) => {
  // The data plane's paths never reach Next, nor make a Promise here (see lib/data-plane, which
  // sets the security headers of an API answer on its own answers and checks its own paths). It
  // reads no client address: the gateway writes its forwarding fields from the socket itself.
  if (dataPlane.handles(request)) {
    dataPlane.serve(request, response);
    return;
  }
  serve(request, response).catch((cause: unknown) => failed(request, response, cause));
});
server.listen(env.PORT, env.HOST, () => {
  runtime.log.info(`Listening on http://${env.HOST}:${env.PORT}${dev ? " (development)" : ""}`);
});

stopOnSignals(server, runtime);
