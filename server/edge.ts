// An edge's server (RATEKEEPER_ROLE=edge): the data plane on plain node:http, with no database
// and no Next. It answers the decision API and the gateway (lib/data-plane), /api/health and
// /api/metrics; everything else is a 404 naming the control plane (lib/data-plane/edge-answers).
import type { IncomingMessage, ServerResponse } from "node:http";
import { createDataPlane, dataPlaneOptionsOf } from "@/lib/data-plane/data-plane";
import { notOnEdge } from "@/lib/data-plane/edge-answers";
import { healthOf } from "@/lib/data-plane/health";
import { getEnv } from "@/lib/env";
import { jsonAnswer, problemAnswer } from "@/lib/http/answer";
import { failedRequest } from "@/lib/http/internal-error";
import { writeAnswer } from "@/lib/http/node-io";
import { MALFORMED_PATH_ANSWER, malformedPath, pathOfTarget } from "@/lib/http/request-target";
import { edgeRuntimeOf } from "@/lib/runtime/edge";
import { createHttpServer } from "./http-server";
import { stopOnSignals } from "./stop";

const env = getEnv();
const runtime = edgeRuntimeOf(env);
const dataPlane = createDataPlane(runtime, dataPlaneOptionsOf(env));
const failed = failedRequest(runtime.log);

/** readOnly refuses what is not GET or HEAD on the edge's own read-only routes. */
function readOnly(request: IncomingMessage, response: ServerResponse): boolean {
  if (request.method === "GET" || request.method === "HEAD") return true;
  writeAnswer(
    response,
    problemAnswer(405, "Method not allowed", { detail: "Use GET." }, { Allow: "GET, HEAD" }),
  );
  return false;
}

async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = request.url ?? "/";
  if (malformedPath(url)) {
    writeAnswer(response, MALFORMED_PATH_ANSWER);
    return;
  }
  // No client address is read here: no path of an edge uses one (the gateway writes its
  // forwarding fields from the socket itself).
  if (dataPlane.handles(request)) {
    dataPlane.serve(request, response);
    return;
  }
  const path = pathOfTarget(url);
  if (path === "/api/health") {
    if (!readOnly(request, response)) return;
    const health = healthOf(runtime);
    writeAnswer(response, jsonAnswer(health.status, JSON.stringify(health.body)));
  } else if (path === "/api/metrics") {
    if (!readOnly(request, response)) return;
    const { registry } = runtime.metrics;
    const text = await registry.metrics();
    writeAnswer(response, {
      status: 200,
      headers: { "Content-Type": registry.contentType, "Cache-Control": "no-store" },
      body: text,
    });
  } else {
    writeAnswer(response, notOnEdge(path, env.CONTROL_PLANE_URL));
  }
}

const server = createHttpServer((request, response) => {
  serve(request, response).catch((cause: unknown) => failed(request, response, cause));
});
server.listen(env.PORT, env.HOST, () => {
  runtime.log.info(`Edge listening on http://${env.HOST}:${env.PORT}`);
});

stopOnSignals(server, runtime);
