import type { IncomingMessage, ServerResponse } from "node:http";
import type { Env } from "@/lib/env";
import { countOf } from "@/lib/format";
import { type HttpAnswer, problemAnswer, tooLargeAnswer } from "@/lib/http/answer";
import { type FailedRequest, failedRequest } from "@/lib/http/internal-error";
import { readBody, writeAnswer } from "@/lib/http/node-io";
import {
  admitCall,
  answerBody,
  bodyLimitOf,
  type DecisionKind,
  type DecisionRuntime,
} from "./decision-api";
import { createGateway, GATEWAY_PREFIX, type GatewayConfig, type GatewayRuntime } from "./gateway";
import { upstreamName } from "./gateway-failures";
import { answerServiceToken, SERVICE_TOKEN_PATH } from "./service-token-answer";

/** DECISIONS_PATH and BATCH_PATH are the decision API's routes. */
export const DECISIONS_PATH = "/api/v1/decisions";
export const BATCH_PATH = "/api/v1/decisions/batch";

/**
 * DataPlane answers the decision API and the gateway on plain node:http, before (and instead of)
 * Next: `handles` says whether a request is one of its paths, `serve` answers it.
 */
export interface DataPlane {
  handles(request: IncomingMessage): boolean;
  serve(request: IncomingMessage, response: ServerResponse): void;
}

/** DataPlaneOptions: the gateway's configuration (when GATEWAY_UPSTREAM is set). */
export interface DataPlaneOptions {
  gateway?: GatewayConfig;
}

/** dataPlaneOptionsOf reads the data plane's settings from the validated environment. */
export function dataPlaneOptionsOf(env: Env): DataPlaneOptions {
  if (!env.GATEWAY_UPSTREAM) return {};
  return {
    gateway: {
      upstream: new URL(env.GATEWAY_UPSTREAM),
      timeoutMs: env.GATEWAY_TIMEOUT_MS,
      maxBodyBytes: env.GATEWAY_MAX_BODY,
      trustProxy: env.TRUST_PROXY,
    },
  };
}

/** gatewayStartLine is the start-up line of a process whose gateway is on: where /gw/ forwards. */
export function gatewayStartLine(config: GatewayConfig): string {
  const trust = config.trustProxy ?? 0;
  return (
    `Gateway on: ${GATEWAY_PREFIX}/* forwards admitted requests to ${upstreamName(config.upstream)} ` +
    `(timeout ${config.timeoutMs} ms, bodies up to ${countOf(config.maxBodyBytes, "byte")}, ` +
    `${trust === 0 ? "no proxy trusted" : `${countOf(trust, "proxy", "proxies")} trusted`}).`
  );
}

function pathOf(url: string): string {
  const query = url.indexOf("?");
  return query < 0 ? url : url.slice(0, query);
}

function isGateway(path: string): boolean {
  return (
    path.startsWith(GATEWAY_PREFIX) &&
    (path.length === GATEWAY_PREFIX.length || path[GATEWAY_PREFIX.length] === "/")
  );
}

/**
 * serveDecisions answers a call to the decision API: 405, 401, 415 and 413 before the body is
 * read, then `answerBody`. In memory nothing here makes a Promise (with Redis, a decision does):
 * in a process that also runs Next, whose async context tracking taxes every Promise, that is
 * a good part of a decision's cost.
 */
function serveDecisions(
  rt: DecisionRuntime,
  kind: DecisionKind,
  request: IncomingMessage,
  response: ServerResponse,
  failed: FailedRequest,
): void {
  if (request.method !== "POST") {
    writeAnswer(
      response,
      problemAnswer(405, "Method not allowed", { detail: "Use POST." }, { Allow: "POST" }),
    );
    return;
  }
  const gate = admitCall(rt, request.headers.authorization, request.headers["content-type"]);
  if (!gate.ok) {
    writeAnswer(response, gate.answer);
    return;
  }
  const maxBytes = bodyLimitOf(kind);
  const write = (answer: HttpAnswer) => writeAnswer(response, answer);
  readBody(request, maxBytes, {
    tooLarge: () => write(tooLargeAnswer(maxBytes)),
    aborted: () => response.destroy(),
    text: (text) => {
      try {
        const answer = answerBody(rt, kind, gate.token, text);
        if (answer instanceof Promise) {
          answer.then(write, (cause: unknown) => failed(request, response, cause));
        } else write(answer);
      } catch (cause) {
        failed(request, response, cause);
      }
    },
  });
}

/**
 * policyMissing is the 503 of an edge that has not loaded the policy yet: without it every key
 * would look unknown. Retry-After: 1, since an edge checks for the snapshot every second.
 */
const policyMissing: HttpAnswer = problemAnswer(
  503,
  "Policy not loaded",
  {
    detail:
      "This edge has not read the policy from Redis yet: Redis is unreachable, or the control plane " +
      "has not written the policy there. It decides as soon as it can read it.",
  },
  { "Retry-After": "1" },
);

/**
 * createDataPlane builds the data plane over the process's runtime: the decision API
 * (POST /api/v1/decisions and /api/v1/decisions/batch, GET /api/v1/service-token) and, when
 * configured, the gateway under /gw/, saying so in one log line that names the upstream. It reads
 * only memory (the policy snapshot, the buckets) or Redis, never SQLite.
 */
export function createDataPlane(rt: GatewayRuntime, options: DataPlaneOptions = {}): DataPlane {
  const gateway = options.gateway ? createGateway(rt, options.gateway) : undefined;
  if (options.gateway) rt.log.info(gatewayStartLine(options.gateway));
  // What throws (a bug) gets the house's one 500, its cause in the runtime's log.
  const failed = failedRequest(rt.log);
  return {
    handles(request) {
      const path = pathOf(request.url ?? "/");
      return (
        path === DECISIONS_PATH ||
        path === BATCH_PATH ||
        path === SERVICE_TOKEN_PATH ||
        isGateway(path)
      );
    },
    serve(request, response) {
      // Whatever throws (a bug) is answered here: nothing may escape to the server's socket.
      try {
        const path = pathOf(request.url ?? "/");
        if (!rt.policy.loaded) {
          // An edge whose policy is still empty would call every key and token unknown.
          writeAnswer(response, policyMissing);
          return;
        }
        if (path === DECISIONS_PATH || path === BATCH_PATH) {
          serveDecisions(rt, path === BATCH_PATH ? "batch" : "single", request, response, failed);
        } else if (path === SERVICE_TOKEN_PATH) {
          writeAnswer(
            response,
            answerServiceToken(rt, request.method, request.headers.authorization),
          );
        } else if (gateway) {
          gateway(request, response)?.catch((cause: unknown) => failed(request, response, cause));
        } else {
          writeAnswer(
            response,
            problemAnswer(404, "Gateway not configured", {
              detail: "Set GATEWAY_UPSTREAM to the API the gateway fronts.",
            }),
          );
        }
      } catch (cause) {
        failed(request, response, cause);
      }
    },
  };
}
