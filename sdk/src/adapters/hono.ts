import { type Decide, judge, type RateLimitOptions } from "../gate.js";
import type { DecideResult } from "../unavailable.js";
import { refusalResponse } from "./fetch.js";

/**
 * HonoContextLike is the part of Hono's `Context` the middleware and its options see: the request
 * (raw, method, path, url, a query parameter, a header) and `header()`, which also rewrites a
 * finished response. Hono's Context satisfies it; the SDK does not depend on Hono. For the whole
 * Context in the options' functions, name it: `rk.hono<Context>({ … })`.
 */
export interface HonoContextLike {
  req: {
    raw: Request;
    method: string;
    path: string;
    url: string;
    query(name: string): string | undefined;
    header(name: string): string | undefined;
  };
  header(name: string, value: string | undefined, options?: { append?: boolean }): void;
}

/** HonoMiddleware is a Hono middleware handler: `app.use(rk.hono())` or per route. */
export type HonoMiddleware<C extends HonoContextLike = HonoContextLike> = (
  c: C,
  next: () => Promise<void>,
) => Promise<Response | undefined>;

/**
 * honoMiddleware returns a Hono middleware: a refused request is answered here with its status,
 * RateLimit fields and problem body; an admitted one goes on, and the answer the app makes gets
 * the RateLimit fields. Options' functions receive the Hono context.
 */
export function honoMiddleware<C extends HonoContextLike>(
  decide: Decide,
  remember: (request: object, decision: DecideResult) => void,
  options: RateLimitOptions<C>,
): HonoMiddleware<C> {
  return async (c, next) => {
    const raw = c.req.raw;
    const verdict = await judge(decide, options, c, raw.method, raw.headers.get("authorization"));
    if (verdict.decision) {
      remember(c, verdict.decision);
      remember(raw, verdict.decision);
    }
    if (!verdict.admit) return refusalResponse(verdict);
    await next();
    // After next(): c.header() on a finished response sets the field on (a copy of) it, whatever
    // the handler returned, c.json() or a Response of its own.
    for (const [name, value] of Object.entries(verdict.headers)) c.header(name, value);
    return undefined;
  };
}
