import http, { type IncomingMessage, type ServerResponse } from "node:http";
import https from "node:https";
import { countOf } from "@/lib/format";
import { type HttpAnswer, problemAnswer, refusalAnswer } from "@/lib/http/answer";
import type { TrustProxy } from "@/lib/http/client-address";
import { writeAnswer } from "@/lib/http/node-io";
import { malformedPath } from "@/lib/http/request-target";
import type { Logger } from "@/lib/log";
import { readBearer } from "@/lib/policy/api-key";
import { decide, identify, type Verdict } from "@/lib/policy/decide";
import type { Decision } from "@/lib/policy/decision-store";
import { rateLimitHeaders } from "@/lib/policy/headers";
import { authorizationRefusal, identityRefusal, refusalOf } from "@/lib/policy/refusal";
import { routeEffect } from "@/lib/policy/route-rules";
import type { DecisionRuntime } from "./decision-api";
import { UpstreamFailures } from "./gateway-failures";
import { forward } from "./gateway-forward";

/** GATEWAY_PREFIX is the path under which requests go to the upstream (with the prefix taken off). */
export const GATEWAY_PREFIX = "/gw";

/** GatewayConfig says where the gateway forwards and its bounds. */
export interface GatewayConfig {
  /** upstream is the API's base URL (http or https, an optional path, no trailing slash). */
  upstream: URL;
  /** timeoutMs bounds the wait for the upstream's answer (504 past it) and any silence after. */
  timeoutMs: number;
  /** maxBodyBytes is the largest request body forwarded (413 over it). */
  maxBodyBytes: number;
  /**
   * trustProxy is how many proxies in front of the app to believe (TRUST_PROXY, 0 by default):
   * behind a trusted one, X-Forwarded-For is appended to and its X-Forwarded-Proto and -Host kept.
   */
  trustProxy?: TrustProxy;
}

/** GatewayRuntime is what the gateway needs of the process: deciding, and a log for failures. */
export interface GatewayRuntime extends DecisionRuntime {
  log: Logger;
}

// A path with a dot segment could climb above the upstream's base path.
const DOT_SEGMENT = /(^|\/)(\.|%2e){1,2}(\/|$)/i;

/**
 * Gateway forwards admitted requests to the upstream and streams the answers back; it returns
 * a Promise only when the decision is made in Redis.
 */
export type Gateway = (request: IncomingMessage, response: ServerResponse) => void | Promise<void>;

/**
 * createGateway returns the gateway: each request under /gw/ is authenticated with the
 * customer's Bearer key, decided as its first matching route rule says (the policy's; its class
 * and cost, or unmetered: forwarded with no decision and no token), or with no rule as the
 * protected routes decide (GET and HEAD read, others write, one token), and only when admitted
 * forwarded to the upstream, body streamed both ways.
 * Refusals are the protected routes' own. An admitted request has spent its token whatever the
 * upstream then does: 502 when it cannot be reached, 504 when it does not answer in time; each
 * such failure is logged once and counted in `ratekeeper_gateway_upstream_errors_total{kind}`.
 */
export function createGateway(rt: GatewayRuntime, config: GatewayConfig): Gateway {
  const secure = config.upstream.protocol === "https:";
  const agent = secure
    ? new https.Agent({ keepAlive: true, scheduling: "lifo" })
    : new http.Agent({ keepAlive: true, scheduling: "lifo" });
  const basePath = config.upstream.pathname.replace(/\/+$/, "");

  const failures = new UpstreamFailures(rt.log, rt.metrics, config.upstream);
  const forwarding = { agent, secure, config, failures };
  return (request, response) => {
    const url = request.url ?? "/";
    let rest = url.slice(GATEWAY_PREFIX.length);
    if (rest === "" || rest.startsWith("?")) rest = `/${rest}`;
    const query = rest.indexOf("?");
    const path = query < 0 ? rest : rest.slice(0, query);
    if (DOT_SEGMENT.test(path) || malformedPath(path)) {
      writeAnswer(
        response,
        problemAnswer(400, "Invalid path", {
          detail: "Paths must be valid percent-encoding, without . or .. segments.",
        }),
      );
      return;
    }
    const bearer = readBearer(request.headers.authorization);
    if (!bearer.ok) {
      writeAnswer(response, refusalAnswer(authorizationRefusal(bearer.problem, "API key")));
      return;
    }
    const { snapshot } = rt.policy;
    const identity = identify(snapshot, bearer.token);
    if (!identity.ok) {
      writeAnswer(response, refusalAnswer(identityRefusal(identity.reason)));
      return;
    }
    const { customer } = identity;
    const method = request.method ?? "GET";
    const effect = routeEffect(snapshot.routes.match(method, path)?.rule, method);
    const target = { ...forwarding, customer, path: basePath + rest };

    if (Number(request.headers["content-length"]) > config.maxBodyBytes) {
      // Refused before deciding, like a protected route's bad body: no token is taken.
      if (effect.unmetered) return writeAnswer(response, tooLarge(config.maxBodyBytes, {}));
      const { operation } = effect;
      const refuse = ({ details }: Decision) =>
        writeAnswer(response, tooLarge(config.maxBodyBytes, rateLimitHeaders(operation, details)));
      const peeked = rt.decisions.peek({ customer, operation, now: rt.clock.now() });
      return peeked instanceof Promise ? peeked.then(refuse) : refuse(peeked);
    }
    if (effect.unmetered) return forward(request, response, { ...target, rateLimit: {} });
    const admit = (verdict: Verdict) => {
      const refused = refusalOf(verdict);
      if (refused) writeAnswer(response, refusalAnswer(refused));
      else forward(request, response, { ...target, rateLimit: verdict.headers });
    };
    // In memory the decision comes at once, and no Promise is made (see data-plane.ts).
    const verdict = decide(rt, customer, effect.operation, effect.cost);
    return verdict instanceof Promise ? verdict.then(admit) : admit(verdict);
  };
}

function tooLarge(maxBytes: number, headers: Record<string, string>): HttpAnswer {
  return problemAnswer(
    413,
    "Body too large",
    { detail: `Send at most ${countOf(maxBytes, "byte")}.` },
    headers,
  );
}
