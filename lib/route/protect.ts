import type { z } from "zod";
import { parseBody, parseQuery } from "@/lib/http";
import { bearerToken } from "@/lib/policy/api-key";
import { decide, identify } from "@/lib/policy/decide";
import { rateLimitHeaders } from "@/lib/policy/headers";
import { identityRefusal, missingKey, refusalOf } from "@/lib/policy/refusal";
import type { CustomerPolicy } from "@/lib/policy/snapshot";
import { getRuntime, type Runtime } from "@/lib/runtime";
import { operationOf } from "@/lib/vocabulary";
import { answer, withHeaders } from "./answer";
import { guarded, internalError } from "./guarded";

/** ProtectedContext is what a protected handler receives once the request is admitted. */
export interface ProtectedContext<B, P, Q = undefined> {
  request: Request;
  customer: CustomerPolicy;
  body: B;
  query: Q;
  params: P;
  runtime: Runtime;
}

/**
 * ProtectOptions: a query schema and a body schema (both validated before deciding) and a cost
 * derived from the body.
 */
export interface ProtectOptions<S extends z.ZodType | undefined, Q extends z.ZodType | undefined> {
  body?: S;
  query?: Q;
  cost?: (body: Parsed<S>) => number;
}

type Parsed<S> = S extends z.ZodType ? z.infer<S> : undefined;

/** parseInput validates the query, then the body, of a request: the first 400, or both values. */
async function parseInput<S extends z.ZodType | undefined, Q extends z.ZodType | undefined>(
  request: Request,
  options: ProtectOptions<S, Q>,
): Promise<{ ok: true; body: Parsed<S>; query: Parsed<Q> } | { ok: false; response: Response }> {
  let query = undefined as Parsed<Q>;
  if (options.query) {
    const parsed = parseQuery(request, options.query);
    if (!parsed.ok) return parsed;
    query = parsed.data as Parsed<Q>;
  }
  let body = undefined as Parsed<S>;
  if (options.body) {
    const parsed = await parseBody(request, options.body);
    if (!parsed.ok) return parsed;
    body = parsed.data as Parsed<S>;
  }
  return { ok: true, body, query };
}

/**
 * protect wraps a route handler with the customer's rate limit: it authenticates the Bearer key
 * against the policy snapshot (401 missing or unknown, 403 suspended: neither consumes), validates
 * the query and the body (400 with field errors: consumes nothing), then decides through the
 * app's one decision path (`decide`) for the method's operation, `cost` tokens (default 1), all
 * or nothing. Every answer after authentication carries the RateLimit fields; refusals are
 * `refusalOf`'s; an unexpected failure is a 500 problem with the cause logged.
 */
export function protect<
  S extends z.ZodType | undefined = undefined,
  P = Record<string, never>,
  Q extends z.ZodType | undefined = undefined,
>(
  options: ProtectOptions<S, Q>,
  handler: (ctx: ProtectedContext<Parsed<S>, P, Parsed<Q>>) => Response | Promise<Response>,
) {
  return guarded(async (request: Request, route?: { params: Promise<P> }): Promise<Response> => {
    const runtime = getRuntime();
    const token = bearerToken(request.headers.get("authorization"));
    if (!token) return answer(missingKey());
    const identity = identify(runtime.policy.snapshot, token);
    if (!identity.ok) return answer(identityRefusal(identity.reason));
    const { customer } = identity;

    const operation = operationOf(request.method);
    const input = await parseInput(request, options);
    if (!input.ok) {
      const peeked = await runtime.decisions.peek({
        customer,
        operation,
        now: runtime.clock.now(),
      });
      return withHeaders(input.response, rateLimitHeaders(operation, peeked.details));
    }
    const { body, query } = input;
    const cost = options.cost ? options.cost(body) : 1;
    const verdict = await decide(runtime, customer, operation, cost);
    const refused = refusalOf(verdict);
    if (refused) return answer(refused);
    const params = (route ? await route.params : {}) as P;
    try {
      return withHeaders(
        await handler({ request, customer, body, query, params, runtime }),
        verdict.headers,
      );
    } catch (cause) {
      // The decision was made: the 500 still tells the client where its limits stand.
      return internalError(request, cause, verdict.headers);
    }
  });
}
