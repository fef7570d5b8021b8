import {
  authorizationProblem,
  fallbackProblem,
  missingKeyProblem,
  refusalHeaders,
} from "./problems.js";
import type {
  CustomerRef,
  DecisionRequest,
  Operation,
  Problem,
  RateLimitHeaders,
} from "./types.js";
import type { DecideResult } from "./unavailable.js";

/**
 * CustomerIdentity is who a request is from, as an `identify` function returns it: a customer's
 * API key (a string, or `{ key }`), Ratekeeper's customer id (`{ customerId }`), or null/undefined
 * when the request names no one (answered 401 without asking Ratekeeper).
 */
export type CustomerIdentity = string | CustomerRef | null | undefined;

/**
 * RateLimitOptions tune a middleware; each function receives the framework's own request (the
 * Express request, the Hono context, the fetch Request):
 * - `identify` finds the customer (default: the key of `Authorization: Bearer <key>`);
 * - `operation` is an operation class ("read", "write" or one the operators added), or a function
 *   choosing one (default: GET and HEAD read, every other method writes);
 * - `cost` prices the request in tokens, a whole number from 1 to MAX_COST (default 1).
 * An error thrown by these functions is the application's and goes to its error handling.
 */
export interface RateLimitOptions<Req> {
  identify?: (request: Req) => CustomerIdentity | Promise<CustomerIdentity>;
  operation?: Operation | ((request: Req) => Operation);
  cost?: (request: Req) => number | Promise<number>;
}

/**
 * Verdict is what a middleware does with a request: admit it and add `headers` to the answer, or
 * answer `status` with `headers` and the `problem` body itself. `decision` is null when the request
 * was refused without asking Ratekeeper (no customer key).
 */
export type Verdict =
  | { admit: true; headers: RateLimitHeaders; decision: DecideResult }
  | {
      admit: false;
      status: number;
      headers: RateLimitHeaders;
      problem: Problem;
      decision: DecideResult | null;
    };

/** Decide is the client's decide function, as a middleware calls it. */
export type Decide = (request: DecisionRequest) => Promise<DecideResult>;

/** bearerKey is the token of an `Authorization: Bearer <token>` field, or null when there is none. */
export function bearerKey(authorization: string | null | undefined): string | null {
  if (!authorization) return null;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization);
  return match?.[1] ?? null;
}

/** operationOf maps an HTTP method to an operation: GET and HEAD read, every other method writes. */
export function operationOf(method: string): Operation {
  const upper = method.toUpperCase();
  return upper === "GET" || upper === "HEAD" ? "read" : "write";
}

function refOf(identity: CustomerIdentity): CustomerRef | null {
  if (identity === null || identity === undefined || identity === "") return null;
  if (typeof identity === "string") return { key: identity };
  if ("key" in identity && identity.key === "") return null;
  return identity;
}

/**
 * judge decides a request for a middleware: it identifies the customer (a request naming none is
 * refused 401 without a call), picks the operation and cost, asks `decide`, and turns the decision
 * into a Verdict. It never rejects because of Ratekeeper (`decide` does not); it rejects only when
 * the application's own `identify`, `operation` or `cost` throws or returns a malformed value.
 */
export async function judge<Req>(
  decide: Decide,
  options: RateLimitOptions<Req>,
  request: Req,
  method: string,
  authorization: string | null | undefined,
): Promise<Verdict> {
  const identity = options.identify ? await options.identify(request) : bearerKey(authorization);
  const ref = refOf(identity);
  if (!ref) {
    return {
      admit: false,
      status: 401,
      headers: refusalHeaders(401, {}),
      problem: options.identify ? missingKeyProblem() : authorizationProblem(authorization),
      decision: null,
    };
  }
  const operation =
    typeof options.operation === "function"
      ? options.operation(request)
      : (options.operation ?? operationOf(method));
  const cost = options.cost ? await options.cost(request) : undefined;
  const decision = await decide({ ...ref, operation, ...(cost === undefined ? {} : { cost }) });
  if (decision.allowed) return { admit: true, headers: decision.headers, decision };
  return {
    admit: false,
    status: decision.status,
    headers: refusalHeaders(decision.status, decision.headers),
    problem: decision.problem ?? fallbackProblem(decision.status),
    decision,
  };
}

/** problemBody is a refusal's body as sent: its problem document in JSON. */
export function problemBody(verdict: Extract<Verdict, { admit: false }>): string {
  return JSON.stringify(verdict.problem);
}
