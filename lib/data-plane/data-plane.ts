import type { IncomingMessage, ServerResponse } from "node:http";
import type { Env } from "@/lib/env";
import { problemAnswer } from "./answer";
import {
  answerBatch,
  answerDecision,
  type DecisionCall,
  type DecisionRuntime,
} from "./decision-api";
import { createGateway, GATEWAY_PREFIX, type GatewayConfig } from "./gateway";
import { BodyAborted, readBody, writeAnswer } from "./node-io";

/** DECISIONS_PATH and BATCH_PATH are the decision API's routes. */
export const DECISIONS_PATH = "/api/v1/decisions";
export const BATCH_PATH = "/api/v1/decisions/batch";

/**
 * DataPlane answers the decision API and the gateway on plain node:http, before (and instead of)
 * Next: `handles` says whether a request is one of its paths, `serve` answers it.
 */
export interface DataPlane {
  handles(request: IncomingMessage): boolean;
  serve(request: IncomingMessage, response: ServerResponse): Promise<void>;
}

/** DataPlaneOptions: the gateway's configuration, when GATEWAY_UPSTREAM is set. */
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
    },
  };
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

function callOf(request: IncomingMessage): DecisionCall {
  return {
    authorization: request.headers.authorization,
    contentType: request.headers["content-type"],
    read: (maxBytes) => readBody(request, maxBytes),
  };
}

/**
 * createDataPlane builds the data plane over the process's runtime: the decision API
 * (POST /api/v1/decisions and /api/v1/decisions/batch) and, when configured, the gateway under
 * /gw/. It reads only memory (the policy snapshot, the buckets) or Redis, never SQLite.
 */
export function createDataPlane(rt: DecisionRuntime, options: DataPlaneOptions = {}): DataPlane {
  const gateway = options.gateway ? createGateway(rt, options.gateway) : undefined;
  return {
    handles(request) {
      const path = pathOf(request.url ?? "/");
      return path === DECISIONS_PATH || path === BATCH_PATH || isGateway(path);
    },
    async serve(request, response) {
      const path = pathOf(request.url ?? "/");
      if (isGateway(path)) {
        if (gateway) return gateway(request, response);
        return writeAnswer(
          response,
          problemAnswer(404, "Gateway not configured", {
            detail: "Set GATEWAY_UPSTREAM to the API the gateway fronts.",
          }),
        );
      }
      if (request.method !== "POST") {
        return writeAnswer(
          response,
          problemAnswer(405, "Method not allowed", { detail: "Use POST." }, { Allow: "POST" }),
        );
      }
      try {
        const answer =
          path === BATCH_PATH
            ? await answerBatch(rt, callOf(request))
            : await answerDecision(rt, callOf(request));
        writeAnswer(response, answer);
      } catch (error) {
        // The client left mid-body: there is nobody to answer.
        if (error instanceof BodyAborted) response.destroy();
        else throw error;
      }
    },
  };
}
