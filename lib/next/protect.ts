import type { z } from "zod";
import { parseBody, parseQuery } from "@/lib/http/body";
import { invalid, notFound, refused, withHeaders } from "@/lib/http/response";
import { readBearer } from "@/lib/policy/api-key";
import { decide, identify } from "@/lib/policy/decide";
import { rateLimitHeaders } from "@/lib/policy/headers";
import { authorizationRefusal, identityRefusal, refusalOf } from "@/lib/policy/refusal";
import type { CustomerPolicy } from "@/lib/policy/snapshot";
import { getRuntime, type Runtime } from "@/lib/runtime";
import { COST_RULE, isCost } from "@/lib/schemas/cost.schema";
import { unknownClassMessage } from "@/lib/schemas/operation-class.schema";
import { type Operation, operationOf } from "@/lib/vocabulary";
import { failedResponse, guarded } from "./guarded";

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
 * ProtectOptions: schemas for the path parameters, the query and the body (all validated before
 * deciding), a cost derived from the body, under the one cost rule (cost.schema.ts), and the
 * operation class the request draws from (a name, or one derived from the body; by default the
 * method's: GET and HEAD read, others write).
 */
export interface ProtectOptions<
  S extends z.ZodType | undefined,
  Q extends z.ZodType | undefined,
  R extends z.ZodType | undefined,
> {
  body?: S;
  query?: Q;
  params?: R;
  cost?: (body: Parsed<S>) => number;
  operation?: Operation | ((body: Parsed<S>) => Operation);
}

type Parsed<S> = S extends z.ZodType ? z.infer<S> : undefined;
type Params<R> = R extends z.ZodType ? z.infer<R> : Record<string, never>;

/** parseInput validates the path parameters, the query, then the body: the first refusal, or the values. */
async function parseInput<
  S extends z.ZodType | undefined,
  Q extends z.ZodType | undefined,
  R extends z.ZodType | undefined,
>(
  request: Request,
  route: { params: Promise<unknown> } | undefined,
  options: ProtectOptions<S, Q, R>,
): Promise<
  | { ok: true; body: Parsed<S>; query: Parsed<Q>; params: Params<R> }
  | { ok: false; response: Response }
> {
  let params = {} as Params<R>;
  if (options.params) {
    // A path that names nothing is a 404, decided before any token is taken.
    const parsed = options.params.safeParse(route ? await route.params : {});
    if (!parsed.success) return { ok: false, response: notFound() };
    params = parsed.data as Params<R>;
  }
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
  return { ok: true, body, query, params };
}

/**
 * protect wraps a route handler with the customer's rate limit: it authenticates the Bearer key
 * against the policy snapshot (401 missing, not Bearer or unknown, 403 suspended: none consumes), validates
 * the path parameters (404 when they name nothing), the query and the body (400 with field
 * errors); none of these refusals consumes. A body whose cost breaks the one cost rule (a whole
 * number from 1 to MAX_COST) is a 400 at `cost` that consumes nothing either. It then decides
 * through the app's one decision path (`decide`) for the request's operation class (`operation`,
 * else the method's; one the policy does not have is a 400 at `operation` that consumes nothing),
 * `cost` tokens
 * (default 1), all or nothing. Every answer after authentication carries the RateLimit fields; refusals are
 * `refusalOf`'s; an unexpected failure is a 500 problem with the cause logged.
 */
export function protect<
  S extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  R extends z.ZodType | undefined = undefined,
>(
  options: ProtectOptions<S, Q, R>,
  handler: (ctx: ProtectedContext<Parsed<S>, Params<R>, Parsed<Q>>) => Response | Promise<Response>,
) {
  return guarded(
    async (request: Request, route?: { params: Promise<unknown> }): Promise<Response> => {
      const runtime = getRuntime();
      const bearer = readBearer(request.headers.get("authorization"));
      if (!bearer.ok) return refused(authorizationRefusal(bearer.problem, "API key"));
      const identity = identify(runtime.policy.snapshot, bearer.token);
      if (!identity.ok) return refused(identityRefusal(identity.reason));
      const { customer } = identity;

      // A fixed class that the policy does not have is refused before anything is read.
      const fixed = typeof options.operation === "string" ? options.operation : undefined;
      const classes = runtime.policy.snapshot.classes;
      if (fixed !== undefined && !classes.has(fixed)) {
        return invalid({ operation: [unknownClassMessage(fixed, classes)] });
      }
      let operation = fixed ?? operationOf(request.method);
      const refuse = async (response: Response) => {
        const peeked = await runtime.decisions.peek({
          customer,
          operation,
          now: runtime.clock.now(),
        });
        return withHeaders(response, rateLimitHeaders(operation, peeked.details));
      };
      const input = await parseInput(request, route, options);
      if (!input.ok) return refuse(input.response);
      const { body, query, params } = input;
      if (typeof options.operation === "function") {
        const chosen = options.operation(body);
        if (!classes.has(chosen)) {
          return invalid({ operation: [unknownClassMessage(chosen, classes)] });
        }
        operation = chosen;
      }
      const cost = options.cost ? options.cost(body) : 1;
      if (!isCost(cost)) {
        return refuse(invalid({ cost: [`${COST_RULE}; this request would cost ${cost}`] }));
      }
      const verdict = await decide(runtime, customer, operation, cost);
      const refusal = refusalOf(verdict);
      if (refusal) return refused(refusal);
      try {
        return withHeaders(
          await handler({ request, customer, body, query, params, runtime }),
          verdict.headers,
        );
      } catch (cause) {
        // The decision was made: the 500 still tells the client where its limits stand.
        return failedResponse(request, cause, verdict.headers);
      }
    },
  );
}
