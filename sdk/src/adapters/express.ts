import { type Decide, judge, problemBody, type RateLimitOptions, type Verdict } from "../gate.js";
import { PROBLEM_CONTENT_TYPE } from "../problems.js";
import type { DecideResult } from "../unavailable.js";

/**
 * NodeRequestLike is the part of a Node request (Express's `req`, node:http's IncomingMessage)
 * the middleware reads. Described structurally, so the SDK needs neither Express nor Node types.
 */
export interface NodeRequestLike {
  method?: string | undefined;
  headers: Record<string, string | string[] | undefined>;
}

/** NodeResponseLike is the part of a Node response (Express's `res`, node:http's ServerResponse) the middleware writes. */
export interface NodeResponseLike {
  statusCode: number;
  readonly headersSent: boolean;
  setHeader(name: string, value: string): unknown;
  end(chunk: string): unknown;
}

/** ExpressMiddleware is an Express 5 (or Connect, or node:http) middleware: `app.use(rk.express())`. */
export type ExpressMiddleware<Req extends NodeRequestLike = NodeRequestLike> = (
  req: Req,
  res: NodeResponseLike,
  next: (error?: unknown) => void,
) => void;

function setHeaders(res: NodeResponseLike, headers: Record<string, string>): void {
  if (res.headersSent) return;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
}

function refuse(res: NodeResponseLike, verdict: Extract<Verdict, { admit: false }>): void {
  if (res.headersSent) return;
  res.statusCode = verdict.status;
  setHeaders(res, verdict.headers);
  res.setHeader("Content-Type", PROBLEM_CONTENT_TYPE);
  res.end(problemBody(verdict));
}

function authorizationOf(req: NodeRequestLike): string | undefined {
  const value = req.headers.authorization;
  return Array.isArray(value) ? value[0] : value;
}

/**
 * expressMiddleware returns an Express 5 middleware: the RateLimit fields are set on the response
 * before the route runs (so every answer carries them); a refused request is answered here with
 * its status and problem body. Errors of the options' functions go to `next(error)`;
 * Ratekeeper's never do.
 */
export function expressMiddleware<Req extends NodeRequestLike>(
  decide: Decide,
  remember: (request: object, decision: DecideResult) => void,
  options: RateLimitOptions<Req>,
): ExpressMiddleware<Req> {
  return (req, res, next) => {
    judge(decide, options, req, req.method ?? "GET", authorizationOf(req)).then(
      (verdict) => {
        if (verdict.decision) remember(req, verdict.decision);
        if (!verdict.admit) return refuse(res, verdict);
        setHeaders(res, verdict.headers);
        next();
      },
      (error: unknown) => next(error),
    );
  };
}
