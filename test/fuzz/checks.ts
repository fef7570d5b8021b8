import { bearerToken } from "@/lib/policy/api-key";
import { identify } from "@/lib/policy/decide";
import type { Runtime } from "@/lib/runtime";
import { operationOf } from "@/lib/vocabulary";
import { referenceRepeatedKeys } from "../support/json-reference";
import type { DiscoveredRoute } from "./discover";
import type { Answer } from "./front";
import { isJsonType, THIS_ORIGIN } from "./http-parts";
import { PARAMS } from "./route-table";
import { changesBetween, isChargeOf, rowsAdded, type StateSnapshot } from "./state";

/** Exchange is one request the suite sent, what came back, and the state around it. */
export interface Exchange {
  route: DiscoveredRoute;
  /** request is the request as sent (its body already read). */
  request: Request;
  /** readsBody says the route reads a body and the request carried one (not empty). */
  readsBody: boolean;
  /** sent is the body's text as sent (empty when none or not UTF-8). */
  sent: string;
  rawParams: Record<string, string>;
  answer: Answer;
  /** text is the response body. */
  text: string;
  /** logged are the errors the runtime logged while answering (the causes of 500s). */
  logged: string[];
  before: StateSnapshot;
  /**
   * after is taken after a 4xx (which must change nothing), and after a success that sent a
   * lone surrogate (whose text must not be stored as something else); a success may change
   * anything else.
   */
  after: StateSnapshot | undefined;
}

/** Finding is one broken promise: what kind, the status, and what exactly. */
export interface Finding {
  kind: string;
  status: number;
  detail: string;
  /** more is what a reader needs beyond the detail (a change's rows), not part of its identity. */
  more?: string;
}

function problemError(x: Exchange): string | null {
  const type = x.answer.response.headers.get("content-type") ?? "";
  if (!type.startsWith("application/problem+json")) return `Content-Type is "${type}"`;
  let body: unknown;
  try {
    body = JSON.parse(x.text);
  } catch {
    return `body is not JSON: ${JSON.stringify(x.text.slice(0, 80))}`;
  }
  const { status, title } = (body ?? {}) as { status?: unknown; title?: unknown };
  if (status !== x.answer.response.status) return `body.status is ${JSON.stringify(status)}`;
  if (typeof title !== "string" || title.length === 0) return "body has no title";
  return null;
}

function wellFormedParams(x: Exchange): boolean {
  return Object.entries(x.rawParams).every(([name, raw]) => {
    try {
      return PARAMS[name]?.wellFormed(decodeURIComponent(raw)) ?? false;
    } catch {
      return false;
    }
  });
}

/**
 * isAnsweredNotFound says whether a 404 is the answer to a well-formed API request that the
 * limiter admitted (its id names nothing of the caller's): like every API request it costs
 * one token from the caller's buckets for its operation, and nothing else may change.
 */
function isAnsweredNotFound(x: Exchange, runtime: Runtime, after: StateSnapshot): boolean {
  if (x.answer.response.status !== 404 || !wellFormedParams(x)) return false;
  const key = bearerToken(x.request.headers.get("authorization"));
  const identity = key ? identify(runtime.policy.snapshot, key) : null;
  if (!identity?.ok) return false;
  const operation = operationOf(x.route.method);
  return isChargeOf(x.before, after, identity.customer.id, operation, 1);
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** carriesLoneSurrogate says whether a JSON body holds a string with an unpaired surrogate. */
export function carriesLoneSurrogate(text: string): boolean {
  if (!/[\uD800-\uDFFF]|\\u[dD][89a-fA-F]/.test(text)) return false;
  try {
    return hasLone(JSON.parse(text));
  } catch {
    return false;
  }
}

function hasLone(value: unknown): boolean {
  if (typeof value === "string") return LONE_SURROGATE.test(value);
  if (Array.isArray(value)) return value.some(hasLone);
  if (value !== null && typeof value === "object")
    return Object.entries(value).some(([k, v]) => LONE_SURROGATE.test(k) || hasLone(v));
  return false;
}

function isAdminWrite(route: DiscoveredRoute): boolean {
  return route.path.startsWith("/api/admin/") && !["GET", "HEAD", "OPTIONS"].includes(route.method);
}

/**
 * isDecisionCall says whether a route answers as the decision API (through Next, its benchmark
 * twin), which reads a body declared JSON in UTF-8 only, with or without one.
 */
function isDecisionCall(route: DiscoveredRoute): boolean {
  return route.path === "/api/bench/decisions";
}

/** isCrossSite says whether a browser marked the request as made by another site. */
function isCrossSite(request: Request): boolean {
  const site = request.headers.get("sec-fetch-site");
  if (site !== null) return site !== "same-origin" && site !== "none";
  const origin = request.headers.get("origin");
  return origin !== null && origin !== THIS_ORIGIN;
}

/**
 * findingsOf checks one exchange against the API's promises: never a 5xx; every 4xx a problem
 * body whose status is the response's; after every 4xx every table and bucket as before (but
 * for the token of an admitted API request whose well-formed id named nothing); text stored as
 * sent; a body that gives a key twice refused (JSON.parse would keep the last silently); an
 * admin write refused when another site sent it, or when its body is not JSON in UTF-8; a
 * decision refused unless its body is declared JSON in UTF-8.
 */
export function findingsOf(x: Exchange, runtime: Runtime): Finding[] {
  const { status } = x.answer.response;
  const findings: Finding[] = [];
  if (status >= 500) {
    const title = problemError(x) === null ? JSON.parse(x.text).title : x.text || "(empty body)";
    const cause = x.logged.length > 0 ? ` (logged: ${x.logged.join("; ")})` : "";
    findings.push({ kind: "server error", status, detail: `${x.answer.note ?? title}${cause}` });
  }
  if (status >= 400 && status < 500) {
    const error = problemError(x);
    if (error) findings.push({ kind: "4xx without a problem body", status, detail: error });
    if (x.after && !isAnsweredNotFound(x, runtime, x.after)) {
      for (const change of changesBetween(x.before, x.after))
        findings.push({
          kind: "refused request changed state",
          status,
          detail: change.what,
          more: change.detail,
        });
    }
  }
  if (status < 300 && x.after && carriesLoneSurrogate(x.sent)) {
    for (const { table, row } of rowsAdded(x.before, x.after)) {
      if (row.includes("\uFFFD") && !x.sent.includes("\uFFFD"))
        findings.push({
          kind: "stored text differs from what was sent",
          status,
          detail: `a lone surrogate was stored as U+FFFD in table ${table}`,
          more: row,
        });
    }
  }
  if (status >= 200 && status < 300 && x.readsBody) {
    const repeated = referenceRepeatedKeys(x.sent) ?? [];
    if (repeated.length > 0)
      findings.push({
        kind: "body with a key given twice accepted",
        status,
        detail: repeated.join(", "),
      });
  }
  if (status >= 200 && status < 300 && isDecisionCall(x.route)) {
    if (!isJsonType(x.request.headers.get("content-type")))
      findings.push({ kind: "decision body not declared JSON accepted", status, detail: "" });
  }
  if (status >= 200 && status < 300 && isAdminWrite(x.route)) {
    if (isCrossSite(x.request))
      findings.push({ kind: "cross-site admin write accepted", status, detail: "" });
    if (x.readsBody && !isJsonType(x.request.headers.get("content-type")))
      findings.push({ kind: "admin body not declared JSON accepted", status, detail: "" });
  }
  return findings;
}
