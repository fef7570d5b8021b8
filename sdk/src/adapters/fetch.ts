import { type Decide, judge, problemBody, type RateLimitOptions, type Verdict } from "../gate.js";
import { PROBLEM_CONTENT_TYPE } from "../problems.js";
import type { RateLimitHeaders } from "../types.js";
import type { DecideResult } from "../unavailable.js";

/** FetchHandler is a fetch-style handler: a Next route handler, `Bun.serve`'s or `Deno.serve`'s fetch. */
export type FetchHandler<Rest extends unknown[]> = (
  request: Request,
  ...rest: Rest
) => Response | Promise<Response>;

/** refusalResponse is a refused verdict as a fetch Response: its status, fields and problem body. */
export function refusalResponse(verdict: Extract<Verdict, { admit: false }>): Response {
  return new Response(problemBody(verdict), {
    status: verdict.status,
    headers: { ...verdict.headers, "Content-Type": PROBLEM_CONTENT_TYPE },
  });
}

/**
 * withHeaders sets `headers` on a response and returns it; a response whose headers cannot
 * change (one from fetch(), Response.redirect()) is copied first, body streamed, not read.
 */
export function withHeaders(response: Response, headers: RateLimitHeaders): Response {
  const entries = Object.entries(headers);
  if (entries.length === 0) return response;
  try {
    for (const [name, value] of entries) response.headers.set(name, value);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    for (const [name, value] of entries) copy.headers.set(name, value);
    return copy;
  }
}

/**
 * fetchMiddleware wraps a fetch-style handler: a refused request is answered here (status,
 * RateLimit fields, problem body); an admitted one reaches `handler`, whose response gets the
 * RateLimit fields. The decision is remembered for `remember`. Errors of `handler` (and of the
 * options' functions) propagate unchanged; Ratekeeper's never do.
 */
export function fetchMiddleware<Rest extends unknown[]>(
  decide: Decide,
  remember: (request: object, decision: DecideResult) => void,
  handler: FetchHandler<Rest>,
  options: RateLimitOptions<Request>,
): (request: Request, ...rest: Rest) => Promise<Response> {
  return async (request, ...rest) => {
    const verdict = await judge(
      decide,
      options,
      request,
      request.method,
      request.headers.get("authorization"),
    );
    if (verdict.decision) remember(request, verdict.decision);
    if (!verdict.admit) return refusalResponse(verdict);
    return withHeaders(await handler(request, ...rest), verdict.headers);
  };
}
