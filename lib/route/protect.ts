import type { z } from "zod";
import { notFound, parseBody, problem } from "@/lib/http";
import { bearerToken } from "@/lib/policy/api-key";
import { decide, identify } from "@/lib/policy/decide";
import { rateLimitHeaders } from "@/lib/policy/headers";
import { identityRefusal, missingKey, refusalOf } from "@/lib/policy/refusal";
import type { CustomerPolicy } from "@/lib/policy/snapshot";
import { getRuntime, type Runtime } from "@/lib/runtime";
import { operationOf } from "@/lib/vocabulary";
import { answer, withHeaders } from "./answer";

/** ProtectedContext is what a protected handler receives once the request is admitted. */
export interface ProtectedContext<B, P> {
  request: Request;
  customer: CustomerPolicy;
  body: B;
  params: P;
  runtime: Runtime;
}

/**
 * ProtectOptions: schemas for the path parameters and the body (both validated before deciding)
 * and a cost derived from the body.
 */
export interface ProtectOptions<
  S extends z.ZodType | undefined,
  R extends z.ZodType | undefined = undefined,
> {
  body?: S;
  params?: R;
  cost?: (body: S extends z.ZodType ? z.infer<S> : undefined) => number;
}

type Body<S> = S extends z.ZodType ? z.infer<S> : undefined;
type Params<R> = R extends z.ZodType ? z.infer<R> : Record<string, never>;

/**
 * protect wraps a route handler with the customer's rate limit: it authenticates the Bearer key
 * against the policy snapshot (401 missing or unknown, 403 suspended: neither consumes), validates
 * the path parameters (404 when they name nothing: consumes nothing) and the body (400 with field
 * errors: consumes nothing), then decides through the app's one decision
 * path (`decide`) for the method's operation, `cost` tokens (default 1), all or nothing. Every
 * answer after authentication carries the RateLimit fields; refusals are `refusalOf`'s.
 */
export function protect<
  S extends z.ZodType | undefined = undefined,
  R extends z.ZodType | undefined = undefined,
>(
  options: ProtectOptions<S, R>,
  handler: (ctx: ProtectedContext<Body<S>, Params<R>>) => Response | Promise<Response>,
) {
  return async (request: Request, route?: { params: Promise<unknown> }): Promise<Response> => {
    const runtime = getRuntime();
    const token = bearerToken(request.headers.get("authorization"));
    if (!token) return answer(missingKey());
    const identity = identify(runtime.policy.snapshot, token);
    if (!identity.ok) return answer(identityRefusal(identity.reason));
    const { customer } = identity;

    const operation = operationOf(request.method);
    // A refusal before the decision costs nothing: it shows the buckets as a peek sees them.
    const refuse = async (response: Response) => {
      const input = { customer, operation, now: runtime.clock.now() };
      const peeked = await runtime.decisions.peek(input);
      return withHeaders(response, rateLimitHeaders(operation, peeked.details));
    };
    let params = {} as Params<R>;
    if (options.params) {
      const parsed = options.params.safeParse(route ? await route.params : {});
      if (!parsed.success) return refuse(notFound());
      params = parsed.data as Params<R>;
    }
    let body = undefined as Body<S>;
    if (options.body) {
      const parsed = await parseBody(request, options.body);
      if (!parsed.ok) return refuse(parsed.response);
      body = parsed.data as Body<S>;
    }
    const cost = options.cost ? options.cost(body as never) : 1;
    const verdict = await decide(runtime, customer, operation, cost);
    const refused = refusalOf(verdict);
    if (refused) return answer(refused);
    try {
      return withHeaders(
        await handler({ request, customer, body, params, runtime }),
        verdict.headers,
      );
    } catch (cause) {
      runtime.log.error(`${request.method} ${new URL(request.url).pathname} failed`, cause);
      return problem(500, "Internal error", {}, verdict.headers);
    }
  };
}
