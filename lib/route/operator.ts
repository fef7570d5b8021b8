import { SESSION_COOKIE } from "@/lib/auth/operator";
import { problem } from "@/lib/http";
import { getRuntime, type Runtime } from "@/lib/runtime";

/** cookieValue reads one cookie from a request's Cookie header. */
export function cookieValue(request: Request, name: string): string | undefined {
  const header = request.headers.get("cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name)
      return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

/** OperatorContext is what an admin handler receives: the operator, the runtime and the params. */
export interface OperatorContext<P> {
  request: Request;
  actor: string;
  runtime: Runtime;
  params: P;
}

/**
 * withOperator refuses a request without a live operator session with 401, answers unexpected
 * failures with a 500 that carries no internals (the cause is logged), and otherwise runs the
 * handler.
 */
export function withOperator<P = Record<string, never>>(
  handler: (ctx: OperatorContext<P>) => Response | Promise<Response>,
) {
  return async (request: Request, route?: { params: Promise<P> }): Promise<Response> => {
    const runtime = getRuntime();
    const actor = runtime.auth.actorOf(cookieValue(request, SESSION_COOKIE));
    if (!actor) return problem(401, "Not signed in");
    const params = (route ? await route.params : {}) as P;
    try {
      return await handler({ request, actor, runtime, params });
    } catch (cause) {
      runtime.log.error(`${request.method} ${new URL(request.url).pathname} failed`, cause);
      return problem(500, "Internal error");
    }
  };
}
