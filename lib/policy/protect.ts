import type { z } from "zod";
import { parseBody, problem } from "@/lib/http";
import { getRuntime, type Runtime } from "@/lib/runtime";
import type { Operation } from "@/lib/vocabulary";
import { bearerToken, hashApiKey } from "./api-key";
import { operationOf, type RequestInput } from "./decision";
import { rateLimitHeaders } from "./headers";
import type { CustomerPolicy } from "./snapshot";

/** ProtectedContext is what a protected handler receives once the request is admitted. */
export interface ProtectedContext<B, P> {
  request: Request;
  customer: CustomerPolicy;
  body: B;
  params: P;
  runtime: Runtime;
}

/** ProtectOptions: a body schema (validated before deciding) and a cost derived from the body. */
export interface ProtectOptions<S extends z.ZodType | undefined> {
  body?: S;
  cost?: (body: S extends z.ZodType ? z.infer<S> : undefined) => number;
}

type Body<S> = S extends z.ZodType ? z.infer<S> : undefined;

function withHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

/**
 * protect wraps a route handler with the customer's rate limit: it authenticates the Bearer key
 * against the policy snapshot (401 missing or unknown, 403 suspended: neither consumes), validates
 * the body (400 with field errors: consumes nothing), then takes `cost` tokens (default 1) from
 * the customer's buckets for the method's operation in one all-or-nothing decision. Every
 * answer after authentication carries the RateLimit fields; a refusal is 429 with Retry-After.
 */
export function protect<S extends z.ZodType | undefined = undefined, P = Record<string, never>>(
  options: ProtectOptions<S>,
  handler: (ctx: ProtectedContext<Body<S>, P>) => Response | Promise<Response>,
) {
  return async (request: Request, route?: { params: Promise<P> }): Promise<Response> => {
    const runtime = getRuntime();
    const token = bearerToken(request.headers.get("authorization"));
    const challenge = { "WWW-Authenticate": 'Bearer realm="ratekeeper"' };
    if (!token)
      return problem(
        401,
        "Missing API key",
        { detail: "Send Authorization: Bearer <key>." },
        challenge,
      );
    const customer = runtime.policy.snapshot.byKeyHash.get(hashApiKey(token));
    if (!customer) return problem(401, "Unknown API key", {}, challenge);
    if (customer.status !== "active") return problem(403, "Customer suspended");

    const operation: Operation = operationOf(request.method);
    const input: RequestInput = { customer, operation, now: runtime.clock.now() };
    let body = undefined as Body<S>;
    if (options.body) {
      const parsed = await parseBody(request, options.body);
      if (!parsed.ok) {
        const peeked = await runtime.decisions.peek(input);
        return withHeaders(parsed.response, rateLimitHeaders(operation, peeked.details));
      }
      body = parsed.data as Body<S>;
    }
    const cost = options.cost ? options.cost(body as never) : 1;
    const { details, source } = await runtime.decisions.decide(input, cost);
    if (source === "unavailable") {
      // Redis is unreachable and this operation fails closed: not the customer's fault, so not 429.
      return problem(
        503,
        "Rate limit store unavailable",
        {
          detail: `The shared rate-limit store cannot be reached; ${operation}s are refused until it returns.`,
        },
        { "Retry-After": String(Math.ceil(details.retryAfterMs / 1000)) },
      );
    }
    runtime.metrics.decision(customer.planSlug, operation, details.allowed);
    runtime.traffic.record(customer.id, operation, details.allowed, input.now);
    const headers = rateLimitHeaders(operation, details);
    if (!details.allowed) {
      if (details.retryAfterMs === Number.POSITIVE_INFINITY) {
        return problem(
          413,
          "Request exceeds the plan's limit",
          {
            detail: `This request costs ${cost} tokens, more than a limit of the plan allows at once.`,
          },
          headers,
        );
      }
      return problem(
        429,
        "Too many requests",
        {
          detail: `Rate limit of the ${customer.planSlug} plan reached for ${operation}s.`,
          retryAfterSeconds: Number(headers["Retry-After"]),
        },
        headers,
      );
    }
    const params = (route ? await route.params : {}) as P;
    try {
      return withHeaders(await handler({ request, customer, body, params, runtime }), headers);
    } catch (cause) {
      runtime.log.error(`${request.method} ${new URL(request.url).pathname} failed`, cause);
      return problem(500, "Internal error", {}, headers);
    }
  };
}
