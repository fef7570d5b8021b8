import http, { type IncomingMessage, type ServerResponse } from "node:http";
import https from "node:https";
import { countOf } from "@/lib/format";
import { type HttpAnswer, problemAnswer } from "@/lib/http/answer";
import { normalizeAddress } from "@/lib/http/client-address";
import { writeAnswer } from "@/lib/http/node-io";
import type { UpstreamErrorKind } from "@/lib/metrics";
import type { CustomerPolicy } from "@/lib/policy/snapshot";
import type { GatewayConfig } from "./gateway";
import { causeOf, type UpstreamFailures, upstreamErrorKind } from "./gateway-failures";
import { clientResponseHeaders, upstreamRequestHeaders } from "./gateway-headers";

/** Forwarding is what forwarding one admitted request needs: who, where, and with what. */
export interface Forwarding {
  customer: CustomerPolicy;
  /**
   * rateLimit are the RateLimit fields the client gets, set over any the upstream sent: the
   * decision's, or none for an unmetered request.
   */
  rateLimit: Record<string, string>;
  path: string;
  agent: http.Agent;
  secure: boolean;
  config: GatewayConfig;
  failures: UpstreamFailures;
}

/**
 * bodiless says a request declares no body: neither Content-Length (or one of 0) nor
 * Transfer-Encoding. Node's parser holds a request to what it declares.
 */
export function bodiless(request: IncomingMessage): boolean {
  const { headers } = request;
  return (
    headers["transfer-encoding"] === undefined &&
    (headers["content-length"] === undefined || headers["content-length"] === "0")
  );
}

/**
 * forward sends an admitted request to the upstream. Until the upstream's answer starts, a
 * failure is answered here (502, 504, 413 for a body that outgrows the limit on the way);
 * after, the client's connection is cut, as the upstream's was. Each failure of the upstream
 * (not of the client) is reported once.
 */
export function forward(request: IncomingMessage, response: ServerResponse, f: Forwarding): void {
  const { upstream, timeoutMs, maxBodyBytes } = f.config;
  const { rateLimit } = f;
  const outgoing = (f.secure ? https : http).request({
    protocol: upstream.protocol,
    hostname: upstream.hostname,
    port: upstream.port || undefined,
    method: request.method,
    path: f.path,
    headers: upstreamRequestHeaders(request.headers, f.customer, {
      peer: normalizeAddress(request.socket.remoteAddress),
      encrypted: (request.socket as { encrypted?: boolean }).encrypted === true,
      trustProxy: f.config.trustProxy ?? 0,
    }),
    agent: f.agent,
  });
  let settled = false;
  let reported = false;
  /** report tells the log and the metrics of the upstream's failure, once per request. */
  const report = (kind: UpstreamErrorKind, cause: string, status: number) => {
    if (reported) return;
    reported = true;
    const query = f.path.indexOf("?");
    f.failures.report({
      kind,
      cause,
      status,
      method: request.method ?? "GET",
      path: query < 0 ? f.path : f.path.slice(0, query),
      customerId: f.customer.id,
    });
  };
  /** fail answers the client when nothing of the upstream's answer was sent yet. */
  const fail = (answer: HttpAnswer) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    outgoing.destroy();
    if (response.headersSent) response.destroy();
    else writeAnswer(response, answer);
  };
  const timer = setTimeout(() => {
    if (settled) return;
    report("timeout", `no answer within ${timeoutMs} ms`, 504);
    fail(
      problemAnswer(
        504,
        "Upstream timed out",
        { detail: `The upstream did not answer within ${timeoutMs} ms.` },
        rateLimit,
      ),
    );
  }, timeoutMs);

  outgoing.on("response", (answer) => {
    if (settled) {
      answer.destroy();
      return;
    }
    settled = true;
    clearTimeout(timer);
    // From here on, silence longer than the timeout cuts both connections.
    outgoing.setTimeout(timeoutMs, () => {
      report("timeout", `silent for ${timeoutMs} ms mid-answer`, 0);
      answer.destroy();
      response.destroy();
    });
    response.writeHead(
      answer.statusCode ?? 502,
      answer.statusMessage,
      clientResponseHeaders(answer.headers, rateLimit),
    );
    answer.pipe(response);
    answer.on("error", (error) => {
      // The client going away destroys the answer too: only the upstream's own cut is its failure.
      if (!response.destroyed) report(upstreamErrorKind(error), causeOf(error), 0);
      response.destroy();
    });
  });
  outgoing.on("error", (error) => {
    if (settled) return;
    report(upstreamErrorKind(error), causeOf(error), 502);
    fail(
      problemAnswer(
        502,
        "Upstream unreachable",
        { detail: "The upstream could not be reached or closed the connection." },
        rateLimit,
      ),
    );
  });
  // The client went away: the upstream need not finish.
  response.on("close", () => {
    if (!response.writableFinished) {
      settled = true;
      clearTimeout(timer);
      outgoing.destroy();
    }
  });

  if (bodiless(request)) {
    // Most gateway calls (GET, HEAD) send no body: nothing to stream, and Node discards the
    // request's end once the answer is finished.
    outgoing.end();
    return;
  }
  let size = 0;
  request.on("data", (chunk: Buffer) => {
    size += chunk.length;
    if (size > maxBodyBytes) {
      request.pause();
      fail(
        problemAnswer(
          413,
          "Body too large",
          { detail: `Send at most ${countOf(maxBodyBytes, "byte")}.` },
          rateLimit,
        ),
      );
      return;
    }
    if (!outgoing.write(chunk)) request.pause();
  });
  outgoing.on("drain", () => request.resume());
  request.on("end", () => outgoing.end());
  request.on("error", () => outgoing.destroy());
}
